/// The random id a browser keeps for itself (the web client stores it in `localStorage`) and sends with `create`
/// and `join`. A host's removal bans it from the room, so that a reload does not bring the removed player back.
///
/// It is not a secret and not proof of anything: a player who clears the browser's storage gets a new one. It is
/// never the IP address, which friends at one party share.
public struct ClientID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// 16 to 64 characters of `A-Z a-z 0-9 - _` (base64url, as the web client makes it).
    public init?(_ text: String) {
        guard (16...64).contains(text.utf8.count), text.utf8.allSatisfy(Self.isAllowed) else { return nil }
        rawValue = text
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }

    public var description: String { rawValue }
}
