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
        ranked(entries.map(\.player)) { _, index in entries[index].score }
    }

    /// Builds a scoreboard of `players` (in join order; ties keep it), best score first, reading each one's
    /// score from `score` (the player and their position in `players`).
    ///
    /// A room builds its scoreboard for every view it shows, so this makes one array and no other: the lines are
    /// sorted in place by insertion (stable, and quick for a room's few players), then ranked.
    public static func ranked(_ players: [Player], score: (PlayerID, Int) -> Int) -> [ScoreLine] {
        var lines: [ScoreLine] = []
        lines.reserveCapacity(players.count)
        for (index, player) in players.enumerated() {
            let line = ScoreLine(player: player.id, name: player.name, score: score(player.id, index), rank: 0)
            var slot = lines.count
            while slot > 0, lines[slot - 1].score < line.score { slot -= 1 }
            lines.insert(line, at: slot)
        }
        for position in lines.indices {
            let tied = position > 0 && lines[position - 1].score == lines[position].score
            lines[position].rank = tied ? lines[position - 1].rank : position + 1
        }
        return lines
    }
}
