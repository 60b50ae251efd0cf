/// A host's own Snowman secrets, pasted as one text: words separated by line breaks or commas.
///
/// Rules (the web client's `parseCustomWords` applies the same ones for live feedback):
/// - Lines end with `\n`, `\r\n` or `\r`, counted from 1; commas split a line into several entries, each reported
///   with its line's number.
/// - Spaces and tabs around an entry are trimmed; empty entries (blank lines, `a,,b`) are ignored.
/// - Every other entry must be 4 to 10 letters A-Z in either case; words are stored uppercase.
/// - Repeats (ignoring case) are merged into one word, not refused; then 10 to 500 different words must remain.
/// - Any invalid entry refuses the whole list, naming every one (nothing is silently dropped).
public struct CustomWordList: Hashable, Sendable {
    /// How many different words a list holds.
    public static let counts: ClosedRange<Int> = 10...500
    /// How long each word is.
    public static let lengths = WordList.lengths
    /// The longest text accepted, in UTF-8 bytes: 500 words of 10 letters with separators fit well within it.
    public static let maxBytes = 8192
    /// How many problems a refusal lists before "and N more".
    public static let problemsListed = 10

    /// The words, uppercase, in the order they first appear.
    public let words: [String]
    /// Entries left out because they repeat an earlier word (ignoring case).
    public let duplicates: Int

    /// Different words in the list.
    public var count: Int { words.count }

    private init(words: [String], duplicates: Int) {
        self.words = words
        self.duplicates = duplicates
    }

    /// Reads a pasted list.
    ///
    /// - Parameter text: The host's text.
    /// - Returns: The list, or nil when the text holds no word at all (empty, or only blank lines and commas):
    ///   that clears the host's list.
    /// - Throws: `Rejection.invalidEntries` naming every invalid entry, else `.tooFew` or `.tooMany` for a list
    ///   outside `counts`; `.tooLong` (checked first) for a text over `maxBytes`.
    public static func parse(_ text: String) throws(Rejection) -> CustomWordList? {
        let bytes = text.utf8.count
        guard bytes <= maxBytes else { throw .tooLong(bytes: bytes) }
        var words: [String] = []
        var seen: Set<String> = []
        var duplicates = 0
        var problems: [Problem] = []
        for (index, line) in lines(of: text).enumerated() {
            for rawEntry in line.split(separator: ",", omittingEmptySubsequences: false) {
                let entry = trimmed(rawEntry)
                guard !entry.isEmpty else { continue }
                guard entry.utf8.allSatisfy(isASCIILetter) else {
                    problems.append(Problem(line: index + 1, text: String(entry), reason: .notLetters))
                    continue
                }
                guard lengths.contains(entry.utf8.count) else {
                    problems.append(Problem(line: index + 1, text: String(entry),
                                            reason: .wrongLength(letters: entry.utf8.count)))
                    continue
                }
                let word = entry.uppercased()
                if seen.insert(word).inserted {
                    words.append(word)
                } else {
                    duplicates += 1
                }
            }
        }
        guard problems.isEmpty else { throw .invalidEntries(problems) }
        guard !words.isEmpty else { return nil }
        guard words.count >= counts.lowerBound else { throw .tooFew(words.count, duplicates: duplicates) }
        guard words.count <= counts.upperBound else { throw .tooMany(words.count) }
        return CustomWordList(words: words, duplicates: duplicates)
    }

    /// A list saved earlier (one word an element), checked again by the same rules.
    ///
    /// - Throws: `Rejection` when the words would not be accepted if pasted, or there are none.
    public init(saved words: [String]) throws(Rejection) {
        guard let list = try Self.parse(words.joined(separator: "\n")) else { throw .tooFew(0, duplicates: 0) }
        self = list
    }

    /// The lines of `text`; `\r\n` is one grapheme in Swift, so it is matched as a whole.
    private static func lines(of text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
    }

    private static func trimmed(_ entry: Substring) -> Substring {
        var entry = entry
        while let first = entry.first, first == " " || first == "\t" { entry.removeFirst() }
        while let last = entry.last, last == " " || last == "\t" { entry.removeLast() }
        return entry
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }
}

extension CustomWordList {
    /// One invalid entry of a pasted list; its text is the entry as typed, trimmed, and its line the entry's line.
    public typealias Problem = LineProblem<Reason>

    /// What is wrong with an entry.
    public enum Reason: LineProblemReason {
        /// Something other than the letters A-Z (a space inside, a digit, an accent, a hyphen).
        case notLetters
        /// Letters only, but too few or too many of them.
        case wrongLength(letters: Int)

        /// Longest part of an entry quoted back in a message.
        static let quotedCharacters = 24

        /// `line 3: "cat" has 3 letters (words need 4 to 10)`, quoting at most `quotedCharacters` of the entry.
        public func describe(line: Int, text: String) -> String {
            let quoted = text.count > Self.quotedCharacters ? text.prefix(Self.quotedCharacters) + "…" : Substring(text)
            switch self {
            case .notLetters:
                return "line \(line): \"\(quoted)\" has characters other than the letters A-Z"
            case .wrongLength(let letters):
                return "line \(line): \"\(quoted)\" has \(letters) letter\(letters == 1 ? "" : "s") "
                    + "(words need \(lengths.lowerBound) to \(lengths.upperBound))"
            }
        }
    }

    /// Why a pasted list was refused. Every case has the code `bad-words`.
    public enum Rejection: GameRejection, Hashable {
        /// Entries that are not acceptable words, in order; all of them.
        case invalidEntries([Problem])
        /// Fewer than `counts.lowerBound` different words (repeats merged: `duplicates`).
        case tooFew(Int, duplicates: Int)
        /// More than `counts.upperBound` different words.
        case tooMany(Int)
        /// A text of more than `maxBytes` bytes.
        case tooLong(bytes: Int)
        /// The setting was not text at all.
        case notText

        public var code: String { "bad-words" }

        public var title: String { "Check the word list" }

        public var message: String {
            switch self {
            case .invalidEntries(let problems):
                let count = problems.count
                var listed = problems.prefix(CustomWordList.problemsListed).map(\.description).joined(separator: "; ")
                if count > CustomWordList.problemsListed {
                    listed += "; and \(count - CustomWordList.problemsListed) more"
                }
                return "The word list has \(count) invalid \(count == 1 ? "entry" : "entries"): \(listed)."
            case .tooFew(let count, let duplicates):
                let merged = duplicates == 0 ? "" : " (\(duplicates) repeated \(duplicates == 1 ? "word" : "words") merged)"
                return "The word list has \(count) different \(count == 1 ? "word" : "words")\(merged); "
                    + "it needs at least \(CustomWordList.counts.lowerBound)."
            case .tooMany(let count):
                return "The word list has \(count) different words; at most \(CustomWordList.counts.upperBound) "
                    + "are allowed."
            case .tooLong(let bytes):
                return "The word list is too long (\(bytes) bytes); at most \(CustomWordList.maxBytes) are allowed."
            case .notText:
                return "\"customWords\" must be text: words separated by line breaks or commas."
            }
        }
    }
}
