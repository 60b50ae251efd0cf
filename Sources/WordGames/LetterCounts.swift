/// How many times each letter a-z occurs in a word: the multiset that spelling rules compare, and the key of the
/// lexicon's anagram index.
///
/// Packed four bits a letter into two integers, so counting a word allocates nothing and hashing is cheap; this
/// keeps indexing the dictionary at start-up fast even in debug builds.
struct LetterCounts: Hashable, Sendable {
    /// Most occurrences of one letter that can be counted (four bits).
    static let maxCount = 15

    /// Letters a-p, four bits each.
    private var low: UInt64 = 0
    /// Letters q-z, four bits each.
    private var high: UInt64 = 0

    /// No letters.
    init() {}

    /// Counts the letters of a lowercase ASCII word.
    ///
    /// - Returns: `nil` if the word contains anything but a-z, or one letter more than `maxCount` times.
    init?(_ word: String) {
        for byte in word.utf8 {
            guard let letter = Self.index(of: byte), count(of: letter) < Self.maxCount else { return nil }
            add(letter)
        }
    }

    /// Occurrences of the letter with alphabet position `letter` (0 for a).
    func count(of letter: Int) -> Int {
        letter < 16 ? Int(low >> UInt64(4 * letter) & 0xF) : Int(high >> UInt64(4 * (letter - 16)) & 0xF)
    }

    /// Adds `copies` of the letter with alphabet position `letter`; the caller keeps each count <= `maxCount`.
    mutating func add(_ letter: Int, copies: Int = 1) {
        if letter < 16 {
            low += UInt64(copies) << UInt64(4 * letter)
        } else {
            high += UInt64(copies) << UInt64(4 * (letter - 16))
        }
    }

    /// Occurrences of `letter`, or 0 for anything that is not a lowercase ASCII letter.
    subscript(letter: Character) -> Int {
        guard let byte = letter.asciiValue, let index = Self.index(of: byte) else { return 0 }
        return count(of: index)
    }

    /// Whether every letter occurs here at least as often as in `other`: `other` can be spelled from these letters.
    func canSpell(_ other: LetterCounts) -> Bool {
        (0..<26).allSatisfy { count(of: $0) >= other.count(of: $0) }
    }

    /// The position of a lowercase ASCII letter in the alphabet, counted from 0.
    static func index(of byte: UInt8) -> Int? {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) ? Int(byte - UInt8(ascii: "a")) : nil
    }
}
