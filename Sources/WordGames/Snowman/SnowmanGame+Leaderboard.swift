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
}

extension SnowmanGame.Standing: LeaderboardStanding {
    init(player: PlayerID, name: String) {
        self.init(player: player, name: name, total: 0, wins: 0, games: 0)
    }

    /// A game played.
    mutating func count(_ line: ScoreLine) {
        games += 1
    }
}
