import Testing
@testable import Bots

@Suite struct SnowmanStrategyTests {
    @Test func startsWithTheMostFrequentLetter() {
        #expect(SnowmanStrategy.nextLetter(guessed: [Character]()) == "e")
    }

    @Test func skipsGuessedLettersWhateverTheirCase() {
        #expect(SnowmanStrategy.nextLetter(guessed: Array("ET")) == "a")
        #expect(SnowmanStrategy.nextLetter(guessed: Array("etaoin")) == "s")
    }

    @Test func nothingIsLeftAfterTheAlphabet() {
        #expect(SnowmanStrategy.nextLetter(guessed: Array("abcdefghijklmnopqrstuvwxyz")) == nil)
        #expect(SnowmanStrategy.nextLetter(guessed: Array("abcdefghijklmnopqrstuvwxy")) == "z")
    }

    @Test func frequencyOrderIsTheAlphabetOnce() {
        #expect(Set(SnowmanStrategy.frequencyOrder).count == 26)
        #expect(SnowmanStrategy.frequencyOrder.allSatisfy { $0.isLowercase })
    }
}
