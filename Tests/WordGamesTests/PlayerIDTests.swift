import Testing
import WordGames

@Suite struct PlayerIDTests {
    @Test func describesItselfByRawValue() {
        #expect(PlayerID("carol").description == "carol")
    }
}
