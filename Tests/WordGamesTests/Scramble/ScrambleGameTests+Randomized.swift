import Testing
@testable import WordGames

extension ScrambleGameTests {
    /// Plays a thousand matches on the bundled lists with random players, valid, unshown and invalid submissions and
    /// clock jumps, checking the invariants after every step.
    @Test func randomPlayKeepsEveryInvariant() throws {
        let lists = try Fixtures.bundled.get()
        let ids: [PlayerID] = ["alice", "bob", "carol", "dave"]
        let junk = ["", "  ", "a", "zzzzzz", "rob's", "ÉCOLE"]
        var random = SplitMix64(seed: 77)
        var generator = SplitMix64(seed: 78)
        var rounds = 0
        var unshownFound = 0

        for _ in 0..<1_000 {
            let settings = try ScrambleSettings(
                rounds: Int.random(in: 3...5, using: &random),
                roundSeconds: Int.random(in: 30...300, using: &random),
                minWordLength: Int.random(in: 3...6, using: &random))
            var game = ScrambleGame(lexicon: lists.lexicon, roots: lists.roots, settings: settings)
            var now = 0.0
            game.addPlayer(Fixtures.player(ids[0]), now: now)
            try game.startMatch(now: now, using: &generator)
            var points: [PlayerID: Int] = [:]

            while game.phase != .finished {
                now += Double.random(in: 0...Double(settings.roundSeconds) / 4, using: &random)
                game.playRandomStep(outOf: 12, ids: ids, now: now, using: &random) { game, random in
                    let input: String
                    switch Int.random(in: 0..<5, using: &random) {
                    case 0: input = junk.randomElement(using: &random)!
                    case 1: input = String((game.root ?? "").shuffled(using: &random).prefix(Int.random(in: 2...8, using: &random)))
                    case 2: input = lists.lexicon.words(spelledFrom: game.root ?? "", minimumLength: settings.minWordLength)
                        .filter { !lists.lexicon.isShown($0) }.randomElement(using: &random) ?? ""
                    default: input = game.solutions.randomElement(using: &random) ?? ""
                    }
                    let player = ids.randomElement(using: &random)!
                    if let found = try? game.submit(input, by: player, now: now) {
                        points[found.player, default: 0] += found.points
                        if !lists.lexicon.isShown(found.word) { unshownFound += 1 }
                    }
                }
                Self.checkInvariants(of: game, now: now, points: points, lexicon: lists.lexicon)
            }
            rounds += game.completedRounds.count
            #expect(game.completedRounds.count == settings.rounds)
            #expect(game.finalScoreboard == game.scoreboard)
        }
        #expect(rounds >= 3_000)
        #expect(unshownFound > 100, "unshown words typed and accepted: \(unshownFound)")
    }

    /// The invariants every reachable state must satisfy; records one issue listing every broken one.
    ///
    /// Checks plain conditions rather than calling `#expect` for each: a thousand matches make millions of checks.
    private static func checkInvariants(
        of game: ScrambleGame, now: Double, points: [PlayerID: Int], lexicon: Lexicon,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var broken: [String] = []
        func check(_ condition: Bool, _ invariant: String) {
            if !condition { broken.append(invariant) }
        }
        let settings = game.settings
        let solutions = Set(game.solutions)
        let foundUnshown = game.found.filter { !lexicon.isShown($0.word) }.count
        check(game.totalWords == solutions.count + foundUnshown, "totalWords counts the solutions and unshown finds")
        check(solutions.allSatisfy(lexicon.isShown), "solutions leave unshown words out")
        check(solutions.count == game.solutions.count, "solutions are distinct")

        let foundWords = game.found.map(\.word)
        check(Set(foundWords).count == foundWords.count, "a word is found once per round")
        for word in foundWords {
            check(solutions.contains(word) || !lexicon.isShown(word), "\(word) is a solution or an unshown word")
            check(word.count >= settings.minWordLength && word != game.root, "\(word) is long enough and not the root")
            check(lexicon.contains(word), "\(word) is in the dictionary")
            check(LetterCounts(game.root ?? "")!.canSpell(LetterCounts(word)!), "\(word) is spelled from the root")
        }

        check(game.scores.values.reduce(0, +) == points.values.reduce(0, +), "scores add up to the words' points")
        // Only the round shown between rounds keeps its words; the others keep their count.
        let keptWords = game.phase == .playing ? [] : game.completedRounds.last.map { [$0.foundCount] } ?? []
        check(game.completedRounds.map(\.found.count) == Array(repeating: 0, count: game.completedRounds.count
                - keptWords.count) + keptWords, "rounds before the one shown let their words go")
        check(game.scores.filter { $0.value != 0 } == points.filter { $0.value != 0 }, "scores match the moves")

        for summary in game.completedRounds {
            let found = Set(summary.found.map(\.word))
            let missed = Set(summary.missed)
            check(found.isDisjoint(with: missed), "round \(summary.number): found and missed are disjoint")
            check(missed.allSatisfy(lexicon.isShown), "round \(summary.number): no unshown word is missed")
            check(summary.foundCount + missed.count == summary.totalWords,
                  "round \(summary.number): found + missed = total")
        }

        switch game.phase {
        case .lobby:
            check(false, "a started match never returns to the lobby")
        case .playing:
            check(game.completedRounds.count == game.roundNumber - 1, "playing round n after n - 1 rounds")
            check((game.phaseEndsAt ?? 0) > now, "the round ends in the future")
            check(game.view.lastRound == nil, "no missed words while playing")
        case .intermission:
            check(game.completedRounds.count == game.roundNumber && game.roundNumber < settings.rounds,
                  "intermission after a round that was not the last")
            check((game.phaseEndsAt ?? 0) > now, "the intermission ends in the future")
            check(game.view.lastRound == game.completedRounds.last, "missed words shown in the intermission")
        case .finished:
            check(game.completedRounds.count == settings.rounds && game.roundNumber == settings.rounds,
                  "finished after the last round")
            check(game.phaseEndsAt == nil && game.finalScoreboard != nil, "finished shows a final scoreboard")
        }
        if !broken.isEmpty {
            Issue.record("match \(game.matchNumber) round \(game.roundNumber) broke: \(broken)",
                         sourceLocation: sourceLocation)
        }
    }
}
