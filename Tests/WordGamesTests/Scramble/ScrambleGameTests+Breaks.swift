import Testing
@testable import WordGames

/// The break between rounds: its length, Ready, and the result of each round.
extension ScrambleGameTests {
    @Test func theBreakLastsTheSettingsBreakSeconds() throws {
        var game = try Fixtures.scramble(settings: try ScrambleSettings(breakSeconds: 7))
        game.tick(now: 90)
        #expect(game.phaseEndsAt == 97)
        #expect(game.tick(now: 97) == [.roundStarted(2)])
    }

    @Test func readyIsOnlyForTheBreakAndOnlyForPlayers() throws {
        var game = try Fixtures.scramble()
        #expect(throws: ScrambleGame.Rejection.notInBreak(.playing)) { try game.markReady("alice", now: 10) }
        game.tick(now: 90)
        #expect(throws: ScrambleGame.Rejection.notAPlayer) { try game.markReady("zed", now: 91) }
        try game.markReady("bob", now: 91)
        try game.markReady("alice", now: 92)
        try game.markReady("bob", now: 93)
        #expect(game.ready == ["bob", "alice"], "in pressing order, once each")
        #expect(game.view.ready == ["bob", "alice"])
        #expect(game.phase == .intermission, "the rooms layer decides when everyone is ready")
    }

    @Test func endingTheBreakStartsTheNextRoundNowAndClearsReady() throws {
        var game = try Fixtures.scramble()
        game.tick(now: 90)
        try game.markReady("bob", now: 91)
        game.endBreak(now: 95)
        #expect(game.phase == .playing)
        #expect(game.roundNumber == 2)
        #expect(game.phaseEndsAt == 185, "the whole round, from now")
        #expect(game.ready.isEmpty)
        // Outside a break it does nothing.
        game.endBreak(now: 96)
        #expect(game.roundNumber == 2)
        #expect(game.phaseEndsAt == 185)
    }

    @Test func aPlayerWhoLeavesIsNoLongerReady() throws {
        var game = try Fixtures.scramble()
        game.tick(now: 90)
        try game.markReady("bob", now: 91)
        game.removePlayer("bob", now: 92)
        #expect(game.ready.isEmpty)
    }

    @Test func eachRoundEndGivesANumberedResult() throws {
        var game = try Fixtures.scramble(settings: try ScrambleSettings(rounds: 3, breakSeconds: 10),
                                         players: ["alice", "bob", "carol"])
        #expect(game.resultNumber == 0)
        #expect(game.resultText == nil)
        // Each round: the tick that starts it (the first starts at once), the words found, the tick past its end.
        let rounds: [(start: Double?, words: [(String, PlayerID, Double)], end: Double, result: String)] = [
            (nil, [("robe", "alice", 1), ("sob", "bob", 2)], 90,
             "Round 1 · PROBLEMS: Alice found the most (4 points)"),
            (100, [("poem", "bob", 101), ("romp", "carol", 102), ("mob", "alice", 103)], 190,
             "Round 2 · PROBLEMS: Bob and Carol found the most (4 points each)"),
            (nil, [], 290, "Round 3 · PROBLEMS: nobody found a word. Alice and Bob tie for the match with 7 points"),
        ]
        for (number, round) in rounds.enumerated() {
            if let start = round.start { game.tick(now: start) }
            for (word, player, time) in round.words { try game.submit(word, by: player, now: time) }
            game.tick(now: round.end)
            #expect(game.resultNumber == number + 1)
            #expect(game.resultText == round.result)
        }
        // A new match keeps counting.
        var generator = SplitMix64(seed: 2)
        try game.startMatch(now: 300, using: &generator)
        game.tick(now: 390)
        #expect(game.resultNumber == 4)
        #expect(game.resultText?.hasPrefix("Round 1 · PROBLEMS: nobody") == true)
    }

    @Test func aSingleWinnerOfTheMatchIsNamed() throws {
        var game = try Fixtures.scramble(settings: try ScrambleSettings(rounds: 3, breakSeconds: 10))
        game.tick(now: 100)
        game.tick(now: 200)
        try game.submit("probe", by: "bob", now: 201)
        game.tick(now: 290)
        #expect(game.resultText == "Round 3 · PROBLEMS: Bob found the most (5 points). Bob wins the match with 5 points")
        #expect(game.view.roundsPlayed.map(\.number) == [1, 2, 3])
    }

    @Test func aRenameReachesEveryNameTheMatchShows() throws {
        var game = try Fixtures.scramble(settings: try ScrambleSettings(rounds: 3, breakSeconds: 10))
        try game.submit("probe", by: "bob", now: 1)
        game.tick(now: 90)
        game.renamePlayer("bob", to: "Robert")
        #expect(game.view.lastRound?.found.map(\.name) == ["Robert"])
        game.tick(now: 100)
        try game.submit("mob", by: "bob", now: 101)
        game.renamePlayer("bob", to: "Bobby")
        #expect(game.players.map(\.name) == ["Alice", "Bobby"])
        #expect(game.found.map(\.name) == ["Bobby"])
        #expect(game.scoreboard.first?.name == "Bobby")
        game.tick(now: 190)
        game.tick(now: 290)
        game.renamePlayer("bob", to: "Rob")
        #expect(game.finalScoreboard?.first?.name == "Rob")
    }

    @Test func aSnapshotKeepsReadyAndTheResult() throws {
        var game = try Fixtures.scramble()
        game.tick(now: 90)
        try game.markReady("alice", now: 91)
        let restored = try ScrambleGame(snapshot: game.snapshot, lexicon: Fixtures.problemsLexicon, roots: ["problems"])
        #expect(restored.ready == ["alice"])
        #expect(restored.resultNumber == 1)
        #expect(restored.resultText == game.resultText)
        #expect(restored.snapshot == game.snapshot)
    }
}
