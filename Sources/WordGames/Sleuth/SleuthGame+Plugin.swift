/// Sleuth as a rooms plug-in: `try` moves, `state.sleuth` as `SleuthView` shows it, and each player's own letters
/// in their private view.
extension SleuthGame: GamePlugin {
    /// A try: `{"type":"try","word":"crane"}`. (`guess`, `word` and `ready` belong to the other games: a move's
    /// type names one game.)
    public struct Move: Codable, Sendable, Hashable {
        public var word: String

        public init(word: String) {
            self.word = word
        }

        private enum CodingKeys: String, CodingKey { case type, word }

        public init(from decoder: any Decoder) throws {
            word = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .word)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode("try", forKey: .type)
            try container.encode(word, forKey: .word)
        }
    }

    public typealias PrivateView = SleuthPrivateView

    public static var id: String { "sleuth" }
    public static var title: String { "Sleuth" }
    public static var moveTypes: [MoveType] { [MoveType("try", doing: "Trying five-letter words")] }
    public static var settingSpecs: [SettingSpec] { SleuthSettings.specs }

    public init(settings change: SleuthSettings.Change?, lists: WordLists, now: Double,
                using random: inout SplitMix64) throws {
        let settings = try change.map { try SleuthSettings.standard.applying($0) } ?? .standard
        self.init(lexicon: lists.lexicon, settings: settings)
    }

    public init(snapshot: Snapshot, lists: WordLists) throws {
        try self.init(snapshot: snapshot, lexicon: lists.lexicon)
    }

    public var publicView: SleuthView { view }

    /// `player`'s own tries with their letters; nil for spectators and members who never played.
    public func privateView(for player: PlayerID) -> SleuthPrivateView? { ownView(for: player) }

    public mutating func play(_ move: Move, by player: PlayerID, now: Double) throws(Rejection) {
        try guess(move.word, by: player, now: now)
    }

    /// The next round.
    public mutating func startNext(now: Double, using random: inout SplitMix64) throws(Rejection) {
        try startRound(now: now, using: &random)
    }

    public mutating func updateSettings(_ change: SleuthSettings.Change) throws {
        updateSettings(try nextSettings.applying(change))
    }

    /// Rounds end by themselves; nobody's turn runs out.
    public mutating func advance(to now: Double) -> [PlayerID] {
        tick(now: now)
        return []
    }

    public var nextDeadline: Double? { roundEndsAt }

    public var stage: GameStage {
        switch phase {
        case .lobby: .waiting
        case .playing: .playing
        case .over: .finished
        }
    }

    /// One per finished round.
    public var resultNotice: ResultNotice? {
        resultText.map { ResultNotice(number: resultNumber, text: $0) }
    }
}
