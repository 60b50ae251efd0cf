import Testing
@testable import WordGames

@Suite struct SleuthBotTests {
    /// The part of the state a bot reads, from the game itself (tries show their marks only).
    private func state(of game: SleuthGame) -> FakeGameState {
        let view = game.publicView
        return FakeGameState(
            strings: ["phase": view.phase.rawValue], ints: ["round": view.round],
            lists: ["tries": view.tries.map { ["player": $0.player.rawValue, "pattern": $0.pattern] }])
    }

    @Test(arguments: [1 as UInt64, 2, 3, 4, 5])
    func solvesWithTriesThatAgreeWithTheMarks(seed: UInt64) throws {
        let secret = "crane"
        var game = SleuthGame(lexicon: try Fixtures.bundled.get().lexicon, secrets: [secret])
        game.addPlayer(Fixtures.player("p1"), now: 0)
        var random = SplitMix64(seed: seed)
        try game.startRound(now: 0, using: &random)
        var bot = SleuthBot(words: BotWords(lists: nil))
        while game.phase == .playing {
            guard case .play(let chosen) = bot.choose(in: state(of: game), you: "p1", waiting: 0, invalidShare: 0,
                                                      using: &random) else {
                Issue.record("no move while the round runs")
                return
            }
            #expect(chosen.expectedRefusals == ["round-not-running"])
            let earlier = game.tries
            try game.guess(chosen.move.word, by: "p1", now: 1)
            for past in earlier {
                #expect(SleuthMark.pattern(of: past.word, against: chosen.move.word) == past.pattern,
                        "\(chosen.move.word) ignores what \(past.word) taught")
            }
        }
        #expect(game.board(of: "p1")?.solved == true, "a careful player finds CRANE among the list in six tries")
        guard case .wait = bot.choose(in: state(of: game), you: "p1", waiting: 0, invalidShare: 0, using: &random)
        else {
            Issue.record("a move after the round")
            return
        }
        #expect(bot.finishedGame(in: state(of: game)) == 1)
    }

    @Test func waitsForItsMoveAndForgetsARefusedOne() throws {
        var game = try SleuthFixtures.game(secret: "crane", players: ["p1"])
        var bot = SleuthBot(words: BotWords(lists: nil))
        var random = SplitMix64(seed: 7)
        guard case .wait = bot.choose(in: state(of: game), you: "p1", waiting: 1, invalidShare: 0, using: &random)
        else {
            Issue.record("a move while one is on its way")
            return
        }
        guard case .play = bot.choose(in: state(of: game), you: "p1", waiting: 0, invalidShare: 0, using: &random)
        else {
            Issue.record("no first move")
            return
        }
        #expect(bot.sent.count == 1)
        // That word was refused (nothing shown, nothing on its way): the bot forgets it before choosing anew.
        _ = bot.choose(in: state(of: game), you: "p1", waiting: 0, invalidShare: 0, using: &random)
        #expect(bot.sent.count == 1)
        try game.guess("stare", by: "p1", now: 1)
        #expect(bot.finishedGame(in: state(of: game)) == nil)
    }

    @Test func makesNonWordsOnPurposeWhenAsked() throws {
        let game = try SleuthFixtures.game(players: ["p1"])
        var bot = SleuthBot(words: BotWords(lists: nil))
        var random = SplitMix64(seed: 2)
        guard case .play(let chosen) = bot.choose(in: state(of: game), you: "p1", waiting: 0, invalidShare: 1,
                                                  using: &random) else {
            Issue.record("no move")
            return
        }
        #expect(chosen.invalidOnPurpose && chosen.shownAs == nil)
        #expect(!(try Fixtures.bundled.get().lexicon.contains(chosen.move.word)))
        #expect(chosen.expectedRefusals.contains("not-a-word"))
    }

    @Test func theHostStartsRoundsInTheLobbyAndAfterEach() throws {
        let bot = SleuthBot(words: BotWords(lists: nil))
        #expect(bot.finishedGame(in: FakeGameState(strings: ["phase": "lobby"], ints: ["round": 0])) == 0)
        #expect(bot.finishedGame(in: FakeGameState(strings: ["phase": "over"], ints: ["round": 3])) == 3)
        #expect(SleuthBot.hostSettings.map(\.key) == SleuthSettings.specs.map(\.key))
    }
}
