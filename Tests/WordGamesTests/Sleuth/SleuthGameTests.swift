import Testing
@testable import WordGames

@Suite struct SleuthGameTests {
    @Test func aTryIsMarkedAndSolvingScoresByTriesAndTime() throws {
        var game = try SleuthFixtures.game()
        let first = try game.guess(" Stare ", by: "alice", now: 10)
        #expect(first.word == "stare" && first.pattern == "aarpr")
        #expect(game.board(of: "alice")?.tries == 1)
        try game.guess("crane", by: "alice", now: 90)
        // Second try: 10 × (7 − 2) = 50, and half of the 180 seconds left: ⌊10 × 90 ÷ 180⌋ = 5.
        #expect(game.board(of: "alice") == SleuthGame.Board(player: "alice", name: "Alice", tries: 2, solved: true,
                                                            points: 55))
        #expect(game.phase == .playing, "Bob has not finished")
    }

    @Test func sixTriesThenNoMore() throws {
        var game = try SleuthFixtures.game()
        for word in ["stare", "slate", "plant", "ghost", "world", "hello"] {
            try game.guess(word, by: "alice", now: 1)
        }
        #expect(game.board(of: "alice")?.done == true)
        #expect(game.board(of: "alice")?.points == 0)
        #expect(SleuthFixtures.rejection { try game.guess("crane", by: "alice", now: 2) } == .outOfTries)
    }

    @Test func theRoundEndsWhenEveryoneIsDone() throws {
        var game = try SleuthFixtures.game()
        try game.guess("crane", by: "alice", now: 1)
        for word in ["stare", "slate", "plant", "ghost", "world"] { try game.guess(word, by: "bob", now: 2) }
        #expect(game.phase == .playing)
        try game.guess("hello", by: "bob", now: 3)
        #expect(game.phase == .over)
        #expect(game.revealedSecret == "CRANE")
        #expect(game.roundEndsAt == nil)
        #expect(game.resultNotice == ResultNotice(number: 1, text: "Round 1 · CRANE: Alice scored most (69 points), 1 of 2 solved it"))
    }

    @Test func theRoundEndsWhenTimeRunsOutAndLateTriesAreRefused() throws {
        var game = try SleuthFixtures.game(settings: try SleuthSettings(roundSeconds: 60))
        try game.guess("stare", by: "alice", now: 59)
        #expect(game.nextDeadline == 60)
        #expect(SleuthFixtures.rejection { try game.guess("crane", by: "alice", now: 60) } == .roundNotRunning(.over))
        #expect(game.phase == .over)
        #expect(game.resultText == "Round 1 · CRANE: nobody solved it")
        #expect(game.leaderboard.map(\.rounds) == [1, 1])
    }

    @Test func advanceEndsTheRoundAtItsDeadline() throws {
        var game = try SleuthFixtures.game()
        #expect(game.advance(to: 179.9) == [])
        #expect(game.phase == .playing)
        _ = game.advance(to: 180)
        #expect(game.phase == .over)
        #expect(game.stage == .finished)
    }

    @Test func theLeaderboardAddsUpRounds() throws {
        var game = try SleuthFixtures.game()
        try game.guess("crane", by: "alice", now: 0)
        try game.guess("stare", by: "bob", now: 0)
        try game.guess("crane", by: "bob", now: 18)
        #expect(game.phase == .over)
        var random = SplitMix64(seed: 1)
        try game.startRound(now: 100, using: &random)
        #expect(game.roundNumber == 2 && game.tries.isEmpty)
        try game.guess("crane", by: "bob", now: 100)
        _ = game.advance(to: 280)
        let board = game.leaderboard
        // Alice: 60 + 10 then nothing; Bob: 50 + 9, then 60 + 10.
        #expect(board.map(\.player) == ["bob", "alice"])
        #expect(board.map(\.total) == [129, 70])
        #expect(board.map(\.wins) == [1, 1])
        #expect(board.map(\.solved) == [2, 1])
        #expect(board.map(\.rounds) == [2, 2])
        #expect(board.map(\.rank) == [1, 2])
    }

    @Test func refusalsHaveClearCodes() throws {
        var game = try SleuthFixtures.game()
        #expect(SleuthFixtures.rejection { try game.guess("cran", by: "alice", now: 1) }?.code == "wrong-length")
        #expect(SleuthFixtures.rejection { try game.guess("", by: "alice", now: 1) }?.code == "wrong-length")
        #expect(SleuthFixtures.rejection { try game.guess("cr4ne", by: "alice", now: 1) }?.code == "not-letters")
        #expect(SleuthFixtures.rejection { try game.guess("xyzzy", by: "alice", now: 1) }?.code == "not-a-word")
        #expect(SleuthFixtures.rejection { try game.guess("crane", by: "carol", now: 1) }?.code == "not-a-player")
        try game.guess("stare", by: "alice", now: 1)
        #expect(SleuthFixtures.rejection { try game.guess("STARE", by: "alice", now: 1) }?.code == "already-tried")
        try game.guess("crane", by: "alice", now: 1)
        let solved = SleuthFixtures.rejection { try game.guess("crate", by: "alice", now: 1) }
        #expect(solved?.code == "already-solved")
        #expect(solved?.message == "You found the word already. Watch the others finish.")
        var random = SplitMix64(seed: 1)
        #expect(SleuthFixtures.rejection { try game.startRound(now: 1, using: &random) }?.code == "round-in-progress")
        #expect(game.tries.count == 2, "refused tries change nothing")
        let message = SleuthFixtures.rejection { try game.guess("cran", by: "bob", now: 1) }?.message
        #expect(message == "'cran' has 4 letters: tries have 5.")
    }

    @Test func aLobbyRefusesTriesAndAnEmptyRoomRefusesARound() throws {
        var game = try SleuthFixtures.game(players: [], start: false)
        var random = SplitMix64(seed: 1)
        #expect(SleuthFixtures.rejection { try game.startRound(now: 0, using: &random) } == .noPlayers)
        game.addPlayer(Fixtures.player("alice"), now: 0)
        #expect(SleuthFixtures.rejection { try game.guess("crane", by: "alice", now: 0) } == .roundNotRunning(.lobby))
    }

    @Test func spectatorsAndLatecomers() throws {
        var game = try SleuthFixtures.game(players: ["alice"])
        // A member who never joined as a player (a spectator) cannot try.
        #expect(SleuthFixtures.rejection { try game.guess("crane", by: "sam", now: 1) } == .notAPlayer)
        #expect(game.privateView(for: "sam") == nil)
        game.addPlayer(Fixtures.player("bob"), now: 5)
        try game.guess("crane", by: "bob", now: 6)
        #expect(game.board(of: "bob")?.solved == true)
        // Alice leaving ends the round: Bob, the only one left, is done.
        game.removePlayer("alice", now: 7)
        #expect(game.phase == .over)
        #expect(game.boards.map(\.player) == ["alice", "bob"], "her board stays in the round")
        #expect(game.privateView(for: "alice") == nil, "a player who left has no private view")
    }

    @Test func newRoundsPickSecretsNotPlayedYet() throws {
        var game = SleuthGame(lexicon: SleuthFixtures.lexicon, secrets: ["crane", "crate", "trace"])
        game.addPlayer(Fixtures.player("alice"), now: 0)
        var random = SplitMix64(seed: 9)
        var seen: [String] = []
        for round in 0..<3 {
            try game.startRound(now: Double(round) * 1_000, using: &random)
            seen.append(try #require(game.secret))
            _ = game.advance(to: Double(round) * 1_000 + 500)
        }
        #expect(Set(seen).count == 3)
    }

    @Test func settingsApplyFromTheNextRound() throws {
        var game = try SleuthFixtures.game()
        var change = SleuthSettings.Change()
        change.roundSeconds = .set(300)
        try game.updateSettings(change)
        #expect(game.settings.roundSeconds == 180 && game.nextSettings.roundSeconds == 300)
        change.roundSeconds = .set(30)
        #expect(throws: SettingsError.self) { try game.updateSettings(change) }
    }

    @Test func everySecretIsAFiveLetterDictionaryWordShownToAll() throws {
        let lists = try Fixtures.bundled.get()
        let secrets = SleuthWords.secrets
        #expect(secrets.count >= 300)
        #expect(Set(secrets).count == secrets.count)
        for word in secrets {
            #expect(word.utf8.count == 5 && lists.lexicon.contains(word) && lists.lexicon.isShown(word), "\(word)")
        }
    }

    @Test func renamingShowsTheNewNameEverywhere() throws {
        var game = try SleuthFixtures.game()
        try game.guess("crane", by: "alice", now: 1)
        _ = game.advance(to: 500)
        game.renamePlayer("alice", to: "Ally")
        #expect(game.board(of: "alice")?.name == "Ally")
        #expect(game.leaderboard.first { $0.player == "alice" }?.name == "Ally")
        #expect(game.name(of: "alice") == "Ally")
    }
}
