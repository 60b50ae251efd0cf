/// What a try tells about one of its letters, as Sleuth answers it.
public enum SleuthMark: Character, Sendable, Hashable, CaseIterable {
    /// The secret has this letter at this place.
    case right = "r"
    /// The secret has this letter elsewhere (counted: see `SleuthMark.pattern(of:against:)`).
    case present = "p"
    /// The secret has no more of this letter.
    case absent = "a"

    /// The marks of `word` against `secret`, one per letter, as a pattern string such as `"rpaar"`.
    ///
    /// Repeated letters are counted as in Wordle: first every letter at its right place is marked `right`; then,
    /// left to right, a letter is `present` only while the secret still has copies of it that no `right` or
    /// earlier `present` mark used up, and `absent` after that. SPEED against ABIDE is `aapap`: ABIDE's one E
    /// makes SPEED's first E `present` and leaves its second `absent`.
    ///
    /// - Parameters:
    ///   - word: Lowercase letters a-z.
    ///   - secret: Lowercase letters a-z, as many as `word`.
    public static func pattern(of word: String, against secret: String) -> String {
        let guess = Array(word.utf8)
        let hidden = Array(secret.utf8)
        precondition(guess.count == hidden.count, "a try and the secret have the same length")
        var marks = [SleuthMark](repeating: .absent, count: guess.count)
        // Copies of each letter the secret still has to give once the right places took theirs.
        var spare = [Int](repeating: 0, count: 256)
        for index in guess.indices {
            if guess[index] == hidden[index] {
                marks[index] = .right
            } else {
                spare[Int(hidden[index])] += 1
            }
        }
        for index in guess.indices where marks[index] != .right && spare[Int(guess[index])] > 0 {
            marks[index] = .present
            spare[Int(guess[index])] -= 1
        }
        return String(marks.map(\.rawValue))
    }

    /// The pattern of a solved try: every letter in its right place.
    public static func solved(length: Int) -> String {
        String(repeating: SleuthMark.right.rawValue, count: length)
    }
}
