/// A validated list of Snowman secret words: unique, A-Z only, 4 to 10 letters, stored uppercase.
///
/// Build one with `parse(contents:)` from a file the host supplies (the server's `--words FILE`), or use
/// `WordLists.bundled().secrets`.
public struct WordList: Hashable, Sendable {
    /// Allowed lengths of a secret word.
    public static let lengths: ClosedRange<Int> = 4...10

    /// The words, uppercase, in file order.
    public let words: [String]

    /// Validates words given in code, as `parse(contents:)` would; "line" numbers are positions counted from 1.
    ///
    /// - Parameter words: Candidate words in any letter case.
    /// - Throws: `ParseError` listing every invalid word, or `.noWords` for an empty array.
    public init(_ words: [String]) throws(ParseError) {
        var collector = LineCollector(lengths: Self.lengths, letterCase: .upper)
        for (index, word) in words.enumerated() {
            collector.add(word, line: index + 1)
        }
        self.words = try collector.validWords()
    }

    init(validated words: [String]) {
        self.words = words
    }

    /// Parses a word file: one word a line; blank lines and everything after a `#` are ignored; surrounding
    /// spaces are trimmed and letters are uppercased.
    ///
    /// - Parameter contents: The file's text.
    /// - Returns: The words, in file order.
    /// - Throws: `ParseError.invalidLines` naming every bad line and why (not letters A-Z, wrong length,
    ///   duplicate), or `ParseError.noWords` when the file holds no word at all.
    public static func parse(contents: String) throws(ParseError) -> WordList {
        var collector = LineCollector(lengths: lengths, letterCase: .upper)
        collector.addLines(of: contents)
        return WordList(validated: try collector.validWords())
    }

    /// Picks a word uniformly at random.
    ///
    /// - Parameter generator: The room's random source.
    /// - Returns: One of `words` (never fails: a `WordList` is never empty).
    public func randomWord(using generator: inout some RandomNumberGenerator) -> String {
        words[Int.random(in: words.indices, using: &generator)]
    }
}

extension WordList {
    /// Why a word file was refused.
    public enum ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// Lines that are not acceptable words, in line order; all of them, not just the first.
        case invalidLines([Problem])
        /// The file holds only blank lines and comments.
        case noWords

        public var description: String {
            switch self {
            case .noWords:
                return "The word list contains no words."
            case .invalidLines(let problems):
                return (["The word list has \(problems.count) invalid line\(problems.count == 1 ? "" : "s"):"]
                    + problems.map { "  \($0)" }).joined(separator: "\n")
            }
        }
    }

    /// One invalid line of a word file; its text is the line with comment and surrounding spaces removed.
    public typealias Problem = LineProblem<Reason>

    /// What is wrong with a line of a word file.
    public enum Reason: LineProblemReason {
        /// The line contains something other than the letters A-Z (either case).
        case notLetters
        /// The word's length is outside the given range.
        case wrongLength(allowed: ClosedRange<Int>)
        /// The same word (ignoring case) already appeared on `firstLine`.
        case duplicate(firstLine: Int)

        public func describe(line: Int, text: String) -> String {
            switch self {
            case .notLetters:
                return "line \(line): \"\(text)\" must contain only letters A-Z"
            case .wrongLength(let allowed):
                return "line \(line): \"\(text)\" has \(text.count) letters; words need "
                    + "\(allowed.lowerBound) to \(allowed.upperBound)"
            case .duplicate(let firstLine):
                return "line \(line): \"\(text)\" repeats line \(firstLine)"
            }
        }
    }
}
