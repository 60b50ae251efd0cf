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
            // Room for every line up front: grown as it went, the table of first lines was rehashed whole at
            // each doubling (with the lexicon's index, a quarter of the server's start-up instructions).
            var lines = 1
            for byte in bytes where byte == UInt8(ascii: "\n") { lines += 1 }
            firstLines.reserveCapacity(firstLines.count + lines)
            words.reserveCapacity(words.count + lines)
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
