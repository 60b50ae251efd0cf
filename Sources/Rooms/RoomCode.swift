/// A room's short code, such as `QHTW`: what friends type or find in a link.
///
/// Four letters from an alphabet without look-alikes (no I, L, O, U, which read as 1, 1, 0 and V), so a code
/// read aloud or off a phone is typed right: 22⁴ ≈ 234,000 codes, drawn from `SecureRandom` so that one code does
/// not tell the next. That is too few to hide a room: a private room is opened by its code and its `RoomKey`.
///
/// When rooms are spread over several instances, a code has a fifth letter in front naming the instance's
/// shard (`A` for shard 0, `B` for 1...), so a router can send `/ws/CODE` to the right instance from the URL.
public struct RoomCode: Hashable, Sendable, CustomStringConvertible {
    public static let alphabet = Array("ABCDEFGHJKMNPQRSTVWXYZ".utf8)
    public static let length = 4
    /// The most shards a code can name: one per alphabet letter.
    public static let maxShards = alphabet.count

    public let rawValue: String

    /// Accepts user input case-insensitively with surrounding spaces; nil unless it is a well-formed code.
    public init?(_ text: String) {
        var bytes: [UInt8] = []
        for byte in text.utf8 where byte != UInt8(ascii: " ") {
            let upper = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 32 : byte
            guard RoomCode.alphabet.contains(upper) else { return nil }
            bytes.append(upper)
        }
        guard bytes.count == RoomCode.length || bytes.count == RoomCode.length + 1 else { return nil }
        rawValue = String(decoding: bytes, as: UTF8.self)
    }

    /// A code drawn uniformly at random, prefixed with the shard's letter when there is one.
    public static func random(shard: Int? = nil, using generator: inout some RandomNumberGenerator) -> RoomCode {
        var bytes: [UInt8] = []
        if let shard {
            bytes.append(alphabet[shard % alphabet.count])
        }
        for _ in 0..<length {
            bytes.append(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)])
        }
        return RoomCode(String(decoding: bytes, as: UTF8.self))!
    }

    /// The shard named by a five-letter code.
    public var shard: Int? {
        guard rawValue.utf8.count == RoomCode.length + 1, let first = rawValue.utf8.first else { return nil }
        return RoomCode.alphabet.firstIndex(of: first)
    }

    public var description: String { rawValue }
}
