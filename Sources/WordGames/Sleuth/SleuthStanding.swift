/// One player's running total over the rounds a Sleuth room played: who is winning the evening. Shown
/// (`leaderboard`) and saved alike.
public struct SleuthStanding: Hashable, Sendable, Codable, LeaderboardStanding {
    public var player: PlayerID
    /// Their name as of their latest round.
    public var name: String
    /// Points over every finished round.
    public var total: Int
    /// Rounds they solved.
    public var solved: Int
    /// Rounds in which they had the top score (tied top scores all count; a round nobody solved has no winner).
    public var wins: Int
    /// Finished rounds they played.
    public var rounds: Int
    /// 1 for the best total; players tied on total and wins share a rank ("1, 1, 3").
    public var rank: Int

    public init(player: PlayerID, name: String, total: Int, solved: Int = 0, wins: Int = 0, rounds: Int = 0,
                rank: Int = 0) {
        self.player = player
        self.name = name
        self.total = total
        self.solved = solved
        self.wins = wins
        self.rounds = rounds
        self.rank = rank
    }

    init(player: PlayerID, name: String) {
        self.init(player: player, name: name, total: 0)
    }

    /// A round played, and solved if it was.
    mutating func count(_ board: SleuthGame.Board) {
        rounds += 1
        if board.solved { solved += 1 }
    }
}

extension SleuthGame.Board: RoundOutcome {}
