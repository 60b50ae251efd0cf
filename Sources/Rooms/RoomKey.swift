import Runtime

/// The secret of a private room: 96 bits from the operating system's secure source, written as 16 base64url
/// characters, carried in the room's link (`/r/QHTW#k=...`) and required, besides the code, to join or peek.
///
/// Four-letter codes are too few to hide a room (22⁴ ≈ 234,000: addresses rotated within one IPv6 network went
/// through them in about half a minute), so a private room's code alone answers exactly as a code nobody uses
/// (`room-not-found`). Compared in constant time.
public struct RoomKey: Sendable, Hashable, CustomStringConvertible {
    /// 12 random bytes, 16 characters: far beyond guessing at any rate a server answers.
    public static let byteCount = 12
    public static let length = 16
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    public let rawValue: String

    /// A fresh key from `SecureRandom`.
    public static func random() -> RoomKey {
        RoomKey(bytes: SecureRandom.bytes(byteCount))
    }

    private init(bytes: [UInt8]) {
        // 12 bytes are 96 bits: four 6-bit characters per 3 bytes, no padding.
        var text: [UInt8] = []
        text.reserveCapacity(Self.length)
        var index = 0
        while index < bytes.count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            for shift in stride(from: 18, through: 0, by: -6) {
                text.append(Self.alphabet[Int(chunk >> UInt32(shift) & 0x3F)])
            }
            index += 3
        }
        rawValue = String(decoding: text, as: UTF8.self)
    }

    /// Exactly 16 base64url characters; nil otherwise.
    public init?(_ text: String) {
        guard text.utf8.count == Self.length, text.utf8.allSatisfy({ Self.alphabet.contains($0) }) else { return nil }
        rawValue = text
    }

    /// Equality without an early exit, so that timing does not tell how much of a guess was right.
    public func matches(_ other: RoomKey?) -> Bool {
        guard let other else { return false }
        var difference: UInt8 = 0
        for (mine, theirs) in zip(rawValue.utf8, other.rawValue.utf8) { difference |= mine ^ theirs }
        return difference == 0
    }

    public var description: String { rawValue }
}
