/// A Word Scramble bot's words for the current root: the dictionary words spelled from it in the bot's own
/// random order (so bots of a room rarely race for the same word), and made-up non-words for `--invalid-share`.
struct ScrambleWordSource: Sendable {
    /// The root these words are for, lowercase; empty before the first round.
    private(set) var root = ""
    private var words: [String] = []
    private var position = 0
    /// Words found in this round so far, as far as `noteFound` has been told.
    private(set) var found = Set<String>()
    /// How many entries of the room's found list (newest first) `found` holds: only newer ones are read.
    private(set) var foundCount = 0

    /// Takes the words of a new root.
    ///
    /// - Parameters:
    ///   - root: The round's root, lowercase.
    ///   - words: Dictionary words spelled from it (the root itself is left out: the game refuses it).
    mutating func start(root: String, words: [String], using random: inout SplitMix64) {
        self.root = root
        self.words = words.filter { $0 != root }
        self.words.shuffle(using: &random)
        position = 0
        found.removeAll(keepingCapacity: true)
        foundCount = 0
    }

    /// Takes note of the round's found words. The list only grows during a round, newest first, so only its
    /// first `count - foundCount` entries are new; a shorter list (a new round) is read afresh.
    ///
    /// - Parameters:
    ///   - count: The length of the room's found list.
    ///   - word: The word of entry `index` of the list, lowercase.
    mutating func noteFound(count: Int, word: (Int) -> String?) {
        if count < foundCount {
            found.removeAll(keepingCapacity: true)
            foundCount = 0
        }
        for index in 0..<(count - foundCount) {
            if let entry = word(index) { found.insert(entry) }
        }
        foundCount = count
    }

    /// The next of the bot's words that nobody has found yet (see `noteFound`).
    ///
    /// - Returns: A word, or nil when every word is found.
    mutating func nextWord() -> String? {
        while position < words.count {
            let word = words[position]
            position += 1
            if !found.contains(word) { return word }
        }
        return nil
    }

    /// A string spelled from the root's letters that is not in the dictionary: the game answers `not-a-word`.
    ///
    /// - Parameters:
    ///   - minimumLength: The room's shortest accepted length (shorter would be `too-short` instead).
    ///   - lexicon: The dictionary the server checks against (the same bundled list).
    /// - Returns: A non-word, or nil if ten tries all made words (never seen with the bundled roots).
    func invalidWord(minimumLength: Int, lexicon: Lexicon, using random: inout SplitMix64) -> String? {
        let letters = Array(root)
        guard letters.count >= minimumLength else { return nil }
        for _ in 0..<10 {
            let length = Int.random(in: minimumLength...min(letters.count, max(minimumLength, 6)), using: &random)
            let candidate = String(letters.shuffled(using: &random).prefix(length))
            if candidate != root && !lexicon.contains(candidate) { return candidate }
        }
        return nil
    }
}
