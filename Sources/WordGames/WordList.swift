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

    /// One invalid line of a word file.
    public struct Problem: Hashable, Sendable, CustomStringConvertible {
        /// Line number, counted from 1.
        public var line: Int
        /// The line's text with comment and surrounding spaces removed.
        public var text: String
        /// What is wrong with it.
        public var reason: Reason

        /// Creates a problem report for one line.
        public init(line: Int, text: String, reason: Reason) {
            self.line = line
            self.text = text
            self.reason = reason
        }

        public var description: String {
            switch reason {
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

    /// What is wrong with a line of a word file.
    public enum Reason: Hashable, Sendable {
        /// The line contains something other than the letters A-Z (either case).
        case notLetters
        /// The word's length is outside the given range.
        case wrongLength(allowed: ClosedRange<Int>)
        /// The same word (ignoring case) already appeared on `firstLine`.
        case duplicate(firstLine: Int)
    }
}

/// Validates the lines of a word file into words and problems; shared by every list this module loads.
///
/// Works on the UTF-8 bytes in place rather than on `Character`s: the bundled dictionary has tens of thousands of
/// lines, and start-up should stay well under a second even in debug builds.
struct LineCollector {
    /// The letter case words are stored in.
    enum LetterCase {
        case lower, upper
    }

    let lengths: ClosedRange<Int>
    let letterCase: LetterCase
    private(set) var words: [String] = []
    private(set) var problems: [WordList.Problem] = []
    private var firstLines: [String: Int] = [:]

    init(lengths: ClosedRange<Int>, letterCase: LetterCase = .lower) {
        self.lengths = lengths
        self.letterCase = letterCase
    }

    /// Adds every line of a file, skipping blank lines and `#` comments and trimming surrounding spaces.
    mutating func addLines(of contents: String) {
        var contents = contents
        contents.makeContiguousUTF8()
        _ = contents.utf8.withContiguousStorageIfAvailable { bytes in
            var lineNumber = 0
            var lineStart = 0
            while lineStart < bytes.count {
                lineNumber += 1
                var lineEnd = lineStart
                while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
                var end = lineStart
                while end < lineEnd, bytes[end] != UInt8(ascii: "#") { end += 1 }
                var start = lineStart
                while start < end, isSpace(bytes[start]) { start += 1 }
                while end > start, isSpace(bytes[end - 1]) { end -= 1 }
                if start < end {
                    add(UnsafeBufferPointer(rebasing: bytes[start..<end]), line: lineNumber)
                }
                lineStart = lineEnd + 1
            }
        }
    }

    /// Adds one candidate word exactly as given.
    mutating func add(_ word: String, line: Int) {
        var word = word
        word.makeContiguousUTF8()
        _ = word.utf8.withContiguousStorageIfAvailable { add($0, line: line) }
    }

    private mutating func add(_ bytes: UnsafeBufferPointer<UInt8>, line: Int) {
        var isLetters = true
        for byte in bytes where !isASCIILetter(byte) {
            isLetters = false
        }
        guard isLetters, lengths.contains(bytes.count) else {
            let text = String(decoding: bytes, as: UTF8.self)
            let reason: WordList.Reason = isLetters ? .wrongLength(allowed: lengths) : .notLetters
            problems.append(WordList.Problem(line: line, text: text, reason: reason))
            return
        }
        let word = String(unsafeUninitializedCapacity: bytes.count) { buffer in
            for index in bytes.indices {
                buffer[index] = letterCase == .lower ? bytes[index] | 0x20 : bytes[index] & ~0x20
            }
            return bytes.count
        }
        if let firstLine = firstLines.updateValue(line, forKey: word) {
            firstLines[word] = firstLine
            problems.append(WordList.Problem(
                line: line, text: String(decoding: bytes, as: UTF8.self), reason: .duplicate(firstLine: firstLine)))
            return
        }
        words.append(word)
    }

    /// The collected words, or every problem found.
    func validWords() throws(WordList.ParseError) -> [String] {
        guard problems.isEmpty else { throw .invalidLines(problems) }
        guard !words.isEmpty else { throw .noWords }
        return words
    }
}

private func isSpace(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
}

private func isASCIILetter(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
}
