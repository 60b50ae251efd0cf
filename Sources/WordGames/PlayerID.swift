/// Identifies a player in a room across games; the rooms layer chooses the values (e.g. a session id).
///
/// The rooms layer writes it as a plain JSON string.
public struct PlayerID: RawRepresentable, Hashable, Comparable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The identifier as chosen by the rooms layer.
    public var rawValue: String

    /// Wraps an identifier chosen by the rooms layer.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Wraps an identifier chosen by the rooms layer.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Allows `"alice"` wherever a `PlayerID` is expected (handy in tests).
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// The raw value, so ids read naturally in logs and messages.
    public var description: String { rawValue }

    /// Orders ids by raw value, for stable listings.
    public static func < (lhs: PlayerID, rhs: PlayerID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
