extension ScrambleGame.Phase: Codable {}

/// The data directory's form of a Word Scramble match. The keys are those every earlier version wrote, so that
/// one reader serves them all: snapshots from before Ready and result notices lack those keys, rounds saved
/// before older rounds let their words go lack `foundCount`, and older journals saved the scores as pairs.
extension ScrambleGame.Snapshot: Codable {
    private enum CodingKeys: String, CodingKey {
        case settings, nextSettings, players, phase, matchNumber, roundNumber, root, found, phaseEndsAt
        case completedRounds, scores, finalScoreboard, solutions, matchRoots, participants, ready, resultNumber
        case resultText
    }

    /// A finished round as saved.
    private struct SavedRound: Codable {
        var number: Int
        var root: String
        var totalWords: Int
        var found: [ScrambleGame.FoundWord]
        var foundCount: Int?
        var missed: [String]

        init(_ summary: ScrambleGame.RoundSummary) {
            number = summary.number
            root = summary.root
            totalWords = summary.totalWords
            found = summary.found
            foundCount = summary.foundCount
            missed = summary.missed
        }

        var summary: ScrambleGame.RoundSummary {
            ScrambleGame.RoundSummary(number: number, root: root, totalWords: totalWords, found: found,
                                      foundCount: foundCount, missed: missed)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(settings, forKey: .settings)
        try container.encode(nextSettings, forKey: .nextSettings)
        try container.encode(players, forKey: .players)
        try container.encode(phase, forKey: .phase)
        try container.encode(matchNumber, forKey: .matchNumber)
        try container.encode(roundNumber, forKey: .roundNumber)
        try container.encode(root, forKey: .root)
        try container.encode(found, forKey: .found)
        try container.encode(phaseEndsAt, forKey: .phaseEndsAt)
        try container.encode(completedRounds.map(SavedRound.init), forKey: .completedRounds)
        try container.encode(SavedScores(scores), forKey: .scores)
        try container.encode(finalScoreboard, forKey: .finalScoreboard)
        try container.encode(solutions, forKey: .solutions)
        try container.encode(matchRoots, forKey: .matchRoots)
        try container.encode(participants, forKey: .participants)
        try container.encode(ready, forKey: .ready)
        try container.encode(resultNumber, forKey: .resultNumber)
        try container.encode(resultText, forKey: .resultText)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            settings: try container.decode(ScrambleSettings.self, forKey: .settings),
            nextSettings: try container.decode(ScrambleSettings.self, forKey: .nextSettings),
            players: try container.decode([Player].self, forKey: .players),
            phase: try container.decode(ScrambleGame.Phase.self, forKey: .phase),
            matchNumber: try container.decode(Int.self, forKey: .matchNumber),
            roundNumber: try container.decode(Int.self, forKey: .roundNumber),
            root: try container.decodeIfPresent(String.self, forKey: .root),
            found: try container.decode([ScrambleGame.FoundWord].self, forKey: .found),
            phaseEndsAt: try container.decodeIfPresent(Double.self, forKey: .phaseEndsAt),
            completedRounds: try container.decode([SavedRound].self, forKey: .completedRounds).map(\.summary),
            scores: try container.decode(SavedScores.self, forKey: .scores).scores,
            finalScoreboard: try container.decodeIfPresent([ScoreLine].self, forKey: .finalScoreboard),
            solutions: try container.decode([String].self, forKey: .solutions),
            matchRoots: try container.decode([String].self, forKey: .matchRoots),
            participants: try container.decode([Player].self, forKey: .participants),
            ready: try container.decodeIfPresent([PlayerID].self, forKey: .ready) ?? [],
            resultNumber: try container.decodeIfPresent(Int.self, forKey: .resultNumber) ?? 0,
            resultText: try container.decodeIfPresent(String.self, forKey: .resultText))
    }
}
