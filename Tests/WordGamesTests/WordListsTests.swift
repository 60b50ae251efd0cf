import Foundation
import Testing
@testable import WordGames

@Suite struct WordListsTests {
    @Test func bundledListsLoadQuickly() throws {
        let clock = ContinuousClock()
        var lists: WordLists?
        let elapsed = try clock.measure { lists = try WordLists.bundled() }
        let loaded = try #require(lists)
        // Reported, not asserted: debug builds are several times slower than the server's release build.
        print("""
            WordLists.bundled() loaded in \(elapsed): \(loaded.secrets.words.count) secrets, \
            \(loaded.roots.count) roots, \(loaded.lexicon.count) dictionary words
            """)
    }

    @Test func bundledListsHaveSaneSizes() throws {
        let lists = try Fixtures.bundled.get()
        #expect(lists.secrets.words.count > 20_000)
        #expect(lists.roots.count > 1_000)
        #expect(lists.lexicon.count > 30_000)
    }

    @Test func bundledSecretsAreUppercaseWordsOfFourToTenLetters() throws {
        let lists = try Fixtures.bundled.get()
        for word in lists.secrets.words {
            #expect(WordList.lengths.contains(word.count) && word.allSatisfy { ("A"..."Z").contains($0) }, "\(word)")
        }
        #expect(Set(lists.secrets.words).count == lists.secrets.words.count)
    }

    @Test func everyBundledRootOffersEnoughSubwords() throws {
        let lists = try Fixtures.bundled.get()
        var fewest = Int.max
        for root in lists.roots {
            #expect(root.count == WordLists.rootLength && LetterCounts(root) != nil, "\(root)")
            let subwords = lists.lexicon.words(spelledFrom: root, minimumLength: WordLists.subwordMinimumLength)
                .filter { $0 != root }
            #expect(subwords.count >= WordLists.rootMinimumSubwords, "\(root) offers \(subwords.count)")
            fewest = min(fewest, subwords.count)
        }
        print("Fewest sub-words of a bundled root: \(fewest)")
    }

    @Test func bundledDictionaryHoldsWordsNotAbbreviationsOrNumerals() throws {
        let lexicon = try Fixtures.bundled.get().lexicon
        for word in ["problem", "robe", "slob", "mob", "snowman", "trainers"] {
            #expect(lexicon.contains(word), "\(word)")
        }
        for junk in ["etc", "adj", "xiv", "mph", "tsp", "bldg", "i", "ok", "can't"] {
            #expect(!lexicon.contains(junk), "\(junk)")
        }
    }

    @Test func scowlNoticeShipsBesideTheLists() throws {
        let folder = try #require(WordLists.bundledFolder)
        let notice = try String(contentsOf: folder.appendingPathComponent("SCOWL-COPYRIGHT"), encoding: .utf8)
        #expect(notice.contains("Kevin Atkinson"))
    }

    @Test func loadingReportsTheFileAndEveryBadLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wordlists-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "snowman\nicicle\n".write(to: folder.appendingPathComponent("secrets.txt"), atomically: true, encoding: .utf8)
        try "# roots\nproblems\nshort\n".write(
            to: folder.appendingPathComponent("roots.txt"), atomically: true, encoding: .utf8)
        try "rob\nmob\n".write(to: folder.appendingPathComponent("dictionary.txt"), atomically: true, encoding: .utf8)

        let error = try #require(throws: WordLists.LoadError.self) { try WordLists.load(from: folder) }
        guard case .invalid(.roots, .invalidLines(let problems)) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(problems == [WordList.Problem(line: 3, text: "short", reason: .wrongLength(allowed: 8...8))])
        #expect(error.description == #"roots.txt: The word list has 1 invalid line:"# + "\n"
            + #"  line 3: "short" has 5 letters; words need 8 to 8"#)
    }

    @Test func loadingReportsAMissingFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wordlists-\(UUID().uuidString)")
        let error = try #require(throws: WordLists.LoadError.self) { try WordLists.load(from: folder) }
        guard case .unreadable(.secrets, _) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
    }

    @Test func loadsAFolderOfValidLists() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wordlists-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "snowman\n".write(to: folder.appendingPathComponent("secrets.txt"), atomically: true, encoding: .utf8)
        try "problems\n".write(to: folder.appendingPathComponent("roots.txt"), atomically: true, encoding: .utf8)
        try "rob\nmob\n".write(to: folder.appendingPathComponent("dictionary.txt"), atomically: true, encoding: .utf8)
        let lists = try WordLists.load(from: folder)
        #expect(lists.secrets.words == ["SNOWMAN"])
        #expect(lists.roots == ["problems"])
        #expect(lists.lexicon.words(spelledFrom: "problems") == ["mob", "rob"])
    }
}
