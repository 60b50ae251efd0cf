import Testing
@testable import WordGames

/// The bundled themed packs (`Resources/words/packs`), written by hand: held to the rules their headers state.
@Suite struct WordPackTests {
    static let themedIDs = WordLists.themedPacks.map(\.id)

    @Test func roomsOfferTheGeneralPackThenFourThemedOnes() throws {
        let lists = try Fixtures.bundled.get()
        #expect(lists.packs.map(\.id) == ["general", "animals", "food", "nature", "home"])
        #expect(lists.packs.map(\.title) == ["General", "Animals", "Food", "Nature", "Around the house"])
        #expect(lists.pack("general")?.words == lists.secrets)
        #expect(lists.pack("animals")?.words.words.contains("GIRAFFE") == true)
        #expect(lists.pack("Animals") == nil, "ids are exact")
    }

    @Test(arguments: themedIDs)
    func eachPackHasEnoughWordsOfFourToTenLetters(id: String) throws {
        let pack = try #require(try Fixtures.bundled.get().pack(id))
        #expect(pack.words.words.count >= WordLists.packMinimumWords, "\(id): \(pack.words.words.count) words")
        for word in pack.words.words {
            #expect(WordList.lengths.contains(word.count) && word.allSatisfy { ("A"..."Z").contains($0) }, "\(word)")
        }
    }

    /// The blocklist's rules, as `BlocklistTests` applies them to the generated lists.
    @Test(arguments: themedIDs)
    func noPackWordIsBlocked(id: String) throws {
        let blocklist = try Blocklist.repository()
        let pack = try #require(try Fixtures.bundled.get().pack(id))
        let blocked = pack.words.words.map { $0.lowercased() }.filter(blocklist.blocks)
        #expect(blocked.isEmpty, "blocked words in \(id): \(blocked)")
    }

    /// Common words: every one short enough for the dictionary (3-8 letters) is in it; longer ones were checked
    /// by hand against SCOWL's `american-english` when the packs were written.
    @Test(arguments: themedIDs)
    func everyShortPackWordIsInTheDictionary(id: String) throws {
        let lists = try Fixtures.bundled.get()
        let pack = try #require(lists.pack(id))
        let unknown = pack.words.words.map { $0.lowercased() }
            .filter { WordLists.dictionaryLengths.contains($0.count) && !lists.lexicon.contains($0) }
        #expect(unknown.isEmpty, "not in the dictionary: \(unknown)")
    }

    @Test func theBlocklistCheckWouldCatchABlockedWord() throws {
        // The same filter as above, on a pack that has a blocked word among innocent ones.
        let blocklist = try Blocklist.repository()
        let pack = WordPack(id: "test", title: "Test", words: try WordList(["giraffe", "murder", "pancake"]))
        #expect(pack.words.words.map { $0.lowercased() }.filter(blocklist.blocks) == ["murder"])
    }
}
