import Testing
import WordGames

@Suite struct ScrambleSettingsTests {
    @Test func defaultsAreSixRoundsOfNinetySecondsFromThreeLetters() throws {
        let settings = try ScrambleSettings()
        #expect(settings.rounds == 6)
        #expect(settings.roundSeconds == 90)
        #expect(settings.minWordLength == 3)
        #expect(settings.breakSeconds == 20)
        #expect(settings == .standard)
    }

    @Test(arguments: [(3, 30, 3), (20, 300, 6), (10, 120, 4)])
    func acceptsValuesInRange(rounds: Int, roundSeconds: Int, minWordLength: Int) throws {
        let settings = try ScrambleSettings(rounds: rounds, roundSeconds: roundSeconds, minWordLength: minWordLength)
        #expect(settings.rounds == rounds)
        #expect(settings.roundSeconds == roundSeconds)
        #expect(settings.minWordLength == minWordLength)
    }

    @Test(arguments: [2, 21])
    func rejectsRoundsOutOfRange(rounds: Int) {
        #expect(throws: SettingsError(setting: "rounds", label: "Rounds per match", value: rounds, allowed: 3...20)) {
            try ScrambleSettings(rounds: rounds)
        }
    }

    @Test(arguments: [29, 301])
    func rejectsRoundSecondsOutOfRange(seconds: Int) {
        #expect(throws: SettingsError(
            setting: "roundSeconds", label: "Round length (seconds)", value: seconds, allowed: 30...300)
        ) {
            try ScrambleSettings(roundSeconds: seconds)
        }
    }

    @Test(arguments: [2, 7])
    func rejectsMinWordLengthOutOfRange(length: Int) {
        #expect(throws: SettingsError(
            setting: "minWordLength", label: "Minimum word length", value: length, allowed: 3...6)
        ) {
            try ScrambleSettings(minWordLength: length)
        }
    }

    @Test(arguments: [5, 60])
    func acceptsBreaksAtTheEndsOfTheRange(seconds: Int) throws {
        #expect(try ScrambleSettings(breakSeconds: seconds).breakSeconds == seconds)
    }

    @Test(arguments: [4, 61])
    func rejectsBreakSecondsOutOfRange(seconds: Int) {
        #expect(throws: SettingsError(
            setting: "breakSeconds", label: "Break between rounds (seconds)", value: seconds, allowed: 5...60)
        ) {
            try ScrambleSettings(breakSeconds: seconds)
        }
    }
}
