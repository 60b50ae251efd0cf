/// Everything any player or spectator of a Snowman room may see: the value the rooms layer encodes to JSON and
/// diffs into patches.
///
/// It is built only from public information; the secret word appears (in `word` and in the positions) only once
/// the game is over.
public struct SnowmanView: Hashable, Sendable {
    /// One letter position of the secret word. Repeated letters are separate positions, each with its own `id`.
    public struct Position: Hashable, Sendable {
        /// The position in the word, from 0; stable for the whole game.
        public var id: Int
        /// The uppercase letter once revealed, else `nil`.
        public var letter: String?
        /// `true` for a letter nobody guessed, revealed because the game was lost (clients show it in red).
        public var isMissed: Bool

        /// Creates a position.
        public init(id: Int, letter: String?, isMissed: Bool) {
            self.id = id
            self.letter = letter
            self.isMissed = isMissed
        }
    }

    /// One player in the turn order: the line both games show; whose turn it is is `turn`.
    public typealias PlayerLine = WordGames.PlayerLine

    /// The settings as members see them: the host's own words only as their count.
    public struct Settings: Hashable, Sendable {
        /// As `SnowmanSettings.maxWrongGuesses`.
        public var maxWrongGuesses: Int
        /// As `SnowmanSettings.turnSeconds`.
        public var turnSeconds: Int?
        /// The pack's id.
        public var pack: String
        /// As `SnowmanSettings.wordSource`.
        public var wordSource: SnowmanSettings.WordSource
        /// How many words of their own the host gave (0 for none).
        public var customWords: Int

        /// What members may see of `settings`.
        public init(_ settings: SnowmanSettings) {
            maxWrongGuesses = settings.maxWrongGuesses
            turnSeconds = settings.turnSeconds
            pack = settings.pack
            wordSource = settings.wordSource
            customWords = settings.customWords?.count ?? 0
        }
    }

    /// The game's number in the room, from 1 (0 while waiting for the first).
    public var gameNumber: Int
    /// Waiting for the first game, in progress, won or lost.
    public var status: SnowmanGame.Status
    /// What to do next or how the game ended, e.g. "Alice's turn — guess a letter".
    public var statusLine: String
    /// The word's positions, revealed or not (none while waiting).
    public var positions: [Position]
    /// Accepted guesses in order.
    public var guesses: [SnowmanGame.Guess]
    /// Wrong guesses so far.
    public var wrongGuesses: Int
    /// Wrong guesses that lose this game.
    public var maxWrongGuesses: Int
    /// Current players in turn order.
    public var players: [PlayerLine]
    /// Whose turn it is while the game is in progress.
    public var turn: PlayerID?
    /// When the current turn is skipped (same clock as the `now` given to the game), or `nil` without a timer.
    public var turnDeadline: Double?
    /// The secret word, uppercase, only once the game is over.
    public var word: String?
    /// Whether a new game may be started now.
    public var canStartNextGame: Bool
    /// Settings of this game.
    public var settings: Settings
    /// Settings the next game will use.
    public var nextSettings: Settings
    /// Finished games, oldest first.
    public var history: [SnowmanGame.Record]
    /// Running totals over the room's finished games, best first.
    public var leaderboard: [SnowmanGame.Standing]
}

extension SnowmanGame {
    /// The public view of the room: safe to send to every player and spectator.
    public var view: SnowmanView {
        let positions = secret.indices.map { index in
            SnowmanView.Position(
                id: index,
                letter: revealed[index] || status == .lost ? String(secret[index]) : nil,
                isMissed: status == .lost && !revealed[index])
        }
        let activeTurn = status == .inProgress ? turn : nil
        return SnowmanView(
            gameNumber: gameNumber,
            status: status,
            statusLine: statusLine,
            positions: positions,
            guesses: guesses,
            wrongGuesses: wrongGuesses,
            maxWrongGuesses: settings.maxWrongGuesses,
            players: players.map { PlayerLine(id: $0.id, name: $0.name, score: scores[$0.id, default: 0]) },
            turn: activeTurn,
            turnDeadline: turnDeadline,
            word: isOver ? String(secret) : nil,
            canStartNextGame: canStartNextGame,
            settings: SnowmanView.Settings(settings),
            nextSettings: SnowmanView.Settings(nextSettings),
            history: history,
            leaderboard: leaderboard)
    }

    /// Tells players what to do next or how the game ended.
    public var statusLine: String {
        switch status {
        case .waiting:
            return players.isEmpty ? "Waiting for players to join" : "Waiting for the host to start the game"
        case .inProgress:
            guard let current = currentPlayer else { return "Waiting for players to join" }
            return "\(current.name)'s turn — guess a letter"
        case .won:
            let name = participants.first { $0.id == solver }?.name ?? "a player"
            return "Solved by \(name)! The word was \(String(secret))"
        case .lost:
            return "The snowman melted. The word was \(String(secret))"
        }
    }

    /// How the game ended, for the room's chat: "Ana solved SNOWBALL" or "The snowman melted — the word was
    /// SNOWBALL"; nil unless the game is over.
    public var resultLine: String? {
        switch status {
        case .waiting, .inProgress:
            return nil
        case .won:
            let name = participants.first { $0.id == solver }?.name ?? "A player"
            return "\(name) solved \(String(secret))"
        case .lost:
            return "The snowman melted — the word was \(String(secret))"
        }
    }
}
