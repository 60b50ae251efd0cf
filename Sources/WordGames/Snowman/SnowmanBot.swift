/// How bots play Snowman: on their turn, the most frequent letter of English text not guessed yet.
public struct SnowmanBot: GameBot {
    public typealias Game = SnowmanGame

    /// Letters of English text from most to least frequent.
    static let frequencyOrder = Array("etaoinshrdlcumwfgypbvkjxqz")

    public init(words: BotWords) {}

    /// No turn timer, so that turns wait for the bot.
    public static var hostSettings: [(key: String, value: Int)] { [("maxWrongGuesses", 7)] }
    public static var shownIn: String { "guesses" }
    public static var moveNoun: String { "guesses" }

    /// The letter to guess next.
    ///
    /// - Parameter guessed: Letters guessed so far in this game, either case.
    /// - Returns: A lowercase letter, or nil when all 26 have been guessed.
    static func nextLetter(guessed: some Sequence<Character>) -> Character? {
        var seen = Set<Character>()
        for letter in guessed {
            seen.insert(Character(letter.lowercased()))
        }
        return frequencyOrder.first { !seen.contains($0) }
    }

    /// A guess on the bot's turn, one at a time (a second would arrive after the turn passed on).
    public mutating func choose(in state: some GameStateReading, you: String, waiting: Int, invalidShare: Double,
                                using random: inout SplitMix64) -> BotChoice<SnowmanGame.Move> {
        guard state.string("status") == "inProgress", state.string("turn") == you, waiting == 0 else { return .wait }
        let count = state.count("guesses") ?? 0
        let guessed = (0..<count).compactMap { state.string("guesses", at: $0, field: "letter")?.first }
        guard let letter = Self.nextLetter(guessed: guessed) else { return .wait }
        // The state shows guesses in capitals.
        return .play(BotMove(SnowmanGame.Move(letter: String(letter)),
                             shownAs: [("letter", String(letter).uppercased())]))
    }

    public func finishedGame(in state: some GameStateReading) -> Int? {
        state.string("status") == "inProgress" ? nil : state.int("gameNumber")
    }
}

extension SnowmanGame: BotPlayable {
    public static var bot: any GameBot.Type { SnowmanBot.self }
}
