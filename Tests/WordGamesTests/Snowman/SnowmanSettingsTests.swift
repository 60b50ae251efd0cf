import Testing
import WordGames

@Suite struct SnowmanSettingsTests {
    @Test func defaultsAreSevenWrongGuessesAndNoTimer() throws {
        let settings = try SnowmanSettings()
        #expect(settings.maxWrongGuesses == 7)
        #expect(settings.turnSeconds == nil)
        #expect(settings == .standard)
    }

    @Test func defaultsDrawFromTheGeneralPack() throws {
        for settings in [try SnowmanSettings(), .standard, .newRoom] {
            #expect(settings.pack == "general")
            #expect(settings.wordSource == .pack)
            #expect(settings.customWords == nil)
        }
    }

    @Test(arguments: [3, 7, 10])
    func acceptsWrongGuessLimitsInRange(limit: Int) throws {
        #expect(try SnowmanSettings(maxWrongGuesses: limit).maxWrongGuesses == limit)
    }

    @Test(arguments: [-1, 0, 2, 11, 100])
    func rejectsWrongGuessLimitsOutOfRange(limit: Int) {
        #expect(throws: SettingsError(
            setting: "maxWrongGuesses", label: "Wrong guesses allowed", value: limit, allowed: 3...10)
        ) {
            try SnowmanSettings(maxWrongGuesses: limit)
        }
    }

    @Test(arguments: [10, 45, 120])
    func acceptsTurnTimersInRange(seconds: Int) throws {
        #expect(try SnowmanSettings(turnSeconds: seconds).turnSeconds == seconds)
    }

    @Test(arguments: [0, 9, 121])
    func rejectsTurnTimersOutOfRange(seconds: Int) {
        #expect(throws: SettingsError(
            setting: "turnSeconds", label: "Turn timer (seconds)", value: seconds, allowed: 10...120, canBeOff: true)
        ) {
            try SnowmanSettings(turnSeconds: seconds)
        }
    }
}
