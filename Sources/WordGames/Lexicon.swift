/// The dictionary that Word Scramble checks words against, indexed so that no request scans it.
///
/// Words are grouped by their letter multiset (their anagram class). Checking a word is one hash lookup of its
/// letters plus a comparison with its few anagrams. Finding every word that can be spelled from a root walks the
/// root's letter sub-multisets, one lookup each: at most 2^n for n letters (256 for an eight-letter root), whatever
/// the dictionary's size.
///
/// Some words can be marked `unshown`: the lexicon accepts them like any other, but `isShown(_:)` tells the games
/// never to list them (Word Scramble leaves them out of a round's missed words).
public struct Lexicon: Sendable {
    /// Longest root `words(spelledFrom:minimumLength:)` accepts, bounding its work to 2^12 lookups.
    public static let maxRootLength = 12

    private let anagrams: [LetterCounts: [String]]

    /// Number of distinct words in the lexicon.
    public let count: Int

    /// Words of the lexicon that are accepted when a player types them but never listed to the room (the bundled
    /// `unshown.txt`: crude, violent or grim words); see `isShown(_:)`.
    public let unshown: Set<String>

    /// Builds the lexicon and its index.
    ///
    /// - Parameters:
    ///   - words: Lowercase words a-z; anything else (capitals, apostrophes, an empty string) is ignored, since
    ///     no player's lowercased letters could match it. Duplicates count once.
    ///   - unshown: Words to accept but never show (`isShown(_:)` is `false` for them); those not in `words` are
    ///     ignored.
    public init(words: some Sequence<String>, unshown: some Sequence<String> = [String]()) {
        var anagrams: [LetterCounts: [String]] = [:]
        // Most anagram classes hold one word: sized for all of them, the index is never rehashed as it grows.
        anagrams.reserveCapacity(words.underestimatedCount)
        var count = 0
        for word in words {
            guard !word.isEmpty, let letters = LetterCounts(word) else { continue }
            if let group = anagrams[letters], group.contains(word) { continue }
            anagrams[letters, default: []].append(word)
            count += 1
        }
        self.anagrams = anagrams
        self.count = count
        var hidden = Set<String>()
        for word in unshown {
            guard let letters = LetterCounts(word), anagrams[letters]?.contains(word) == true else { continue }
            hidden.insert(word)
        }
        self.unshown = hidden
    }

    /// Whether `word` (lowercase) is in the lexicon.
    ///
    /// - Parameter word: A lowercase word.
    /// - Returns: `true` for a dictionary word.
    public func contains(_ word: String) -> Bool {
        guard let letters = LetterCounts(word) else { return false }
        return anagrams[letters]?.contains(word) ?? false
    }

    /// Whether `word` may be listed to a room, e.g. among a round's missed words: `false` for the lexicon's
    /// `unshown` words, which are still accepted (`contains(_:)` is unaffected).
    ///
    /// - Parameter word: A lowercase word.
    /// - Returns: `true` unless the word is one of `unshown`.
    public func isShown(_ word: String) -> Bool {
        unshown.isEmpty || !unshown.contains(word)
    }

    /// Every lexicon word that can be spelled from the letters of `root`, each letter used at most as often as it
    /// occurs in `root`.
    ///
    /// - Parameters:
    ///   - root: Lowercase letters a-z, at most `maxRootLength` of them.
    ///   - minimumLength: Shorter words are left out.
    /// - Returns: The words, sorted by length (longest first) then alphabetically; includes `root` itself and its
    ///   anagrams when they are words. Empty if `root` is not lowercase a-z or is too long.
    public func words(spelledFrom root: String, minimumLength: Int = 1) -> [String] {
        guard root.utf8.count <= Self.maxRootLength, let letters = LetterCounts(root) else { return [] }
        let present = (0..<26).filter { letters.count(of: $0) > 0 }.map { (letter: $0, count: letters.count(of: $0)) }
        var found: [String] = []
        collect(from: present[...], subset: LetterCounts(), length: 0, minimumLength: max(minimumLength, 1),
                into: &found)
        // Lexicon words are lowercase ASCII: their byte length is their length, and byte order is String's order.
        // `String.count` and `<` go through grapheme breaking and Unicode ordering, and sorting the hundred words
        // of a root that way was most of a round's start (about a million instructions).
        return found.sorted {
            let (left, right) = ($0.utf8.count, $1.utf8.count)
            return left != right ? left > right : $0.utf8.lexicographicallyPrecedes($1.utf8)
        }
    }

    /// Visits every sub-multiset of the root's letters, choosing 0 to n copies of each distinct letter in turn.
    private func collect(
        from letters: ArraySlice<(letter: Int, count: Int)>, subset: LetterCounts, length: Int, minimumLength: Int,
        into found: inout [String]
    ) {
        guard let (letter, count) = letters.first else {
            if length >= minimumLength, let words = anagrams[subset] {
                found.append(contentsOf: words)
            }
            return
        }
        var subset = subset
        for copies in 0...count {
            if copies > 0 {
                subset.add(letter)
            }
            collect(from: letters.dropFirst(), subset: subset, length: length + copies, minimumLength: minimumLength,
                    into: &found)
        }
    }
}
