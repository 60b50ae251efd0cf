import Testing
@testable import WordGames

extension SnowmanGameTests {
    /// Plays thousands of games with random players, moves, junk input and clock jumps, checking the invariants
    /// after every step.
    @Test func randomPlayKeepsEveryInvariant() throws {
        let words = try Fixtures.bundled.get().secrets
        let ids: [PlayerID] = ["alice", "bob", "carol", "dave", "erin"]
        let junk = ["", " ", "7", "?", "é", "  q", "Zebra", "ß"]
        var random = SplitMix64(seed: 2024)
        var finished = 0

        for round in 0..<300 {
            let settings = try SnowmanSettings(
                maxWrongGuesses: Int.random(in: 3...10, using: &random),
                turnSeconds: Bool.random(using: &random) ? Int.random(in: 10...120, using: &random) : nil)
            var generator = SplitMix64(seed: UInt64(round))
            var now = 0.0
            var game = SnowmanGame(words: words, settings: settings, now: now, using: &generator)
            var points: [PlayerID: Int] = [:]

            for _ in 0..<12 {
                while game.status == .inProgress {
                    now += Double.random(in: 0...(settings.turnSeconds.map { Double($0) * 1.5 } ?? 5), using: &random)
                    game.playRandomStep(outOf: 20, ids: ids, now: now, using: &random) { game, random in
                        let player = Bool.random(using: &random) ? game.turn : ids.randomElement(using: &random)
                        let input = Int.random(in: 0..<10, using: &random) == 0
                            ? junk.randomElement(using: &random)!
                            : String(UnicodeScalar(UInt8.random(in: 65...90, using: &random)))
                        if let guess = try? game.guess(input, by: player ?? "nobody", now: now) {
                            points[guess.player, default: 0] += guess.points
                        }
                    }
                    Self.checkInvariants(of: game, now: now, points: points)
                    if game.players.isEmpty {
                        game.addPlayer(Fixtures.player(ids.randomElement(using: &random)!), now: now)
                    }
                }
                finished += 1
                let record = try #require(game.history.last)
                #expect(record.word == String(game.secret))
                #expect(record.result == game.status)
                #expect(record.scores.map(\.score).reduce(0, +) == points.values.reduce(0, +))
                try game.startNextGame(now: now, using: &generator)
                points = [:]
            }
        }
        #expect(finished == 3_600)
    }

    /// The invariants every reachable state must satisfy; records one issue listing every broken one.
    ///
    /// Checks plain conditions rather than calling `#expect` for each: thousands of games make millions of checks.
    private static func checkInvariants(
        of game: SnowmanGame, now: Double, points: [PlayerID: Int], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var broken: [String] = []
        func check(_ condition: Bool, _ invariant: String) {
            if !condition { broken.append(invariant) }
        }
        let guessed = Set(game.guesses.map(\.letter))
        check(guessed.count == game.guesses.count, "each letter is guessed once")
        check(game.wrongGuesses == game.guesses.filter { !$0.isCorrect }.count, "wrong guesses counted")
        check(game.wrongGuesses <= game.settings.maxWrongGuesses, "wrong guesses within the limit")
        for (index, letter) in game.secret.enumerated() {
            check(game.revealed[index] == guessed.contains(String(letter)), "position \(index) revealed iff guessed")
        }
        for guess in game.guesses {
            check(guess.revealedPositions == game.secret.filter { String($0) == guess.letter }.count,
                  "\(guess.letter) revealed every occurrence")
        }

        let allRevealed = !game.revealed.contains(false)
        switch game.status {
        case .waiting:
            check(false, "a game made without waitForHost never waits")
        case .inProgress:
            check(!allRevealed && game.wrongGuesses < game.settings.maxWrongGuesses, "in progress is neither won nor lost")
        case .won:
            check(allRevealed && game.solver == game.guesses.last?.player, "won means every letter revealed")
        case .lost:
            check(!allRevealed && game.wrongGuesses == game.settings.maxWrongGuesses, "lost means the limit was hit")
        }

        check(game.guesses.filter { $0.bonus > 0 }.count == (game.status == .won ? 1 : 0), "one bonus, for a win")
        check(game.scores.filter { $0.value != 0 } == points.filter { $0.value != 0 }, "scores match the moves")
        check(game.scores.values.reduce(0, +) == game.guesses.map(\.points).reduce(0, +), "scores add up")

        if let turn = game.turn {
            check(game.players.contains { $0.id == turn }, "the turn belongs to a player")
        } else {
            check(game.players.isEmpty, "someone has the turn when there are players")
        }
        if let deadline = game.turnDeadline {
            check(deadline > now && game.status == .inProgress && game.turn != nil, "deadline in the future")
        } else {
            check(game.settings.turnSeconds == nil || game.turn == nil || game.status != .inProgress,
                  "a timed turn has a deadline")
        }

        let view = game.view
        check((view.word == nil) == (game.status == .inProgress), "the word shows only after the game")
        for position in view.positions {
            let shown = game.revealed[position.id] || game.status == .lost
            check((position.letter != nil) == shown, "position \(position.id) shown iff revealed or lost")
            check(position.isMissed == (game.status == .lost && !game.revealed[position.id]),
                  "position \(position.id) missed iff unrevealed in a lost game")
        }
        if !broken.isEmpty {
            Issue.record("game \(game.gameNumber) broke: \(broken)", sourceLocation: sourceLocation)
        }
    }
}
