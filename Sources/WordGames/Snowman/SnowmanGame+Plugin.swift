/// Snowman as a rooms plug-in: `{"type":"guess","letter":"e"}` moves, `state.snowman` as `SnowmanView` shows it.
extension SnowmanGame: GamePlugin {
    /// A guess: `{"type":"guess","letter":"e"}`.
    public struct Move: Codable, Sendable, Hashable {
        /// The letter as typed; the rules check it is one letter not guessed yet.
        public var letter: String

        public init(letter: String) {
            self.letter = letter
        }

        private enum CodingKeys: String, CodingKey { case type, letter }

        public init(from decoder: any Decoder) throws {
            letter = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .letter)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode("guess", forKey: .type)
            try container.encode(letter, forKey: .letter)
        }
    }

    public static var id: String { "snowman" }
    public static var title: String { "Snowman" }
    public static var moveTypes: [MoveType] { [MoveType("guess", doing: "Guessing letters")] }
    public static var settingSpecs: [SettingSpec] { SnowmanSettings.specs }

    /// A new table with the creator's settings; `waitForHost` opens it waiting for the host's `new_game`.
    public init(settings change: SnowmanSettings.Change?, lists: WordLists, now: Double,
                using random: inout SplitMix64) throws {
        let settings = try change.map { try SnowmanSettings.newRoom.applying($0, packs: lists.packs) } ?? .newRoom
        self.init(packs: lists.packs, settings: settings, waitForHost: try change?.waitsForHost ?? false, now: now,
                  using: &random)
    }

    public init(snapshot: Snapshot, lists: WordLists) throws {
        try self.init(snapshot: snapshot, packs: lists.packs)
    }

    public var publicView: SnowmanView { view }

    public mutating func play(_ move: Move, by player: PlayerID, now: Double) throws(Rejection) {
        _ = try guess(move.letter, by: player, now: now)
    }

    public mutating func startNext(now: Double, using random: inout SplitMix64) throws(Rejection) {
        try startNextGame(now: now, using: &random)
    }

    public mutating func updateSettings(_ change: SnowmanSettings.Change) throws {
        guard change.waitForHost == .unchanged else { throw SnowmanSettings.Rejection.createOnly(setting: "waitForHost") }
        updateSettings(try nextSettings.applying(change, packs: packs))
    }

    public mutating func advance(to now: Double) -> [PlayerID] { tick(now: now) }

    public var nextDeadline: Double? { turnDeadline }

    public var stage: GameStage {
        switch status {
        case .waiting: .waiting
        case .inProgress: .playing
        case .won, .lost: .finished
        }
    }

    public var currentTurn: PlayerID? { status == .inProgress ? turn : nil }

    public mutating func passTurn(now: Double) throws(Rejection) -> PlayerID? {
        try skipTurn(now: now)
    }

    /// Players who left are still named in the leaderboard.
    public func name(of player: PlayerID) -> String? {
        leaderboard.first { $0.player == player }?.name
    }

    /// The finished game's result, numbered by the game's number (kept by a snapshot, so a restored room does
    /// not announce it again); nil while waiting or playing.
    public var resultNotice: ResultNotice? {
        resultLine.map { ResultNotice(number: gameNumber, text: $0) }
    }
}
