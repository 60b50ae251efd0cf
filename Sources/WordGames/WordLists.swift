import Foundation

/// The word lists the games use, loaded and indexed once when the server starts.
///
/// The bundled lists are generated from SCOWL by `Tests/Words/make-word-lists.sh`, which applies the blocklist
/// `Tests/Words/blocklist.txt`: no blocked word is ever a Snowman secret or a Scramble root; slurs are not in the
/// dictionary at all; the other blocked dictionary words are accepted when typed but never shown as missed.
///
/// This is the only file of the module that imports Foundation, and only to read files; the rules stay pure.
/// Build it once and share it (it is `Sendable`): copies share storage.
public struct WordLists: Sendable {
    /// Snowman secrets parsed from `secrets.txt` (about five thousand everyday words of 4-10 letters) or from a
    /// host's `--words FILE`: the `general` pack.
    public var secrets: WordList
    /// The themed Snowman packs of `Resources/words/packs`, in the order of `themedPacks`.
    public var themed: [WordPack]
    /// Scramble roots: lowercase eight-letter words.
    public var roots: [String]
    /// The Scramble dictionary, indexed for checking words and counting a root's sub-words; its `unshown` words
    /// (from `unshown.txt`) are accepted but never listed among a round's missed words.
    public var lexicon: Lexicon

    /// Length of every Scramble root.
    public static let rootLength = 8
    /// Every bundled root offers at least this many other dictionary words of `subwordMinimumLength` or more
    /// letters that can be shown (not `unshown`); `Tests/Words/make-word-lists.sh` selects them and the tests
    /// check it.
    public static let rootMinimumSubwords = 25
    /// The word length at which `rootMinimumSubwords` is counted (the smallest minimum a room can set).
    public static let subwordMinimumLength = 3
    /// Lengths of the words in the bundled dictionary: no room accepts shorter words, and nothing longer than a
    /// root can be spelled from it.
    public static let dictionaryLengths: ClosedRange<Int> = 3...rootLength

    /// The themed packs shipped in `Resources/words/packs/ID.txt`, in the order hosts see them: ids and titles.
    /// Each holds at least `packMinimumWords` words, written and checked by hand (`WordPackTests`).
    public static let themedPacks: [(id: String, title: String)] = [
        ("animals", "Animals"), ("food", "Food"), ("nature", "Nature"), ("home", "Around the house"),
    ]
    /// The fewest words of a themed pack: enough that a room rarely sees a word twice in an evening.
    public static let packMinimumWords = 150

    /// Every Snowman pack a host can choose: `general` (the secrets) first, then the themed ones.
    public var packs: [WordPack] { [WordPack.general(secrets)] + themed }

    /// The pack named `id`, if there is one.
    public func pack(_ id: String) -> WordPack? {
        id == WordPack.generalID ? WordPack.general(secrets) : themed.first { $0.id == id }
    }

    /// Files of the bundled resource folder `Resources/words`.
    public enum File: String, Sendable, CaseIterable {
        /// Snowman secrets: common words (SCOWL sizes 10 and 20), none blocked.
        case secrets = "secrets.txt"
        /// Scramble roots (SCOWL size 35 via `wamerican-small`), none blocked.
        case roots = "roots.txt"
        /// Scramble dictionary (SCOWL size 50 via `wamerican`), without slurs.
        case dictionary = "dictionary.txt"
        /// Dictionary words Scramble accepts but never lists as missed: those the blocklist matches. May be empty.
        case unshown = "unshown.txt"
    }

    /// Why the word lists could not be loaded.
    public enum LoadError: Error, CustomStringConvertible {
        /// The resource bundle with the `words` folder was not found (a packaging mistake: it must sit beside the
        /// executable); `expected` is where it was looked for first.
        case missingResources(expected: String)
        /// A file could not be read.
        case unreadable(File, underlying: any Error)
        /// A file's contents are not a valid list of that kind.
        case invalid(File, WordList.ParseError)
        /// A themed pack's file (`packs/ID.txt`) could not be read.
        case unreadablePack(String, underlying: any Error)
        /// A themed pack's file is not a valid word list.
        case invalidPack(String, WordList.ParseError)

        public var description: String {
            switch self {
            case .missingResources(let expected):
                return "the word lists are missing: expected the folder \(expected) beside the executable "
                    + "(copy the WordRooms_WordGames.resources bundle from the build directory with the binary)"
            case .unreadable(let file, let error):
                return "Cannot read \(file.rawValue): \(error)"
            case .invalid(let file, let error):
                return "\(file.rawValue): \(error)"
            case .unreadablePack(let id, let error):
                return "Cannot read \(WordLists.packPath(id)): \(error)"
            case .invalidPack(let id, let error):
                return "\(WordLists.packPath(id)): \(error)"
            }
        }
    }

