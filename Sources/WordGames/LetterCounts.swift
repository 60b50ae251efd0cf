/// How many times each letter a-z occurs in a word: the multiset that spelling rules compare.
struct LetterCounts: Hashable, Sendable {
    private(set) var counts: [UInt8]

    /// Counts the letters of a lowercase ASCII word.
    ///
    /// - Returns: `nil` if the word contains anything but a-z, or a letter more than 255 times.
    init?(_ word: some StringProtocol) {
        counts = Array(repeating: 0, count: 26)
        for byte in word.utf8 {
            guard let index = Self.index(of: byte), counts[index] < .max else { return nil }
            counts[index] += 1
        }
    }

    /// Occurrences of `letter`, or 0 for anything that is not a lowercase ASCII letter.
    subscript(letter: Character) -> Int {
        guard let byte = letter.asciiValue, let index = Self.index(of: byte) else { return 0 }
        return Int(counts[index])
    }

    /// The position of a lowercase ASCII letter in the alphabet, counted from 0.
    static func index(of byte: UInt8) -> Int? {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) ? Int(byte - UInt8(ascii: "a")) : nil
    }
}
