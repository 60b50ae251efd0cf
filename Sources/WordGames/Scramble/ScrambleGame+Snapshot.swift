extension ScrambleGame {
    /// Everything that makes a match what it is, to save across a server restart (the rooms layer writes it as
    /// JSON). The dictionary and root pool are not part of it: they are supplied again on restore.
    /// Only this module builds one (from a game, or from its saved form), with the memberwise initializer.
    public struct Snapshot: Sendable, Equatable {
        public var settings: ScrambleSettings
        public var nextSettings: ScrambleSettings
        public var players: [Player]
        public var phase: Phase
        public var matchNumber: Int
        public var roundNumber: Int
        public var root: String?
        public var found: [FoundWord]
        public var phaseEndsAt: Double?
        public var completedRounds: [RoundSummary]
        public var scores: [PlayerID: Int]
        public var finalScoreboard: [ScoreLine]?
        public var solutions: [String]
        public var matchRoots: [String]
        public var participants: [Player]
        /// Who pressed Ready this intermission; empty in snapshots saved before Ready existed.
        public var ready: [PlayerID]
        /// `ScrambleGame.resultNumber` and `resultText`; 0 and nil in snapshots saved before results.
        public var resultNumber: Int
        public var resultText: String?
    }

    public var snapshot: Snapshot {
        Snapshot(settings: settings, nextSettings: nextSettings, players: players, phase: phase,
                 matchNumber: matchNumber, roundNumber: roundNumber, root: root, found: found,
                 phaseEndsAt: phaseEndsAt, completedRounds: completedRounds, scores: scores,
                 finalScoreboard: finalScoreboard, solutions: solutions, matchRoots: matchRoots,
                 participants: participants, ready: ready, resultNumber: resultNumber, resultText: resultText)
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
        self.unshownFound = snapshot.found.count(where: { !lexicon.isShown($0.word) })
        self.roundStatusLine = Self.roundStatusLine(round: snapshot.roundNumber, of: snapshot.settings.rounds,
                                                    minWordLength: snapshot.settings.minWordLength, root: snapshot.root)
        self.phaseEndsAt = snapshot.phaseEndsAt
        self.completedRounds = snapshot.completedRounds
        self.scores = snapshot.scores
        self.finalScoreboard = snapshot.finalScoreboard
        // A snapshot saved before a word became unshown may still list it.
        self.solutions = snapshot.solutions.filter { lexicon.isShown($0) }
        self.matchRoots = snapshot.matchRoots
        self.participants = snapshot.participants
        // Only an intermission has a Ready list.
        self.ready = snapshot.phase == .intermission ? snapshot.ready : []
        self.resultNumber = snapshot.resultNumber
        self.resultText = snapshot.resultText
    }
}
