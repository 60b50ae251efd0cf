import JSON

/// What the lobby shows of a room.
public struct RoomSummary: Sendable, Equatable {
    public var code: RoomCode
    public var game: GameKind
    public var players: Int
    public var spectators: Int
    public var maxPlayers: Int
    /// `waiting`, `playing` or `finished`.
    public var status: String
    public var isPublic: Bool
    /// The host locked the room: nobody new may join, so the lobby shows a lock instead of Join.
    public var locked = false

    /// One room of the lobby's list (`LobbyListing` keeps it encoded).
    public var json: JSONValue {
        [
            "code": JSONValue(code.rawValue),
            "game": JSONValue(game.rawValue),
            "players": JSONValue(players),
            "spectators": JSONValue(spectators),
            "maxPlayers": JSONValue(maxPlayers),
            "status": JSONValue(status),
            "locked": JSONValue(locked),
        ]
    }
}
