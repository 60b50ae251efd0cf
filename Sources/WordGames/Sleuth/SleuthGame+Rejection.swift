extension SleuthGame {
    /// Why a Sleuth try or new round was refused; the game is unchanged.
    public enum Rejection: GameRejection, Hashable {
        /// Code `round-not-running`: tries are accepted only while a round runs (not in this phase).
        case roundNotRunning(Phase)
        /// Code `not-a-player`: the sender does not play this round.
        case notAPlayer
        /// Code `already-solved`: the sender found the word already.
        case alreadySolved
        /// Code `out-of-tries`: the sender used their six tries.
        case outOfTries
        /// Code `wrong-length`: the word (lowercased) does not have five letters.
        case wrongLength(String)
        /// Code `not-letters`: the word has something other than the letters a-z.
        case notLetters(String)
        /// Code `not-a-word`: five letters, but not in the dictionary.
        case notAWord(String)
        /// Code `already-tried`: the sender tried this word this round.
        case alreadyTried(String)
        /// Code `round-in-progress`: the next round starts once this one is over.
        case roundInProgress
        /// Code `no-players`: a round needs at least one player.
        case noPlayers

        public var code: String {
            switch self {
            case .roundNotRunning: "round-not-running"
            case .notAPlayer: "not-a-player"
            case .alreadySolved: "already-solved"
            case .outOfTries: "out-of-tries"
            case .wrongLength: "wrong-length"
            case .notLetters: "not-letters"
            case .notAWord: "not-a-word"
            case .alreadyTried: "already-tried"
            case .roundInProgress: "round-in-progress"
            case .noPlayers: "no-players"
            }
        }

        public var title: String {
            switch self {
            case .roundNotRunning: "No round running"
            case .notAPlayer: "Not a player"
            case .alreadySolved: "Already solved"
            case .outOfTries: "No tries left"
            case .wrongLength: "Five letters"
            case .notLetters: "Letters only"
            case .notAWord: "Not a word"
            case .alreadyTried: "Already tried"
            case .roundInProgress: "Round in progress"
            case .noPlayers: "No players"
            }
        }

        public var message: String {
            switch self {
            case .roundNotRunning(let phase):
                phase == .lobby ? "The first round hasn't started yet."
                    : "This round is over. Wait for the host to start the next one."
            case .notAPlayer: "You are not playing this round. Join as a player to try words."
            case .alreadySolved: "You found the word already. Watch the others finish."
            case .outOfTries: "You used your \(SleuthGame.maxTries) tries. The word is shown when the round ends."
            case .wrongLength(let word):
                word.isEmpty ? "Type a word of \(SleuthGame.wordLength) letters."
                    : "'\(word)' has \(word.count) letter\(word.count == 1 ? "" : "s"): tries have \(SleuthGame.wordLength)."
            case .notLetters(let word): "'\(word)' has something other than the letters A to Z."
            case .notAWord(let word): "'\(word)' isn't in the dictionary."
            case .alreadyTried(let word): "You tried '\(word)' already this round."
            case .roundInProgress: "The next round can start once this one is over."
            case .noPlayers: "Someone has to join as a player before a round can start."
            }
        }
    }
}
