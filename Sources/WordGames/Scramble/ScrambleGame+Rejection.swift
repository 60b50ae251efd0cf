extension ScrambleGame {
    /// Why a Scramble request was refused; the game is unchanged.
    public enum Rejection: GameRejection, Hashable {
        /// Code `round-not-running`: words are only accepted while a round runs (not in this phase).
        case roundNotRunning(Phase)
        /// Code `not-a-player`: a spectator or unknown id tried to submit.
        case notAPlayer
        /// Code `empty-word`: nothing but whitespace was typed. Carries the uppercase root.
        case emptyWord(root: String)
        /// Code `too-short`: the word has fewer than the room's minimum letters.
        case tooShort(word: String, minimum: Int)
        /// Code `root-word`: the root itself (uppercase here) does not count.
        case rootWord(root: String)
        /// Code `already-found`: someone found this word earlier in the round (`byYou` if the submitter did).
        case alreadyFound(word: String, by: String, byYou: Bool)
        /// Code `cannot-spell`: the word needs letters the root (uppercase here) does not have.
        case cannotSpell(word: String, root: String, problem: SpellingProblem)
        /// Code `not-a-word`: spellable, but not in the dictionary.
        case notAWord(String)
        /// Code `match-in-progress`: a new match can only start when none is running.
        case matchInProgress
        /// Code `no-players`: a match needs at least one player.
        case noPlayers
        /// Code `not-in-break`: Ready is only for the break between two rounds (not in this phase).
        case notInBreak(Phase)

        /// The first character of a word that the root cannot supply.
        public enum SpellingProblem: Hashable, Sendable {
            /// Not a letter a-z at all (a digit, an apostrophe, an accented letter...).
            case notALetter(String)
            /// An uppercase letter the root does not contain.
            case missingLetter(String)
            /// An uppercase letter used more often than the root has it.
            case tooMany(letter: String, available: Int)
        }

        public var code: String {
            switch self {
            case .roundNotRunning: "round-not-running"
            case .notAPlayer: "not-a-player"
            case .emptyWord: "empty-word"
            case .tooShort: "too-short"
            case .rootWord: "root-word"
            case .alreadyFound: "already-found"
            case .cannotSpell: "cannot-spell"
            case .notAWord: "not-a-word"
            case .matchInProgress: "match-in-progress"
            case .noPlayers: "no-players"
            case .notInBreak: "not-in-break"
            }
        }

        public var title: String {
            switch self {
            case .roundNotRunning: "No round running"
            case .notAPlayer: "Not a player"
            case .emptyWord: "Empty word"
            case .tooShort: "Too short"
            case .rootWord: "That's the root word"
            case .alreadyFound: "Already found"
            case .cannotSpell: "Not in the letters"
            case .notAWord: "Not a word"
            case .matchInProgress: "Match in progress"
            case .noPlayers: "No players"
            case .notInBreak: "Not between rounds"
            }
        }

        public var message: String {
            switch self {
            case .roundNotRunning(let phase):
                switch phase {
                case .lobby: return "The match hasn't started yet."
                case .intermission: return "This round is over; the next one starts in a few seconds."
                case .finished, .playing: return "The match is over. Wait for the host to start a new one."
                }
            case .notAPlayer:
                return "You are watching this game. Join as a player to submit words."
            case .emptyWord(let root):
                return "Type a word made from the letters of \(root)."
            case .tooShort(let word, let minimum):
                return "'\(word)' is too short: words need at least \(minimum) letters."
            case .rootWord(let root):
                return "\(root) is the root word itself. Find shorter words inside it."
            case .alreadyFound(let word, let name, let byYou):
                return byYou ? "You already found '\(word)'." : "'\(word)' was already found by \(name)."
            case .cannotSpell(let word, let root, let problem):
                let reason = switch problem {
                case .notALetter(let character): "'\(character)' is not a letter"
                case .missingLetter(let letter): "it has no \(letter)"
                case .tooMany(let letter, let available):
                    "it has \(Self.spelledOut(available)) \(letter)\(available == 1 ? "" : "s")"
                }
                return "You can't spell '\(word)' from \(root): \(reason)."
            case .notAWord(let word):
                return "'\(word)' isn't in the dictionary."
            case .matchInProgress:
                return "A new match can start once this one is over."
            case .noPlayers:
                return "Someone has to join as a player before the match can start."
            case .notInBreak(let phase):
                switch phase {
                case .playing: return "The round is still running. Press Ready in the break after it."
                case .lobby: return "The match hasn't started yet. Ready is for the breaks between rounds."
                case .intermission, .finished: return "The match is over. Ready is for the breaks between rounds."
                }
            }
        }

        /// "one" ... "eight" for the letter counts of a root; digits beyond.
        private static func spelledOut(_ count: Int) -> String {
            let names = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight"]
            return names.indices.contains(count) ? names[count] : String(count)
        }
    }
}
