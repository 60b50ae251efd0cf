import Testing
@testable import WordGames

@Suite struct SnowmanBotTests {
    @Test func startsWithTheMostFrequentLetter() {
        #expect(SnowmanBot.nextLetter(guessed: [Character]()) == "e")
    }

    @Test func skipsGuessedLettersWhateverTheirCase() {
        #expect(SnowmanBot.nextLetter(guessed: Array("ET")) == "a")
        #expect(SnowmanBot.nextLetter(guessed: Array("etaoin")) == "s")
    }

    @Test func nothingIsLeftAfterTheAlphabet() {
        #expect(SnowmanBot.nextLetter(guessed: Array("abcdefghijklmnopqrstuvwxyz")) == nil)
        #expect(SnowmanBot.nextLetter(guessed: Array("abcdefghijklmnopqrstuvwxy")) == "z")
    }

    @Test func frequencyOrderIsTheAlphabetOnce() {
        #expect(Set(SnowmanBot.frequencyOrder).count == 26)
        #expect(SnowmanBot.frequencyOrder.allSatisfy { $0.isLowercase })
    }

    /// A game in progress whose guesses (as the state shows them: capitals) were E and T.
    private func state(turn: String, status: String = "inProgress") -> FakeGameState {
        FakeGameState(strings: ["status": status, "turn": turn], ints: ["gameNumber": 4],
                      lists: ["guesses": [["letter": "E", "player": "p1"], ["letter": "T", "player": "p2"]]])
    }

    @Test func guessesTheMostFrequentUnguessedLetterOnItsTurn() throws {
        var bot = SnowmanBot(words: BotWords(lists: nil))
        var random = SplitMix64(seed: 1)
        guard case .play(let chosen) = bot.choose(in: state(turn: "p3"), you: "p3", waiting: 0, invalidShare: 0.5,
                                                  using: &random) else {
            Issue.record("no guess on the bot's turn")
            return
        }
        #expect(chosen.move == SnowmanGame.Move(letter: "a"))
        let shownAs = try #require(chosen.shownAs)
        #expect(shownAs.map { $0.field } == ["letter"])
        #expect(shownAs.map { $0.value } == ["A"], "the state shows guesses in capitals")
        #expect(chosen.expectedRefusals.isEmpty)
        #expect(!chosen.invalidOnPurpose, "Snowman guesses are never invalid on purpose")
    }

    @Test func waitsOffItsTurnWithAGuessOnItsWayOrOutsideAGame() {
        var bot = SnowmanBot(words: BotWords(lists: nil))
        var random = SplitMix64(seed: 1)
        for (state, waiting) in [(state(turn: "p1"), 0), (state(turn: "p3"), 1), (state(turn: "p3", status: "won"), 0)] {
            guard case .wait = bot.choose(in: state, you: "p3", waiting: waiting, invalidShare: 0, using: &random) else {
                Issue.record("moved with turn \(state.strings), \(waiting) waiting")
                continue
            }
        }
    }

    @Test func aHostAsksForTheNextGameOnceTheGameIsOver() {
        let bot = SnowmanBot(words: BotWords(lists: nil))
        #expect(bot.finishedGame(in: state(turn: "p1")) == nil)
        #expect(bot.finishedGame(in: state(turn: "p1", status: "lost")) == 4)
        #expect(bot.finishedGame(in: state(turn: "p1", status: "waiting")) == 4)
        #expect(bot.playersWait(in: state(turn: "p1", status: "waiting")) == nil)
    }
}
