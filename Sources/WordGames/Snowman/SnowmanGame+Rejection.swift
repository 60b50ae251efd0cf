extension SnowmanGame {
    /// Why a Snowman request was refused; the game is unchanged.
    public enum Rejection: GameRejection, Hashable {
        /// Code `game-not-started`: the room is waiting for the host to start its first game.
        case gameNotStarted
        /// Code `game-over`: the game is already won or lost.
        case gameOver(Status)
        /// Code `not-a-player`: a spectator or unknown id tried to guess.
        case notAPlayer
        /// Code `not-your-turn`: another player has the turn.
        case notYourTurn(current: Player)
        /// Code `not-a-letter`: the first character typed (empty if nothing was typed) is not a letter A-Z.
        case notALetter(String)
        /// Code `already-guessed`: this uppercase letter was guessed earlier in the game.
        case alreadyGuessed(String)
        /// Code `game-in-progress`: a new game can only start when the current one is over.
        case gameInProgress

        public var code: String {
            switch self {
            case .gameNotStarted: "game-not-started"
            case .gameOver: "game-over"
            case .notAPlayer: "not-a-player"
            case .notYourTurn: "not-your-turn"
            case .notALetter: "not-a-letter"
            case .alreadyGuessed: "already-guessed"
            case .gameInProgress: "game-in-progress"
            }
        }

        public var title: String {
            switch self {
            case .gameNotStarted: "Game not started"
            case .gameOver: "Game over"
            case .notAPlayer: "Not a player"
            case .notYourTurn: "Not your turn"
            case .notALetter: "Not a letter"
            case .alreadyGuessed: "Already guessed"
            case .gameInProgress: "Game in progress"
            }
        }

        public var message: String {
            switch self {
            case .gameNotStarted:
                return "The game has not started yet. The host starts it once everyone is here."
            case .gameOver(let status):
                let ending = status == .won ? "This word has been solved." : "The snowman has melted."
                return "\(ending) Start a new game to play again."
            case .notAPlayer:
                return "You are watching this game. Join as a player to guess letters."
            case .notYourTurn(let current):
                return "It's \(current.name)'s turn. Wait for yours."
            case .notALetter(let typed):
                return typed.isEmpty ? "Type a letter from A to Z." : "\"\(typed)\" is not a letter from A to Z."
            case .alreadyGuessed(let letter):
                return "\(letter) has already been guessed. Try another letter."
            case .gameInProgress:
                return "A new game can start once this one is won or lost."
            }
        }
    }
}
