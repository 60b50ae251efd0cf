/// How bots play Word Scramble: while a round runs, the dictionary words spelled from its root in the bot's own
/// random order (so that bots of a room rarely race for the same word), skipping those found, and now and then
/// a made-up non-word (`invalidShare`).
public struct ScrambleBot: GameBot {
    public typealias Game = ScrambleGame

    /// Refusals a real word can meet through no fault of the bot: another player found it first, or the round
    /// ended while it was on its way.
    static let raceCodes: Set<String> = ["already-found", "round-not-running"]
    /// Refusals of a non-word sent on purpose (or of any word, once the round is over).
    static let invalidCodes: Set<String> = ["not-a-word", "round-not-running"]
    /// How long a host waits for its planned players before starting the first match anyway.
    static let playersWaitSeconds = 2.0

    private let lists: BotWords
    private(set) var source = ScrambleWordSource()

    public init(words: BotWords) {
        lists = words
    }

    public static var usesWordLists: Bool { true }
    /// Short rounds so that matches cycle within a run (with the 10-second breaks load runs were measured with,
    /// not the default 20).
    public static var hostSettings: [(key: String, value: Int)] {
        [("rounds", 3), ("roundSeconds", 30), ("minWordLength", 3), ("breakSeconds", 10)]
    }
    public static var shownIn: String { "found" }
    public static var shownNewestFirst: Bool { true }
    public static var moveNoun: String { "words" }

    public mutating func choose(in state: some GameStateReading, you: String, waiting: Int, invalidShare: Double,
                                using random: inout SplitMix64) -> BotChoice<ScrambleGame.Move> {
        guard state.string("phase") == "playing", let root = state.string("root")?.lowercased() else {
            return .wait
        }
        let minimumLength = state.int("minWordLength") ?? WordLists.subwordMinimumLength
        if root != source.root {
            source.start(root: root, words: lists.words(spelledFrom: root, minimumLength: minimumLength),
                         using: &random)
        }
        if invalidShare > 0, random.unit() < invalidShare, let lexicon = lists.lists?.lexicon,
           let word = source.invalidWord(minimumLength: minimumLength, lexicon: lexicon, using: &random) {
            return .play(BotMove(.word(word), shownAs: nil, expectedRefusals: Self.invalidCodes,
                                 invalidOnPurpose: true))
        }
        source.noteFound(count: state.count("found") ?? 0) {
            state.string("found", at: $0, field: "word")?.lowercased()
        }
        guard let word = source.nextWord() else { return .noMoveLeft }
        return .play(BotMove(.word(word), shownAs: [("word", word)], expectedRefusals: Self.raceCodes))
    }

    public func finishedGame(in state: some GameStateReading) -> Int? {
        let phase = state.string("phase")
        return phase == "lobby" || phase == "finished" ? state.int("matchNumber") : nil
    }

    /// Only the first match (the lobby) waits for latecomers.
    public func playersWait(in state: some GameStateReading) -> Double? {
        state.string("phase") == "lobby" ? Self.playersWaitSeconds : nil
    }
}

extension ScrambleGame: BotPlayable {
    public static var bot: any GameBot.Type { ScrambleBot.self }
}
