extension SnowmanGame {
    /// One player's running total over the room's finished games: who is winning the evening.
    /// Shown (`leaderboard`) and saved alike.
    public struct Standing: Hashable, Sendable, Codable {
        /// The player.
        public var player: PlayerID
        /// Their name as of their latest game.
        public var name: String
        /// Points over every finished game.
        public var total: Int
        /// Games in which they had the top score (tied top scores all count; a game where nobody scored has no
        /// winner).
        public var wins: Int
        /// Finished games they took part in.
        public var games: Int
        /// 1 for the best total; players tied on total and wins share a rank ("1, 1, 3").
        public var rank: Int

        /// Creates a standing; `rank` is set when the leaderboard is sorted.
        public init(player: PlayerID, name: String, total: Int, wins: Int, games: Int, rank: Int = 0) {
            self.player = player
            self.name = name
            self.total = total
            self.wins = wins
            self.games = games
            self.rank = rank
        }
    }

    /// Adds a finished game's scores to `standings`, best first, ranked.
    static func adding(_ scores: [ScoreLine], to standings: [Standing]) -> [Standing] {
        var updated = standings
        let top = scores.map(\.score).max() ?? 0
        for line in scores {
            let won = top > 0 && line.score == top
            if let index = updated.firstIndex(where: { $0.player == line.player }) {
                updated[index].name = line.name
                updated[index].total += line.score
                updated[index].games += 1
                if won { updated[index].wins += 1 }
            } else {
                updated.append(Standing(player: line.player, name: line.name, total: line.score, wins: won ? 1 : 0,
                                        games: 1))
            }
        }
        // Stable: players tied on both keep the order in which they first played.
        let sorted = updated.enumerated().sorted { lhs, rhs in
            let (a, b) = (lhs.element, rhs.element)
            if a.total != b.total { return a.total > b.total }
            if a.wins != b.wins { return a.wins > b.wins }
            return lhs.offset < rhs.offset
        }.map(\.element)
        var ranked: [Standing] = []
        ranked.reserveCapacity(sorted.count)
        for (position, standing) in sorted.enumerated() {
            var line = standing
            if let previous = ranked.last, previous.total == line.total, previous.wins == line.wins {
                line.rank = previous.rank
            } else {
                line.rank = position + 1
            }
            ranked.append(line)
        }
        return ranked
    }
}
