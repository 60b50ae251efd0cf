/// One present player's line in a game's view, `scores` on the wire: `{"player", "name", "score"}`.
///
/// Both games show the same line; a scoreboard with ranks is `ScoreLine`. Whose turn it is stays out of the line
/// (a view says it once, as `turn`), so a turn passing changes one value rather than two lines.
public struct PlayerLine: Hashable, Sendable, Encodable {
    /// The player's id.
    public var id: PlayerID
    /// The player's display name.
    public var name: String
    /// Points in the current (or last) game or match.
    public var score: Int

    private enum CodingKeys: String, CodingKey {
        case id = "player"
        case name, score
    }

    /// Creates a line.
    public init(id: PlayerID, name: String, score: Int) {
        self.id = id
        self.name = name
        self.score = score
    }
}
