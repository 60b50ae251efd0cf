/// One player's result in a finished round (or game), as a leaderboard adds it up.
protocol RoundOutcome {
    var player: PlayerID { get }
    /// Their name as the round shows it; the leaderboard takes it as their latest.
    var name: String { get }
    /// Points scored in the round.
    var points: Int { get }
}

extension ScoreLine: RoundOutcome {
    var points: Int { score }
}
