import Testing
@testable import WordGames

@Suite struct LetterCountsTests {
    @Test func countsEachLetter() throws {
        let counts = try #require(LetterCounts("balloon"))
        #expect(counts["b"] == 1)
        #expect(counts["l"] == 2)
        #expect(counts["o"] == 2)
        #expect(counts["z"] == 0)
        #expect(counts["?"] == 0)
    }

    @Test func countsLettersOnBothSidesOfThePacking() throws {
        // "p" is the last letter of the low half, "q" the first of the high half.
        let counts = try #require(LetterCounts("ppqqqzz"))
        #expect(counts.count(of: 15) == 2)
        #expect(counts.count(of: 16) == 3)
        #expect(counts.count(of: 25) == 2)
    }

    @Test func ignoresLetterOrder() {
        #expect(LetterCounts("listen") == LetterCounts("silent"))
        #expect(LetterCounts("aab") != LetterCounts("abb"))
        #expect(LetterCounts("ab") != LetterCounts("aab"))
    }

    @Test(arguments: ["Snow", "don't", "café", "a b"])
    func refusesAnythingButLowercaseLetters(word: String) {
        #expect(LetterCounts(word) == nil)
    }

    @Test func refusesMoreCopiesThanFourBitsHold() {
        #expect(LetterCounts(String(repeating: "e", count: 15)) != nil)
        #expect(LetterCounts(String(repeating: "e", count: 16)) == nil)
    }

    @Test func spellsOnlySubMultisets() throws {
        let root = try #require(LetterCounts("problems"))
        #expect(root.canSpell(try #require(LetterCounts("probe"))))
        #expect(root.canSpell(try #require(LetterCounts("problems"))))
        #expect(!root.canSpell(try #require(LetterCounts("boss"))))
        #expect(!root.canSpell(try #require(LetterCounts("zebra"))))
    }
}
