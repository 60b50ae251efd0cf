extension SnowmanGame {
    /// The positions `guess` revealed, as `view.positions` now shows them: what a guess changes among the
    /// positions, for a caller that updates its copy of the view from the move instead of building it anew.
    /// Empty for a miss, and for a letter that was not guessed in this game (nothing to reveal).
    ///
    /// Public information: the letter was guessed, so its places are on show.
    public func positions(revealedBy guess: Guess) -> [SnowmanView.Position] {
        guard let letter = guess.letter.first, guesses.contains(where: { $0.letter == guess.letter }) else {
            return []
        }
        var positions: [SnowmanView.Position] = []
        for index in secret.indices where secret[index] == letter && revealed[index] {
            positions.append(SnowmanView.Position(id: index, letter: String(secret[index]),
                                                  isMissed: status == .lost && !revealed[index]))
        }
        return positions
    }
}
