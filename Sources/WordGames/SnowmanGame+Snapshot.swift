extension SnowmanGame {
    /// Everything that makes a game what it is, to save across a server restart. The word list is not part of it:
    /// it is supplied again on restore.
    public struct Snapshot: Codable, Sendable, Equatable {
        var settings: SnowmanSettings
        var nextSettings: SnowmanSettings
        var players: [Player]
        var gameNumber: Int
        var status: Status
        var guesses: [Guess]
        var wrongGuesses: Int
        var turn: PlayerID?
        var turnDeadline: Double?
        var scores: [PlayerID: Int]
        var solver: PlayerID?
        var history: [Record]
        var secret: String
        var revealed: [Bool]
        var participants: [Player]
        /// Absent in snapshots saved before rooms kept a leaderboard.
        var leaderboard: [Standing]?
    }

    public var snapshot: Snapshot {
        Snapshot(settings: settings, nextSettings: nextSettings, players: players, gameNumber: gameNumber,
                 status: status, guesses: guesses, wrongGuesses: wrongGuesses, turn: turn, turnDeadline: turnDeadline,
                 scores: scores, solver: solver, history: history, secret: String(secret), revealed: revealed,
                 participants: participants, leaderboard: leaderboard)
    }

    /// The game exactly as it was when `snapshot` was taken.
    ///
    /// - Throws: `SnapshotError` when the snapshot is inconsistent (a corrupted file must not make a broken game).
    public init(snapshot: Snapshot, words: WordList) throws(SnapshotError) {
        guard snapshot.secret.count == snapshot.revealed.count, !snapshot.secret.isEmpty,
              snapshot.secret.allSatisfy({ $0.isASCII && $0.isUppercase }),
              snapshot.wrongGuesses >= 0, snapshot.wrongGuesses <= snapshot.settings.maxWrongGuesses
        else { throw SnapshotError(game: "Snowman") }
        self.words = words
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
