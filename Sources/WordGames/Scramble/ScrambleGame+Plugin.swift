/// Word Scramble as a rooms plug-in: `word` and `ready` moves, `state.scramble` as `ScrambleView` shows it.
extension ScrambleGame: GamePlugin {
    /// A word found (`{"type":"word","word":"toast"}`) or Ready pressed between rounds (`{"type":"ready"}`).
    public enum Move: Codable, Sendable, Hashable {
        case word(String)
        case ready

        private enum CodingKeys: String, CodingKey { case type, word }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            switch try container.decode(String.self, forKey: .type) {
            case "ready": self = .ready
            default: self = .word(try container.decode(String.self, forKey: .word))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .word(let word):
                try container.encode("word", forKey: .type)
                try container.encode(word, forKey: .word)
            case .ready:
                try container.encode("ready", forKey: .type)
            }
        }
    }

    public static var id: String { "scramble" }
    public static var title: String { "Word Scramble" }
    public static var moveTypes: [MoveType] {
        [MoveType("word", doing: "Submitting words"), MoveType("ready", doing: "Pressing Ready between rounds")]
    }
    public static var settingSpecs: [SettingSpec] { ScrambleSettings.specs }

    public init(settings change: ScrambleSettings.Change?, lists: WordLists, now: Double,
                using random: inout SplitMix64) throws {
        let settings = try change.map { try ScrambleSettings.standard.applying($0) } ?? .standard
        self.init(lexicon: lists.lexicon, roots: lists.roots, settings: settings)
    }

    public init(snapshot: Snapshot, lists: WordLists) throws {
        try self.init(snapshot: snapshot, lexicon: lists.lexicon, roots: lists.roots)
    }

    public var publicView: ScrambleView { view }

    public mutating func play(_ move: Move, by player: PlayerID, now: Double) throws(Rejection) {
        switch move {
        case .word(let word): _ = try submit(word, by: player, now: now)
        case .ready: try markReady(player, now: now)
        }
    }

    /// A new match.
    public mutating func startNext(now: Double, using random: inout SplitMix64) throws(Rejection) {
        try startMatch(now: now, using: &random)
    }

    public mutating func updateSettings(_ change: ScrambleSettings.Change) throws {
        updateSettings(try nextSettings.applying(change))
    }

    /// Rounds end by themselves; nobody's turn runs out.
    public mutating func advance(to now: Double) -> [PlayerID] {
        tick(now: now)
        return []
    }

    public var nextDeadline: Double? { phaseEndsAt }

    public var stage: GameStage {
        switch phase {
        case .lobby: .waiting
        case .playing, .intermission: .playing
        case .finished: .finished
        }
    }

    /// One per finished round; the last round's also names the match's winner.
    public var resultNotice: ResultNotice? {
        resultText.map { ResultNotice(number: resultNumber, text: $0) }
    }

    /// The Ready list, during an intermission only.
    public var readyPlayers: [PlayerID]? { phase == .intermission ? ready : nil }

    public mutating func everyoneReady(now: Double) { endBreak(now: now) }
}
