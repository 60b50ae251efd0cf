extension ScrambleGame {
    /// Everything that makes a match what it is, to save across a server restart. The dictionary and root pool
    /// are not part of it: they are supplied again on restore.
    public struct Snapshot: Codable, Sendable, Equatable {
        var settings: ScrambleSettings
        var nextSettings: ScrambleSettings
        var players: [Player]
        var phase: Phase
        var matchNumber: Int
        var roundNumber: Int
        var root: String?
        var found: [FoundWord]
        var phaseEndsAt: Double?
        var completedRounds: [RoundSummary]
        var scores: [PlayerID: Int]
        var finalScoreboard: [ScoreLine]?
        var solutions: [String]
        var matchRoots: [String]
        var participants: [Player]
    }

    public var snapshot: Snapshot {
        Snapshot(settings: settings, nextSettings: nextSettings, players: players, phase: phase,
                 matchNumber: matchNumber, roundNumber: roundNumber, root: root, found: found,
                 phaseEndsAt: phaseEndsAt, completedRounds: completedRounds, scores: scores,
                 finalScoreboard: finalScoreboard, solutions: solutions, matchRoots: matchRoots,
                 participants: participants)
    }

    /// The match exactly as it was when `snapshot` was taken.
    ///
    /// - Throws: `SnapshotError` when the snapshot is inconsistent.
    public init(snapshot: Snapshot, lexicon: Lexicon, roots: [String]) throws(SnapshotError) {
        guard !roots.isEmpty, snapshot.roundNumber >= 0, snapshot.phase != .playing || snapshot.root != nil else {
            throw SnapshotError(game: "Word Scramble")
        }
        self.lexicon = lexicon
        self.rootPool = roots
        self.settings = snapshot.settings
        self.nextSettings = snapshot.nextSettings
        self.players = snapshot.players
        self.phase = snapshot.phase
        self.matchNumber = snapshot.matchNumber
        self.roundNumber = snapshot.roundNumber
        self.root = snapshot.root
        self.found = snapshot.found
        self.phaseEndsAt = snapshot.phaseEndsAt
        self.completedRounds = snapshot.completedRounds
        self.scores = snapshot.scores
        self.finalScoreboard = snapshot.finalScoreboard
        // A snapshot saved before a word became unshown may still list it.
        self.solutions = snapshot.solutions.filter { lexicon.isShown($0) }
        self.matchRoots = snapshot.matchRoots
        self.participants = snapshot.participants
    }
}
