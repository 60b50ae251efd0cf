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
            \(loaded.roots.count) roots, \(loaded.lexicon.count) dictionary words \
            (\(loaded.lexicon.unshown.count) never shown)
            """)
    }

    @Test func bundledListsHaveSaneSizes() throws {
        let lists = try Fixtures.bundled.get()
        #expect(lists.roots.count > 1_000)
        #expect(lists.lexicon.count > 30_000)
        #expect((100...1_000).contains(lists.lexicon.unshown.count))
    }

    /// A few thousand common words: enough that a room rarely sees one twice, few enough that friends know them.
    @Test func bundledSecretsAreAFewThousandWords() throws {
        let count = try Fixtures.bundled.get().secrets.words.count
        #expect((2_000...6_000).contains(count), "\(count) secrets")
    }

    @Test func bundledSecretsAreCommonWords() throws {
        let secrets = Set(try Fixtures.bundled.get().secrets.words)
        for word in ["HOUSE", "GARDEN", "ELEPHANT", "BICYCLE", "CHOCOLATE", "MORNING", "TEACHER", "WINTER"] {
            #expect(secrets.contains(word), "\(word)")
        }
        // Obscure words of the old 34,000-word list, and inflections whose base word is a secret already.
        for word in ["LAZIED", "ABSCONDING", "QUAGMIRES", "BELIE", "HOUSES", "WALKED", "WALKING", "QUICKLY", "BIGGER"] {
            #expect(!secrets.contains(word), "\(word)")
        }
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
            // Only the words a round's summary may list count.
            let subwords = lists.lexicon.words(spelledFrom: root, minimumLength: WordLists.subwordMinimumLength)
                .filter { $0 != root && lists.lexicon.isShown($0) }
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
        try "rob\nmob\nsob\n".write(
            to: folder.appendingPathComponent("dictionary.txt"), atomically: true, encoding: .utf8)
        try "# never shown\nrob\nzap\n".write(
            to: folder.appendingPathComponent("unshown.txt"), atomically: true, encoding: .utf8)
        try Self.writePacks(in: folder)
        let lists = try WordLists.load(from: folder)
        #expect(lists.packs.map(\.id) == ["general", "animals", "food", "nature", "home"])
        #expect(lists.packs.map(\.title) == ["General", "Animals", "Food", "Nature", "Around the house"])
        #expect(lists.pack("general")?.words == lists.secrets)
        #expect(lists.pack("food")?.words.words == ["FOOD", "FOODWORD"])
        #expect(lists.pack("sports") == nil)
        #expect(lists.secrets.words == ["SNOWMAN"])
        #expect(lists.roots == ["problems"])
        #expect(lists.lexicon.words(spelledFrom: "problems") == ["mob", "rob", "sob"])
        #expect(lists.lexicon.contains("rob") && !lists.lexicon.isShown("rob"))
        #expect(lists.lexicon.isShown("mob"))
        #expect(lists.lexicon.unshown == ["rob"], "words not in the dictionary are ignored")
    }

    @Test func anEmptyUnshownListIsFine() throws {
        let folder = try Self.folder(secrets: "snowman\n", roots: "problems\n", dictionary: "rob\n", unshown: "# none\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        let lists = try WordLists.load(from: folder)
        #expect(lists.lexicon.unshown.isEmpty && lists.lexicon.isShown("rob"))
    }

    @Test func loadingReportsAMissingUnshownList() throws {
        let folder = try Self.folder(secrets: "snowman\n", roots: "problems\n", dictionary: "rob\n", unshown: nil)
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = try #require(throws: WordLists.LoadError.self) { try WordLists.load(from: folder) }
        guard case .unreadable(.unshown, _) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
    }

    @Test func loadingReportsABadPack() throws {
        let folder = try Self.folder(secrets: "snowman\n", roots: "problems\n", dictionary: "rob\n", unshown: "")
        defer { try? FileManager.default.removeItem(at: folder) }
        try "# nature\nriver\nsea\n".write(
            to: folder.appendingPathComponent("packs/nature.txt"), atomically: true, encoding: .utf8)
        let error = try #require(throws: WordLists.LoadError.self) { try WordLists.load(from: folder) }
        guard case .invalidPack("nature", .invalidLines(let problems)) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(problems == [WordList.Problem(line: 3, text: "sea", reason: .wrongLength(allowed: 4...10))])
        #expect(error.description.hasPrefix("packs/nature.txt: The word list has 1 invalid line:"))
    }

    @Test func loadingReportsAMissingPack() throws {
        let folder = try Self.folder(secrets: "snowman\n", roots: "problems\n", dictionary: "rob\n", unshown: "")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("packs/home.txt"))
        let error = try #require(throws: WordLists.LoadError.self) { try WordLists.load(from: folder) }
        guard case .unreadablePack("home", _) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(error.description.hasPrefix("Cannot read packs/home.txt"))
    }

    /// Writes every themed pack into `folder/packs`: two words, the pack's id and its first four letters followed
    /// by "word".
    private static func writePacks(in folder: URL) throws {
        let packs = folder.appendingPathComponent("packs")
        try FileManager.default.createDirectory(at: packs, withIntermediateDirectories: true)
        for (id, _) in WordLists.themedPacks {
            try "# \(id)\n\(id)\n\(id.prefix(4))word\n".write(
                to: packs.appendingPathComponent("\(id).txt"), atomically: true, encoding: .utf8)
        }
    }

    /// A temporary folder laid out like `Resources/words`, with small packs; a `nil` file is left out.
    private static func folder(secrets: String, roots: String, dictionary: String, unshown: String?) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wordlists-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (file, text) in [(WordLists.File.secrets, secrets), (.roots, roots), (.dictionary, dictionary)]
            + (unshown.map { [(WordLists.File.unshown, $0)] } ?? []) {
            try text.write(to: folder.appendingPathComponent(file.rawValue), atomically: true, encoding: .utf8)
        }
        try writePacks(in: folder)
        return folder
    }
}
