/// A named list of Snowman secrets a host can choose for their room, such as animals or food.
///
/// `general` is the bundled `secrets.txt` (or the server's `--words FILE`); the themed packs are the files of
/// `Resources/words/packs`, written by hand (see `WordLists.themedPacks`).
public struct WordPack: Hashable, Sendable {
    /// The pack every room starts with: the general secrets.
    public static let generalID = "general"
    /// The general pack's name for people.
    public static let generalTitle = "General"

    /// The pack's name on the wire, lowercase: `"animals"`.
    public let id: String
    /// The pack's name for people: "Around the house".
    public let title: String
    /// Its words.
    public let words: WordList

    /// Creates a pack.
    ///
    /// - Parameters:
    ///   - id: The name on the wire.
    ///   - title: The name for people.
    ///   - words: The secrets it holds.
    public init(id: String, title: String, words: WordList) {
        self.id = id
        self.title = title
        self.words = words
    }

    /// The general pack of `words`, as a room without packs has it.
    public static func general(_ words: WordList) -> WordPack {
        WordPack(id: generalID, title: generalTitle, words: words)
    }
}