    /// Groups already loaded lists, e.g. a custom secret list with the bundled Scramble lists.
    ///
    /// - Parameters:
    ///   - secrets: Snowman secrets.
    ///   - roots: Lowercase Scramble roots; must not be empty when used for Scramble.
    ///   - lexicon: The Scramble dictionary, with its unshown words.
    ///   - themed: Themed Snowman packs (none by default: rooms then offer only `general`).
    public init(secrets: WordList, roots: [String], lexicon: Lexicon, themed: [WordPack] = []) {
        self.secrets = secrets
        self.themed = themed
        self.roots = roots
        self.lexicon = lexicon
    }

    /// Loads the lists shipped inside the package.
    ///
    /// - Returns: The parsed and indexed lists.
    /// - Throws: `LoadError` if the bundle is incomplete or a file is malformed.
    public static func bundled() throws(LoadError) -> WordLists {
        guard let folder = bundledFolder else {
            throw .missingResources(expected: candidateBundles.first?.appendingPathComponent("words").path ?? "words")
        }
        return try load(from: folder)
    }

    /// The bundle's name as SwiftPM writes it next to the products.
    static let bundleName = "WordRooms_WordGames.resources"

    /// Where the bundle may be: beside the running executable (a deployment, `swift run`, the test runner), then
    /// in the main bundle's resources. `Bundle.module` is not used because it stops the process when the bundle
    /// is missing, and a missing bundle deserves an error message, not a crash.
    static var candidateBundles: [URL] {
        var candidates: [URL] = []
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        // An .xctest bundle sits in the build directory too; its own executable may be one level deeper.
        for directory in [executable, executable.deletingLastPathComponent()] {
            candidates.append(directory.appendingPathComponent(bundleName))
            // SwiftPM names the bundle after the package (`<Package>_WordGames.resources`): take any such one.
            let others = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for name in others.sorted() where name.hasSuffix("_WordGames.resources") && name != bundleName {
                candidates.append(directory.appendingPathComponent(name))
            }
        }
        if let resources = Bundle.main.resourceURL {
            candidates.append(resources.appendingPathComponent(bundleName))
        }
        candidates.append(Bundle.main.bundleURL.appendingPathComponent(bundleName))
        return candidates
    }

    /// The package's `Resources/words` folder.
    static var bundledFolder: URL? {
        for bundle in candidateBundles {
            let words = bundle.appendingPathComponent("words")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: words.path, isDirectory: &isDirectory), isDirectory.boolValue {
                return words
            }
        }
        return nil
    }

    /// Loads the lists from a folder laid out like `Resources/words`.
    ///
    /// - Parameter folder: Folder holding the files named by `File`, and `packs/ID.txt` for each of `themedPacks`.
    /// - Returns: The parsed and indexed lists.
    /// - Throws: `LoadError` naming the file and every invalid line.
    public static func load(from folder: URL) throws(LoadError) -> WordLists {
        let secretsText = try read(.secrets, in: folder)
        let secrets: WordList
        do {
            secrets = try WordList.parse(contents: secretsText)
        } catch {
            throw .invalid(.secrets, error)
        }
        let roots = try words(of: .roots, in: folder, lengths: rootLength...rootLength)
        let dictionary = try words(of: .dictionary, in: folder, lengths: dictionaryLengths)
        let unshown = try words(of: .unshown, in: folder, lengths: dictionaryLengths, mayBeEmpty: true)
        let lexicon = Lexicon(words: dictionary, unshown: unshown)
        var themed: [WordPack] = []
        for (id, title) in themedPacks {
            let text: String
            do {
                text = try String(contentsOf: folder.appendingPathComponent(packPath(id)), encoding: .utf8)
            } catch {
                throw .unreadablePack(id, underlying: error)
            }
            do {
                themed.append(WordPack(id: id, title: title, words: try WordList.parse(contents: text)))
            } catch {
                throw .invalidPack(id, error)
            }
        }
        return WordLists(secrets: secrets, roots: roots, lexicon: lexicon, themed: themed)
    }

    /// Where the themed pack `id` is, relative to the words folder.
    static func packPath(_ id: String) -> String { "packs/\(id).txt" }

    private static func words(
        of file: File, in folder: URL, lengths: ClosedRange<Int>, mayBeEmpty: Bool = false
    ) throws(LoadError) -> [String] {
        var collector = LineCollector(lengths: lengths)
        collector.addLines(of: try read(file, in: folder))
        do {
            return try collector.validWords()
        } catch .noWords where mayBeEmpty {
            return []
        } catch {
            throw .invalid(file, error)
        }
    }

    private static func read(_ file: File, in folder: URL) throws(LoadError) -> String {
        do {
            return try String(contentsOf: folder.appendingPathComponent(file.rawValue), encoding: .utf8)
        } catch {
            throw .unreadable(file, underlying: error)
        }
    }
}
