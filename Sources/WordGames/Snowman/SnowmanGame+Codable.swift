extension SnowmanGame.Status: Codable {}

/// The data directory's form of a Snowman game. The keys are those every earlier version wrote, so that one
/// reader serves them all: snapshots from before packs, custom words or the leaderboard lack those keys, and
/// older journals saved the scores as pairs of ids and points.
extension SnowmanGame.Snapshot: Codable {
    private enum CodingKeys: String, CodingKey {
        case settings, nextSettings, players, gameNumber, status, guesses, wrongGuesses, turn, turnDeadline, scores
        case solver, history, secret, revealed, participants, leaderboard
    }

    /// A guess as saved: what it revealed and its bonus (the points follow).
    private struct SavedGuess: Codable {
        var letter: String
        var player: PlayerID
        var revealedPositions: Int
        var bonus: Int
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(SavedSettings(settings), forKey: .settings)
        try container.encode(SavedSettings(nextSettings), forKey: .nextSettings)
        try container.encode(players, forKey: .players)
        try container.encode(gameNumber, forKey: .gameNumber)
        try container.encode(status, forKey: .status)
        try container.encode(guesses.map {
            SavedGuess(letter: $0.letter, player: $0.player, revealedPositions: $0.revealedPositions, bonus: $0.bonus)
        }, forKey: .guesses)
        try container.encode(wrongGuesses, forKey: .wrongGuesses)
        try container.encode(turn, forKey: .turn)
        try container.encode(turnDeadline, forKey: .turnDeadline)
        try container.encode(SavedScores(scores), forKey: .scores)
        try container.encode(solver, forKey: .solver)
        try container.encode(history, forKey: .history)
        try container.encode(secret, forKey: .secret)
        try container.encode(revealed, forKey: .revealed)
        try container.encode(participants, forKey: .participants)
        try container.encode(leaderboard ?? [], forKey: .leaderboard)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            settings: try container.decode(SavedSettings.self, forKey: .settings).settings,
            nextSettings: try container.decode(SavedSettings.self, forKey: .nextSettings).settings,
            players: try container.decode([Player].self, forKey: .players),
            gameNumber: try container.decode(Int.self, forKey: .gameNumber),
            status: try container.decode(SnowmanGame.Status.self, forKey: .status),
            guesses: try container.decode([SavedGuess].self, forKey: .guesses).map {
                SnowmanGame.Guess(letter: $0.letter, player: $0.player, revealedPositions: $0.revealedPositions,
                                  bonus: $0.bonus)
            },
            wrongGuesses: try container.decode(Int.self, forKey: .wrongGuesses),
            turn: try container.decodeIfPresent(PlayerID.self, forKey: .turn),
            turnDeadline: try container.decodeIfPresent(Double.self, forKey: .turnDeadline),
            scores: try container.decode(SavedScores.self, forKey: .scores).scores,
            solver: try container.decodeIfPresent(PlayerID.self, forKey: .solver),
            history: try container.decode([SnowmanGame.Record].self, forKey: .history),
            secret: try container.decode(String.self, forKey: .secret),
            revealed: try container.decode([Bool].self, forKey: .revealed),
            participants: try container.decode([Player].self, forKey: .participants),
            leaderboard: try container.decodeIfPresent([SnowmanGame.Standing].self, forKey: .leaderboard))
    }

    /// Settings as saved: with the host's own words (left out when there are none), checked again on reading.
    private struct SavedSettings: Codable {
        var settings: SnowmanSettings

        init(_ settings: SnowmanSettings) {
            self.settings = settings
        }

        private enum CodingKeys: String, CodingKey { case maxWrongGuesses, turnSeconds, pack, wordSource, customWords }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(settings.maxWrongGuesses, forKey: .maxWrongGuesses)
            try container.encode(settings.turnSeconds, forKey: .turnSeconds)
            try container.encode(settings.pack, forKey: .pack)
            try container.encode(settings.wordSource.rawValue, forKey: .wordSource)
            if let words = settings.customWords?.words { try container.encode(words, forKey: .customWords) }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let source = try container.decodeIfPresent(String.self, forKey: .wordSource)
                ?? SnowmanSettings.WordSource.pack.rawValue
            guard let wordSource = SnowmanSettings.WordSource(rawValue: source) else {
                throw DecodingError.dataCorruptedError(forKey: .wordSource, in: container,
                                                       debugDescription: "unknown word source \"\(source.prefix(16))\"")
            }
            settings = try SnowmanSettings(
                maxWrongGuesses: try container.decodeIfPresent(Int.self, forKey: .maxWrongGuesses)
                    ?? SnowmanSettings.defaultMaxWrongGuesses,
                turnSeconds: try container.decodeIfPresent(Int.self, forKey: .turnSeconds),
                pack: try container.decodeIfPresent(String.self, forKey: .pack) ?? WordPack.generalID,
                wordSource: wordSource,
                customWords: try container.decodeIfPresent([String].self, forKey: .customWords)
                    .map(CustomWordList.init(saved:)))
        }
    }
}
