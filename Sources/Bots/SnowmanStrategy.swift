/// How Snowman bots choose letters: the most frequent letter of English text not yet guessed.
enum SnowmanStrategy {
    /// Letters of English text from most to least frequent.
    static let frequencyOrder = Array("etaoinshrdlcumwfgypbvkjxqz")

    /// The letter to guess next.
    ///
    /// - Parameter guessed: Letters guessed so far in this game, either case.
    /// - Returns: A lowercase letter, or nil when all 26 have been guessed.
    static func nextLetter(guessed: some Sequence<Character>) -> Character? {
        var seen = Set<Character>()
        for letter in guessed {
            seen.insert(Character(letter.lowercased()))
        }
        return frequencyOrder.first { !seen.contains($0) }
    }
}
