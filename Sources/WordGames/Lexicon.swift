/// The dictionary that Word Scramble checks words against, indexed so that no request scans it.
///
/// Membership is a `Set` lookup. Finding every word that can be spelled from a root uses an index from each word's
/// sorted letters (its anagram signature) to the words with those letters: a root of n letters has at most 2^n
/// letter subsets (256 for eight letters), and each subset is one hash lookup, whatever the dictionary's size.
public struct Lexicon: Sendable {
    /// Longest word that is indexed for spelling: a signature packs 5 bits a letter into 64 bits.
    public static let maxIndexedLength = 12

    private let members: Set<String>
    private let anagrams: [UInt64: [String]]

    /// Builds the lexicon and its index.
    ///
    /// - Parameter words: Lowercase words a-z of 1 to `maxIndexedLength` letters; anything else is ignored, since
    ///   it could never be spelled from a root's letters nor typed as a valid word.
    public init(words: some Sequence<String>) {
        var members = Set<String>()
        var anagrams: [UInt64: [String]] = [:]
        for word in words {
            guard let signature = Self.signature(of: word), members.insert(word).inserted else { continue }
            anagrams[signature, default: []].append(word)
        }
        self.members = members
        self.anagrams = anagrams
    }

    /// Number of distinct words in the lexicon.
    public var count: Int { members.count }

    /// Whether `word` (lowercase) is in the lexicon.
    ///
    /// - Parameter word: A lowercase word.
    /// - Returns: `true` for a dictionary word.
    public func contains(_ word: String) -> Bool {
        members.contains(word)
    }

    /// Every lexicon word that can be spelled from the letters of `root`, each letter used at most as often as it
    /// occurs in `root`.
    ///
    /// - Parameters:
    ///   - root: Lowercase letters a-z, at most `maxIndexedLength` of them.
    ///   - minimumLength: Shorter words are left out.
    /// - Returns: The words, sorted by length (longest first) then alphabetically; includes `root` itself and its
    ///   anagrams when they are words. Empty if `root` is not lowercase a-z or is too long.
    public func words(spelledFrom root: String, minimumLength: Int = 1) -> [String] {
        guard root.utf8.count <= Self.maxIndexedLength, let letters = LetterCounts(root) else { return [] }
        var found: [String] = []
        var signature: UInt64 = 0
        collect(from: letters.counts, letter: 0, signature: &signature, length: 0, minimumLength: minimumLength,
                into: &found)
        return found.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
    }

    /// Walks every sub-multiset of `counts` in alphabetical order, so the signature grows exactly as
    /// `signature(of:)` would build it for the subset's sorted letters.
    private func collect(
        from counts: [UInt8], letter: Int, signature: inout UInt64, length: Int, minimumLength: Int,
        into found: inout [String]
    ) {
        guard letter < counts.count else {
            if length >= max(minimumLength, 1), let words = anagrams[signature] {
                found.append(contentsOf: words)
            }
            return
        }
        let saved = signature
        for copies in 0...Int(counts[letter]) {
            if copies > 0 {
                signature = signature << 5 | UInt64(letter + 1)
            }
            collect(from: counts, letter: letter + 1, signature: &signature, length: length + copies,
                    minimumLength: minimumLength, into: &found)
        }
        signature = saved
    }

    /// The anagram signature: the word's letters sorted, 5 bits each (a = 1 ... z = 26), so different multisets
    /// never collide and the length is implied.
    static func signature(of word: String) -> UInt64? {
        guard (1...maxIndexedLength).contains(word.utf8.count), let letters = LetterCounts(word) else { return nil }
        var signature: UInt64 = 0
        for (letter, count) in letters.counts.enumerated() where count > 0 {
            for _ in 0..<count {
                signature = signature << 5 | UInt64(letter + 1)
            }
        }
        return signature
    }
}
