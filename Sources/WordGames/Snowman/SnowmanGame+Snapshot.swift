extension SnowmanGame {
    /// Everything that makes a game what it is, to save across a server restart (the rooms layer writes it as
    /// JSON). The word list is not part of it: it is supplied again on restore.
    /// Only this module builds one (from a game, or from its saved form), with the memberwise initializer.
    public struct Snapshot: Sendable, Equatable {
        public var settings: SnowmanSettings
        public var nextSettings: SnowmanSettings
        public var players: [Player]
        public var gameNumber: Int
        public var status: Status
        public var guesses: [Guess]
        public var wrongGuesses: Int
        public var turn: PlayerID?
        public var turnDeadline: Double?
        public var scores: [PlayerID: Int]
        public var solver: PlayerID?
        public var history: [Record]
        public var secret: String
        public var revealed: [Bool]
        public var participants: [Player]
        /// Absent in snapshots saved before rooms kept a leaderboard.
        public var leaderboard: [Standing]?
    }

    public var snapshot: Snapshot {
        Snapshot(settings: settings, nextSettings: nextSettings, players: players, gameNumber: gameNumber,
                 status: status, guesses: guesses, wrongGuesses: wrongGuesses, turn: turn, turnDeadline: turnDeadline,
                 scores: scores, solver: solver, history: history, secret: String(secret), revealed: revealed,
                 participants: participants, leaderboard: leaderboard)
    }

    /// The game exactly as it was when `snapshot` was taken.
    ///
    /// - Parameters:
    ///   - snapshot: The saved game.
    ///   - words: The general secrets, its only pack.
    /// - Throws: `SnapshotError` when the snapshot is inconsistent (a corrupted file must not make a broken game).
    public init(snapshot: Snapshot, words: WordList) throws(SnapshotError) {
        try self.init(snapshot: snapshot, packs: [.general(words)])
    }

    /// The game exactly as it was when `snapshot` was taken.
    ///
    /// - Parameters:
    ///   - snapshot: The saved game.
    ///   - packs: The packs to draw later secrets from (not empty), as given when the game was made.
    /// - Throws: `SnapshotError` when the snapshot is inconsistent (a corrupted file must not make a broken game).
    public init(snapshot: Snapshot, packs: [WordPack]) throws(SnapshotError) {
        // A table waiting for its first game has no secret yet; every other has one.
        let waiting = snapshot.status == .waiting
        guard !packs.isEmpty, snapshot.secret.count == snapshot.revealed.count,
              snapshot.secret.isEmpty == waiting, !waiting || snapshot.guesses.isEmpty,
              snapshot.secret.allSatisfy({ $0.isASCII && $0.isUppercase }),
              snapshot.wrongGuesses >= 0, snapshot.wrongGuesses <= snapshot.settings.maxWrongGuesses
        else { throw SnapshotError(game: "Snowman") }
        self.packs = packs
        self.settings = snapshot.settings
        self.nextSettings = snapshot.nextSettings
        self.players = snapshot.players
        self.gameNumber = snapshot.gameNumber
        self.status = snapshot.status
        self.guesses = snapshot.guesses
        self.wrongGuesses = snapshot.wrongGuesses
        self.turn = snapshot.turn
        self.turnDeadline = snapshot.turnDeadline
        self.scores = snapshot.scores
        self.solver = snapshot.solver
        self.history = snapshot.history
        self.secret = Array(snapshot.secret)
        self.revealed = snapshot.revealed
        self.participants = snapshot.participants
        self.leaderboard = snapshot.leaderboard ?? []
    }
}

/// A saved game that does not hold together.
public struct SnapshotError: Error, Sendable, CustomStringConvertible {
    public let game: String

    public var description: String { "the saved \(game) game is inconsistent" }
}
