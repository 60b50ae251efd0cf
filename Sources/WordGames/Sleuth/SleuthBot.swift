/// How bots play Sleuth: each try is a word of the secrets list that agrees with every mark the bot got back so
/// far (as a careful player would), chosen at random; now and then a made-up non-word (`invalidShare`).
///
/// The room's state shows the bot only the marks of its tries (their letters are private), so the bot remembers
/// the words it sent in the round and pairs them with its marks in order.
public struct SleuthBot: GameBot {
    public typealias Game = SleuthGame

    /// Refusals a try can meet through no fault of the bot: the round ended (time, or the others finished) while
    /// it was on its way.
    static let raceCodes: Set<String> = ["round-not-running"]
    /// Refusals of a non-word sent on purpose (or of any word, once the round is over).
    static let invalidCodes: Set<String> = ["not-a-word", "round-not-running"]

    /// The round the bot's memory belongs to.
    private(set) var round = 0
    /// The words the bot tried this round, oldest first.
    private(set) var sent: [String] = []

    public init(words: BotWords) {}

    /// The shortest rounds: bots solve in seconds, and a run should see rounds end by time too.
    public static var hostSettings: [(key: String, value: Int)] {
        [("roundSeconds", SleuthSettings.roundSecondsSpec.range.lowerBound)]
    }
    public static var shownIn: String { "tries" }
    public static var moveNoun: String { "tries" }

    public mutating func choose(in state: some GameStateReading, you: String, waiting: Int, invalidShare: Double,
                                using random: inout SplitMix64) -> BotChoice<SleuthGame.Move> {
        guard state.string("phase") == "playing", let number = state.int("round"), waiting == 0 else { return .wait }
        if number != round {
            round = number
            sent = []
        }
        var patterns: [String] = []
        for index in 0..<(state.count("tries") ?? 0) where state.string("tries", at: index, field: "player") == you {
            if let pattern = state.string("tries", at: index, field: "pattern") { patterns.append(pattern) }
        }
        // With nothing on its way, a word sent but not shown was refused (the round ended, or on purpose).
        if sent.count > patterns.count { sent.removeLast(sent.count - patterns.count) }
        let solved = SleuthMark.solved(length: SleuthGame.wordLength)
        if patterns.last == solved || patterns.count >= SleuthGame.maxTries { return .wait }

        if invalidShare > 0, random.unit() < invalidShare {
            let word = String((0..<SleuthGame.wordLength).map { _ in "qxzjv".randomElement(using: &random)! })
            return .play(BotMove(SleuthGame.Move(word: word), shownAs: nil, expectedRefusals: Self.invalidCodes,
                                 invalidOnPurpose: true))
        }
        guard let word = Self.nextWord(after: sent, marked: patterns, using: &random) else { return .noMoveLeft }
        sent.append(word)
        // Entries of `tries` show no letters: the bot's next entry is any new one of its own (one move at a time).
        return .play(BotMove(SleuthGame.Move(word: word), shownAs: [], expectedRefusals: Self.raceCodes))
    }

    /// A secret-list word not tried yet that agrees with every try's marks, at random; nil when none does (the
    /// secret is not on the list).
    static func nextWord(after tried: [String], marked patterns: [String], using random: inout SplitMix64)
        -> String? {
        let candidates = SleuthWords.secrets.filter { candidate in
            !tried.contains(candidate) && zip(tried, patterns).allSatisfy { word, pattern in
                SleuthMark.pattern(of: word, against: candidate) == pattern
            }
        }
        return candidates.randomElement(using: &random)
    }

    public func finishedGame(in state: some GameStateReading) -> Int? {
        let phase = state.string("phase")
        return phase == "lobby" || phase == "over" ? state.int("round") : nil
    }
}

extension SleuthGame: BotPlayable {
    public static var bot: any GameBot.Type { SleuthBot.self }
}
