import Testing
@testable import WordGames

@Suite struct ScrambleWordSourceTests {
    private let lexicon = Lexicon(words: ["rat", "tar", "art", "star", "rats", "tars", "arts", "stars"])

    @Test func givesEachWordOnceLeavingOutTheRootAndFoundWords() {
        var source = ScrambleWordSource()
        var random = SplitMix64(seed: 1)
        source.start(root: "stars", words: lexicon.words(spelledFrom: "stars", minimumLength: 3), using: &random)
        let found = ["tar"]
        source.noteFound(count: found.count) { found[$0] }
        var given: [String] = []
        while let word = source.nextWord() { given.append(word) }
        #expect(Set(given) == ["rat", "art", "star", "rats", "tars", "arts"])
        #expect(given.count == 6)
    }

    @Test func invalidWordsAreSpelledFromTheRootButNotInTheDictionary() throws {
        var source = ScrambleWordSource()
        var random = SplitMix64(seed: 2)
        source.start(root: "stars", words: [], using: &random)
        for _ in 0..<50 {
            let word = try #require(source.invalidWord(minimumLength: 3, lexicon: lexicon, using: &random))
            #expect(!lexicon.contains(word), "\(word)")
            #expect(word.count >= 3 && word.count <= 5)
            var letters = Array("stars")
            for letter in word {
                let index = try #require(letters.firstIndex(of: letter), "\(word) uses letters the root lacks")
                letters.remove(at: index)
            }
        }
    }

    @Test func readsOnlyTheNewestFoundWordsAndStartsAfreshWhenTheListShrinks() {
        var source = ScrambleWordSource()
        var random = SplitMix64(seed: 4)
        source.start(root: "stars", words: [], using: &random)
        var list = ["art"]
        source.noteFound(count: list.count) { list[$0] }
        list.insert("rat", at: 0)  // newest first
        var read: [Int] = []
        source.noteFound(count: list.count) { read.append($0); return list[$0] }
        #expect(read == [0])
        #expect(source.found == ["art", "rat"])
        list = ["tar"]
        source.noteFound(count: list.count) { list[$0] }
        #expect(source.found == ["tar"])
        #expect(source.foundCount == 1)
    }

    @Test func noInvalidWordFromARootShorterThanTheMinimum() {
        var source = ScrambleWordSource()
        var random = SplitMix64(seed: 3)
        source.start(root: "at", words: [], using: &random)
        #expect(source.invalidWord(minimumLength: 3, lexicon: lexicon, using: &random) == nil)
    }
}
