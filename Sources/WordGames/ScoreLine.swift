/// One row of a scoreboard: a player, their points and their rank.
public struct ScoreLine: Hashable, Sendable, Codable {
    /// The player this row belongs to.
    public var player: PlayerID
    /// The player's display name when the scoreboard was made.
    public var name: String
    /// Points scored.
    public var score: Int
    /// 1 for the best score; tied players share a rank and the next rank is skipped ("1, 1, 3").
    public var rank: Int

    /// Creates a row; use `ranked(_:)` to build whole scoreboards.
    public init(player: PlayerID, name: String, score: Int, rank: Int) {
        self.player = player
        self.name = name
        self.score = score
        self.rank = rank
    }

    /// Builds a scoreboard, best score first.
    ///
    /// - Parameter entries: Players with their scores, in join order; ties keep this order.
    /// - Returns: One row per entry, sorted by score (descending), with competition ranks.
    public static func ranked(_ entries: [(player: Player, score: Int)]) -> [ScoreLine] {
        let sorted = entries.enumerated().sorted { lhs, rhs in
            lhs.element.score != rhs.element.score ? lhs.element.score > rhs.element.score : lhs.offset < rhs.offset
        }
        var lines: [ScoreLine] = []
        lines.reserveCapacity(sorted.count)
        for (position, entry) in sorted.map(\.element).enumerated() {
            let rank = position > 0 && lines[position - 1].score == entry.score ? lines[position - 1].rank : position + 1
            lines.append(ScoreLine(player: entry.player.id, name: entry.player.name, score: entry.score, rank: rank))
        }
        return lines
    }
}
