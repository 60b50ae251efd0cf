extension ScrambleGame {
    /// Whether finding `word` added one to `totalWords`: a valid word the list does not show is counted only
    /// once found. For a caller that updates its copy of the view from the move instead of counting anew.
    public func addsToTotalWords(_ word: FoundWord) -> Bool {
        !lexicon.isShown(word.word)
    }
}
