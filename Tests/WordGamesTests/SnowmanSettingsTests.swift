import Foundation
import Testing
import WordGames

@Suite struct SnowmanSettingsTests {
    @Test func defaultsAreSevenWrongGuessesAndNoTimer() throws {
        let settings = try SnowmanSettings()
        #expect(settings.maxWrongGuesses == 7)
        #expect(settings.turnSeconds == nil)
        #expect(settings == .standard)
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

    @Test func encodesOffTimerAsNull() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(SnowmanSettings.standard), as: UTF8.self)
        #expect(json == #"{"maxWrongGuesses":7,"turnSeconds":null}"#)
    }

    @Test func decodingFillsDefaultsAndRoundTrips() throws {
        let partial = try JSONDecoder().decode(SnowmanSettings.self, from: Data(#"{"turnSeconds":30}"#.utf8))
        #expect(partial == (try SnowmanSettings(maxWrongGuesses: 7, turnSeconds: 30)))
        let decoded = try JSONDecoder().decode(SnowmanSettings.self, from: JSONEncoder().encode(partial))
        #expect(decoded == partial)
    }

    @Test func decodingValidatesBounds() {
        #expect(throws: SettingsError.self) {
            try JSONDecoder().decode(SnowmanSettings.self, from: Data(#"{"maxWrongGuesses":11}"#.utf8))
        }
    }
}
