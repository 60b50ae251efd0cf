@testable import WordGames

/// What random play does to a game's table besides moves: players join and leave, and the clock ticks.
protocol RandomlyPlayedGame {
    associatedtype TickEvents
    mutating func addPlayer(_ player: Player, now: Double)
    mutating func removePlayer(_ id: PlayerID, now: Double)
    mutating func tick(now: Double) -> TickEvents
}

extension SnowmanGame: RandomlyPlayedGame {}
extension ScrambleGame: RandomlyPlayedGame {}

extension RandomlyPlayedGame {
    /// Plays one random step at `now`: of `draws` equally likely draws, one seats a random player of `ids`, one
    /// removes one, one ticks the clock, and every other one calls `move` (a guess or a submission).
    mutating func playRandomStep<Random: RandomNumberGenerator>(
        outOf draws: Int, ids: [PlayerID], now: Double, using random: inout Random,
        move: (inout Self, inout Random) -> Void
    ) {
        switch Int.random(in: 0..<draws, using: &random) {
        case 0: addPlayer(Fixtures.player(ids.randomElement(using: &random)!), now: now)
        case 1: removePlayer(ids.randomElement(using: &random)!, now: now)
        case 2: _ = tick(now: now)
        default: move(&self, &random)
        }
    }
}
