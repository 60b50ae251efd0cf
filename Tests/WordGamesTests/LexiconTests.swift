import Foundation
import Testing
@testable import WordGames

@Suite struct LexiconTests {
    @Test func containsExactlyItsWords() {
        let lexicon = Lexicon(words: ["snow", "ice", "ice"])
        #expect(lexicon.count == 2)
        #expect(lexicon.contains("snow"))
        #expect(!lexicon.contains("Snow"))
        #expect(!lexicon.contains("sno"))
    }

    @Test func ignoresEntriesThatCannotBeSpelled() {
        let lexicon = Lexicon(words: ["Apple", "don't", "", "café", "pear"])
        #expect(lexicon.count == 1)
        #expect(lexicon.contains("pear"))
        #expect(!lexicon.contains("Apple"))
    }

    @Test func spellsEachLetterAtMostAsOftenAsTheRootHasIt() {
        let spelled = Fixtures.problemsLexicon.words(spelledFrom: "problems", minimumLength: 3)
        #expect(!spelled.contains("boss"))
        #expect(!spelled.contains("zebra"))
        #expect(Set(spelled) == Fixtures.problemsSolutions.union(["problems"]))
    }

    @Test func usesRepeatedRootLettersAsOftenAsTheyOccur() {
        let lexicon = Lexicon(words: ["ball", "loon", "boll", "balloon", "bloom", "noon", "loan"])
        #expect(lexicon.words(spelledFrom: "balloon") == ["balloon", "ball", "boll", "loan", "loon"])
    }

    @Test func includesAnagramsOfTheRoot() {
        let lexicon = Lexicon(words: ["trainers", "restrain", "strainer", "terrains", "train", "rain"])
        #expect(lexicon.words(spelledFrom: "trainers", minimumLength: 5)
            == ["restrain", "strainer", "terrains", "trainers", "train"])
    }

    @Test(arguments: [1, 3, 4, 5, 8, 9])
    func leavesOutWordsBelowMinimumLength(minimum: Int) {
        let spelled = Fixtures.problemsLexicon.words(spelledFrom: "problems", minimumLength: minimum)
        let expected = Fixtures.problemsSolutions.union(["problems", "be", "or"]).filter { $0.count >= minimum }
        #expect(Set(spelled) == expected)
        #expect(spelled.count == expected.count)
    }

    @Test func sortsLongestFirstThenAlphabetically() {
        let spelled = Fixtures.problemsLexicon.words(spelledFrom: "problems", minimumLength: 3)
        #expect(spelled == spelled.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 })
    }

    @Test(arguments: ["", "Problems", "prob1ems", "abcdefghijklm"])
    func spellsNothingFromInvalidRoots(root: String) {
        #expect(Fixtures.problemsLexicon.words(spelledFrom: root).isEmpty)
    }

    @Test func agreesWithBruteForceOnTheBundledDictionary() throws {
        let lists = try Fixtures.bundled.get()
        let dictionary = try Self.dictionaryWords()
        #expect(dictionary.count == lists.lexicon.count)
        var generator = SplitMix64(seed: 11)
        for _ in 0..<20 {
            let root = lists.roots.randomElement(using: &generator)!
            let available = try #require(LetterCounts(root))
            let expected = dictionary.filter { word in LetterCounts(word).map(available.canSpell) ?? false }
            #expect(Set(lists.lexicon.words(spelledFrom: root)) == Set(expected), "root \(root)")
        }
    }

    /// The bundled dictionary's words, read directly from the resource file for the brute-force comparison.
    private static func dictionaryWords() throws -> [String] {
        let url = try #require(WordLists.bundledFolder).appendingPathComponent(WordLists.File.dictionary.rawValue)
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") }.map(String.init)
    }
}
