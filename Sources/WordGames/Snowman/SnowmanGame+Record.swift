extension SnowmanGame {
    /// A finished game as kept in the room's history.
    /// Shown (`history`) and saved alike.
    public struct Record: Hashable, Sendable, Codable {
        /// The game's number in the room, from 1.
        public var gameNumber: Int
        /// The secret word, uppercase.
        public var word: String
        /// `.won` or `.lost`.
        public var result: Status
        /// Who completed the word, for a won game.
        public var solver: PlayerID?
        /// Wrong guesses made.
        public var wrongGuesses: Int
        /// The limit the game was played with.
        public var maxWrongGuesses: Int
        /// Everyone who played, best first, with their points for this game.
        public var scores: [ScoreLine]

        /// Creates a record.
        public init(
            gameNumber: Int, word: String, result: Status, solver: PlayerID?, wrongGuesses: Int,
            maxWrongGuesses: Int, scores: [ScoreLine]
        ) {
            self.gameNumber = gameNumber
            self.word = word
            self.result = result
            self.solver = solver
            self.wrongGuesses = wrongGuesses
            self.maxWrongGuesses = maxWrongGuesses
            self.scores = scores
        }
    }
}
