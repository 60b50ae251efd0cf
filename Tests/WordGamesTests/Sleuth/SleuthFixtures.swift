@testable import WordGames

/// Sleuth tables for the suites: a small dictionary and a room whose every secret is known.
enum SleuthFixtures {
    static let lexicon = Lexicon(words: [
        "crane", "crate", "trace", "react", "speed", "abide", "erase", "geese", "eerie", "hello", "llama", "world",
        "stare", "slate", "plant", "ghost",
    ])

    /// A table whose secret is `secret`, with `players` joined and, unless `start` is false, round 1 started at 0.
    static func game(secret: String = "crane", players: [PlayerID] = ["alice", "bob"],
                     settings: SleuthSettings = .standard, start: Bool = true) throws -> SleuthGame {
        var game = SleuthGame(lexicon: lexicon, secrets: [secret], settings: settings)
        for id in players { game.addPlayer(Fixtures.player(id), now: 0) }
        if start {
            var random = SplitMix64(seed: 3)
            try game.startRound(now: 0, using: &random)
        }
        return game
    }

    /// A round of CRANE in which Alice tried STARE and TRACE and Bob tried LLAMA.
    static func playedRound() throws -> SleuthGame {
        var game = try game()
        try game.guess("stare", by: "alice", now: 1)
        try game.guess("llama", by: "bob", now: 2)
        try game.guess("trace", by: "alice", now: 3)
        return game
    }

    /// The rejection `body` throws, or nil.
    static func rejection(_ body: () throws -> Any) -> SleuthGame.Rejection? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as? SleuthGame.Rejection
        }
    }
}
