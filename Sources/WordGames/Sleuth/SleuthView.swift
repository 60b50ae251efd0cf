/// What every member of a Sleuth room sees (`state.sleuth`): while a round runs, the marks of every try and never
/// their letters nor the secret; once it is over, everything.
public struct SleuthView: Equatable, Sendable {
    /// A try as every member sees it: its letters only once the round is over.
    public struct ShownTry: Equatable, Sendable {
        public var player: PlayerID
        public var pattern: String
        /// Nil while the round runs.
        public var word: String?
    }

    public var round: Int
    public var phase: SleuthGame.Phase
    public var statusLine: String
    public var roundEndsAt: Double?
    public var boards: [SleuthGame.Board]
    public var tries: [ShownTry]
    /// The secret, uppercase, once the round is over.
    public var secret: String?
    public var leaderboard: [SleuthStanding]
    /// Whether the host may start the next round now (not while one runs, not without players).
    public var canStartNext: Bool
    public var settings: SleuthSettings
    public var nextSettings: SleuthSettings
}

/// One player's own view of their round (their `private` object): their tries with their letters.
public struct SleuthPrivateView: Equatable, Sendable, Encodable {
    /// A try of theirs.
    public struct OwnTry: Equatable, Sendable, Encodable {
        public var word: String
        public var pattern: String
    }

    /// The round these tries belong to (0 in the lobby).
    public var round: Int
    /// Their tries this round, oldest first.
    public var tries: [OwnTry]
}

extension SleuthGame {
    /// What every member sees now.
    public var view: SleuthView {
        let over = phase == .over
        return SleuthView(
            round: roundNumber, phase: phase, statusLine: statusLine, roundEndsAt: roundEndsAt, boards: boards,
            tries: tries.map { SleuthView.ShownTry(player: $0.player, pattern: $0.pattern, word: over ? $0.word : nil) },
            secret: revealedSecret, leaderboard: leaderboard, canStartNext: phase != .playing && !players.isEmpty,
            settings: settings, nextSettings: nextSettings)
    }

    /// `player`'s own view: nil unless they are a player of the room now (not a spectator, not gone; a player
    /// who moved to the spectators keeps their tries in the round, but sees them as everyone does).
    public func ownView(for player: PlayerID) -> SleuthPrivateView? {
        guard players.contains(where: { $0.id == player }) else { return nil }
        let mine = tries.filter { $0.player == player }.map { SleuthPrivateView.OwnTry(word: $0.word, pattern: $0.pattern) }
        return SleuthPrivateView(round: roundNumber, tries: mine)
    }

    var statusLine: String {
        switch phase {
        case .lobby: "Waiting for the host to start the first round"
        case .playing: "Round \(roundNumber): find the \(Self.wordLength)-letter word in \(Self.maxTries) tries"
        case .over: "Round \(roundNumber) is over: the word was \(revealedSecret ?? "")"
        }
    }
}

/// `state.sleuth` on the wire (the game's protocol appendix, `PROTOCOL.md` in this folder).
extension SleuthView: Encodable {
    private enum CodingKeys: String, CodingKey {
        case round, phase, statusLine, wordLength, maxTries, roundEndsAt, boards, tries, secret, leaderboard
        case canStartNext, settings, nextSettings
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(round, forKey: .round)
        try container.encode(phase.rawValue, forKey: .phase)
        try container.encode(statusLine, forKey: .statusLine)
        try container.encode(SleuthGame.wordLength, forKey: .wordLength)
        try container.encode(SleuthGame.maxTries, forKey: .maxTries)
        try container.encode(roundEndsAt, forKey: .roundEndsAt)
        try container.encode(boards, forKey: .boards)
        try container.encode(tries, forKey: .tries)
        try container.encode(secret, forKey: .secret)
        try container.encode(leaderboard, forKey: .leaderboard)
        try container.encode(canStartNext, forKey: .canStartNext)
        try container.encode(settings, forKey: .settings)
        try container.encode(nextSettings, forKey: .nextSettings)
    }
}

extension SleuthView.ShownTry: Encodable {
    private enum CodingKeys: String, CodingKey { case player, pattern, word }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(player, forKey: .player)
        try container.encode(pattern, forKey: .pattern)
        try container.encode(word, forKey: .word)
    }
}
