import Testing
import WordGames

@Suite struct SettingsErrorTests {
    @Test func messageNamesSettingRangeAndValue() {
        let error = SettingsError(setting: "rounds", label: "Rounds per match", value: 25, allowed: 3...20)
        #expect(error.code == "setting-out-of-range")
        #expect(error.title == "Setting out of range")
        #expect(error.message == "Rounds per match must be between 3 and 20; 25 is not allowed.")
    }

    @Test func messageMentionsOffWhenAllowed() {
        let error = SettingsError(
            setting: "turnSeconds", label: "Turn timer (seconds)", value: 5, allowed: 10...120, canBeOff: true)
        #expect(error.message == "Turn timer (seconds) must be between 10 and 120 or off; 5 is not allowed.")
    }
}
