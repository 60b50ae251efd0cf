/// A participant of a game: who they are and what to call them in status lines.
public struct Player: Hashable, Sendable, Codable {
    /// Stable identity chosen by the rooms layer.
    public var id: PlayerID
    /// Display name used in status lines ("Alice's turn").
    public var name: String

    /// Creates a player.
    ///
    /// - Parameters:
    ///   - id: Stable identity chosen by the rooms layer.
    ///   - name: Display name used in status lines.
    public init(id: PlayerID, name: String) {
        self.id = id
        self.name = name
    }
}
