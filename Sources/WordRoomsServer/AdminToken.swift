#if canImport(Glibc)
import Glibc
#endif

/// The secret that opens the operator dashboard (`/admin`) and its API.
///
/// Compared in constant time (the time taken does not depend on how many leading characters match) and never
/// written to a log: `description` hides it.
public struct AdminToken: Sendable, Equatable, CustomStringConvertible {
    /// The token as the operator types it.
    public let value: String

    /// Shortest accepted token: a guessable one would make the dashboard's actions anyone's.
    public static let minimumLength = 16
    public static let maximumLength = 256

    /// Why a `--admin-token` value is refused, worded for the person who typed it.
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        case tooShort
        case tooLong
        case badCharacter

        public var description: String {
            switch self {
            case .tooShort: "an admin token needs at least \(AdminToken.minimumLength) characters"
            case .tooLong: "an admin token can be at most \(AdminToken.maximumLength) characters"
            case .badCharacter:
                "an admin token may only hold letters, digits and - . _ ~ (it travels in URLs unescaped)"
            }
        }
    }

    /// A token given by the operator.
    ///
    /// - Throws: `Refusal` when it is too short, too long, or has characters outside RFC 3986's unreserved set
    ///   (the page passes it in the WebSocket's query, unescaped).
    public init(parsing text: String) throws(Refusal) {
        guard text.utf8.count >= Self.minimumLength else { throw .tooShort }
        guard text.utf8.count <= Self.maximumLength else { throw .tooLong }
        guard text.utf8.allSatisfy(Self.isUnreserved) else { throw .badCharacter }
        value = text
    }

    private init(unchecked value: String) {
        self.value = value
    }

    /// A fresh token of 24 random bytes (48 hex digits) from the system's secure source (getrandom).
    public static func random() -> AdminToken {
        var generator = SystemRandomNumberGenerator()
        var text = ""
        for _ in 0..<3 {
            let word = generator.next() as UInt64
            let hex = String(word, radix: 16)
            text += String(repeating: "0", count: 16 - hex.count) + hex
        }
        return AdminToken(unchecked: text)
    }

    /// Whether `candidate` is this token, in time that depends only on the lengths.
    public func matches(_ candidate: some StringProtocol) -> Bool {
        Self.constantTimeEquals(Array(value.utf8), Array(candidate.utf8))
    }

    /// Byte-wise equality that looks at every byte of `secret` whatever `candidate` holds, so that the time taken
    /// leaks nothing about a near miss.
    static func constantTimeEquals(_ secret: [UInt8], _ candidate: [UInt8]) -> Bool {
        var difference = UInt64(secret.count ^ candidate.count)
        for index in secret.indices {
            let other = index < candidate.count ? candidate[index] : ~secret[index]
            difference |= UInt64(secret[index] ^ other)
        }
        return difference == 0
    }

    /// The token a request presents: `Authorization: Bearer TOKEN`, or (for the WebSocket, whose browser API
    /// cannot set headers) `token=TOKEN` in the query.
    ///
    /// - Parameters:
    ///   - authorization: the `Authorization` header's value, if any.
    ///   - query: the request target's query, if any.
    ///   - allowingQuery: whether the query may carry it (only the admin WebSocket).
    static func presented(authorization: String?, query: String?, allowingQuery: Bool) -> Substring? {
        if let authorization {
            let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
            if parts.count == 2, parts[0].lowercased() == "bearer" {
                return parts[1].drop { $0 == " " }
            }
        }
        guard allowingQuery, let query else { return nil }
        for pair in query.split(separator: "&") where pair.hasPrefix("token=") {
            return pair.dropFirst("token=".count)
        }
        return nil
    }

    /// RFC 3986 §2.3 unreserved characters.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
             UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// Never the token itself: options and errors get printed.
    public var description: String { "AdminToken(\(value.count) characters)" }
}
