/// How a bot plays a game: the load tester (`wordrooms-bots`) drives one per player, and knows games only
/// through this protocol and `GameCatalog`.
///
/// A bot sees the game's part of the room state through `GameStateReading` and chooses the next move as the
/// game's own typed `Move`; the load tester encodes it, sends it and times it to the first patch that shows it
/// in the `shownIn` list. Pure like the rules: no JSON, no sockets, no clock (times are given in seconds).
///
/// A game gets a bot by conforming to `BotPlayable` in its own folder (`<Game>Bot.swift`).
public protocol GameBot {
    associatedtype Game: GamePlugin

    /// A bot for one player, sharing its thread's word lists.
    init(words: BotWords)

    /// Whether the bots must load the bundled word lists for this game (their dictionary, its roots).
    static var usesWordLists: Bool { get }

    /// The numbers a bot host creates its room with (keys of the game's settings; see `Game.settingSpecs`).
    static var hostSettings: [(key: String, value: Int)] { get }

    /// The list of the game's part of the state where an accepted move shows, e.g. Snowman's `guesses`.
    static var shownIn: String { get }
    /// Whether the `shownIn` list grows at its front (newest first) rather than its back.
    static var shownNewestFirst: Bool { get }
    /// What the report calls this game's moves ("guesses", "words").
    static var moveNoun: String { get }

    /// The next move, on a tick where the bot may move.
    ///
    /// - Parameters:
    ///   - state: The game's part of the room state.
    ///   - you: The bot's player id.
    ///   - waiting: How many of the bot's game moves still wait for their patch or refusal.
    ///   - invalidShare: The share of moves to make invalid on purpose (games that can, else ignored).
    mutating func choose(in state: some GameStateReading, you: String, waiting: Int, invalidShare: Double,
                         using random: inout SplitMix64) -> BotChoice<Game.Move>

    /// As host: the number of the game (or match) that is over, or not yet started, so that the host asks for
    /// the next one (`new_game`) once; nil while one is under way.
    func finishedGame(in state: some GameStateReading) -> Int?

    /// As host, before the first game: seconds after creating the room that the host waits for the planned
    /// players before starting anyway; nil when the game does not wait for them (the default).
    func playersWait(in state: some GameStateReading) -> Double?
}

extension GameBot {
    public func playersWait(in state: some GameStateReading) -> Double? { nil }
    public static var usesWordLists: Bool { false }
    public static var shownNewestFirst: Bool { false }
    /// The game's id on the wire.
    public static var gameID: String { Game.id }
}
