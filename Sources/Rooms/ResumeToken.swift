import Runtime

/// The private 128-bit secret that lets a player take back their seat after a dropped connection.
///
/// Sent once, in the `welcome` message; shown as 32 lowercase hex digits. Compared in constant time so that
/// response timing does not reveal how much of a guessed token was right.
public struct ResumeToken: Sendable, Hashable, CustomStringConvertible {
    private let high: UInt64
    private let low: UInt64

    /// A fresh token from the system's secure random source (getrandom(2)).
    public static func random() -> ResumeToken {
        var generator = SecureRandom()
        return ResumeToken(high: generator.next(), low: generator.next())
    }

    private init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Parses 32 hex digits; nil otherwise.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 32 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for (index, byte) in bytes.enumerated() {
            let digit: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt64(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt64(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            if index < 16 { high = high << 4 | digit } else { low = low << 4 | digit }
        }
        self.init(high: high, low: low)
    }

    /// Equality without an early exit.
    public func matches(_ other: ResumeToken) -> Bool {
        ((high ^ other.high) | (low ^ other.low)) == 0
    }

    public var description: String {
        func hex(_ value: UInt64) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return hex(high) + hex(low)
    }
}
