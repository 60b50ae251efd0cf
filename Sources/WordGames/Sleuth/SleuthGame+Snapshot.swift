extension SleuthGame {
    /// Everything that makes a Sleuth room's game what it is, the secret and every try's letters included, for the
    /// data directory. The dictionary and the secrets list are supplied again on restore.
    public struct Snapshot: Sendable, Equatable, Codable {
        public var settings: SleuthSettings
        public var nextSettings: SleuthSettings
        public var players: [Player]
        public var phase: Phase
        public var roundNumber: Int
        public var roundEndsAt: Double?
        public var secret: String?
        public var boards: [Board]
        public var tries: [Try]
        public var leaderboard: [SleuthStanding]
        public var usedSecrets: [String]
        public var resultNumber: Int
        public var resultText: String?
    }

    public var snapshot: Snapshot {
        Snapshot(settings: settings, nextSettings: nextSettings, players: players, phase: phase,
                 roundNumber: roundNumber, roundEndsAt: roundEndsAt, secret: secret, boards: boards, tries: tries,
                 leaderboard: leaderboard, usedSecrets: usedSecrets, resultNumber: resultNumber,
                 resultText: resultText)
    }

    /// The game exactly as it was when `snapshot` was taken.
    ///
    /// - Throws: `SnapshotError` when the snapshot does not hold together (a round without its secret or its
    ///   deadline, a try of the wrong length).
    public init(snapshot: Snapshot, lexicon: Lexicon, secrets: [String] = SleuthWords.secrets) throws(SnapshotError) {
        let length = Self.wordLength
        let secretOK = snapshot.phase == .lobby || snapshot.secret?.utf8.count == length
        let triesOK = snapshot.tries.allSatisfy { $0.word.utf8.count == length && $0.pattern.utf8.count == length }
        guard !secrets.isEmpty, secretOK, triesOK, snapshot.roundNumber >= 0,
              snapshot.phase != .playing || snapshot.roundEndsAt != nil else {
            throw SnapshotError(game: "Sleuth")
        }
        self.init(lexicon: lexicon, secrets: secrets, settings: snapshot.settings)
        nextSettings = snapshot.nextSettings
        players = snapshot.players
        phase = snapshot.phase
        roundNumber = snapshot.roundNumber
        roundEndsAt = snapshot.roundEndsAt
        secret = snapshot.secret
        boards = snapshot.boards
        tries = snapshot.tries
        leaderboard = snapshot.leaderboard
        usedSecrets = snapshot.usedSecrets
        resultNumber = snapshot.resultNumber
        resultText = snapshot.resultText
    }
}

/// Shown and saved alike; `done` is shown for the clients and follows from the rest when read back.
extension SleuthGame.Board: Codable {
    private enum CodingKeys: String, CodingKey { case player, name, tries, solved, done, points }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(player, forKey: .player)
        try container.encode(name, forKey: .name)
        try container.encode(tries, forKey: .tries)
        try container.encode(solved, forKey: .solved)
        try container.encode(done, forKey: .done)
        try container.encode(points, forKey: .points)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(player: try container.decode(PlayerID.self, forKey: .player),
                  name: try container.decode(String.self, forKey: .name),
                  tries: try container.decode(Int.self, forKey: .tries),
                  solved: try container.decode(Bool.self, forKey: .solved),
                  points: try container.decode(Int.self, forKey: .points))
    }
}
