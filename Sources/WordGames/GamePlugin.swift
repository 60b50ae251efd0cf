/// A game that rooms can host: its rules, its moves and what it shows, and nothing of rooms, sockets or JSON.
///
/// A game declares its typed moves (`Move`), its settings (`settingSpecs` for the numbers, `SettingsChange`
/// for the whole `settings` object), its public view (`PublicView`, which every member sees) and its snapshot
/// (`Snapshot`, which a restart brings back), and optionally each player's private view (`PrivateView`). The
/// rooms framework does the rest: it decodes moves and settings from the wire, encodes views, turns each
/// change of a view into a JSON Patch, keeps the patch history, saves snapshots to the journal and replays them
/// on resume. Nothing a game writes tracks what changed.
///
/// Adding a game: a folder of its own under `Sources/WordGames` with its rules and this conformance, a folder
/// under `web/js/games`, and one line in each registry (`GameCatalog.games` here, `web/js/games.js` there).
/// `Sources/WordGames/ADDING-A-GAME.md` walks through it.
///
/// Refusals are `GameRejection`s; the room sends them to the player who made the move, naming the move. Settings
/// may throw any `GameRejection` too, and `SettingsError` for a number out of its `SettingSpec`'s range.
public protocol GamePlugin: Sendable {
    /// A move, decoded from the client's message (the whole object, `type` included). Encodable too, so that
    /// the bots send moves the same way.
    associatedtype Move: Codable & Sendable
    /// What a host's `create` or `settings` message may change, decoded from its `settings` object: keys the
    /// type does not read are refused. Read numbers with `SettingUpdate` so that absent, `null` and a value
    /// are told apart.
    associatedtype SettingsChange: Decodable & Sendable
    /// Everything every member (players and spectators) may see, as `state[id]`. Nil optionals are written
    /// as `null` (never left out), so that a value coming and going is a `replace`.
    associatedtype PublicView: Encodable & Equatable & Sendable
    /// What only one player sees (their own letters in a game where the others see only patterns), as their
    /// `private` object. Defaults to `NoPrivateView` for games without secrets per player. Like `PublicView`, it
    /// encodes as an object and writes nil optionals as `null`.
    associatedtype PrivateView: Encodable & Equatable & Sendable = NoPrivateView
    /// Everything that makes the game what it is, secrets included, for the data directory.
    associatedtype Snapshot: Codable & Sendable
    /// Why the rules refuse a move, a new game or a skipped turn.
    associatedtype Rejection: GameRejection

    /// The game's name on the wire: `create`'s `game`, the state's `game` and the key of its part.
    static var id: String { get }
    /// The game's name for people, as in "this room plays Word Scramble".
    static var title: String { get }
    /// The client messages that are this game's moves.
    static var moveTypes: [MoveType] { get }
    /// The numbers a host sets, with their bounds; the web client builds its steppers from them.
    static var settingSpecs: [SettingSpec] { get }

    /// A new game for a new room with the creator's settings (nil: the defaults).
    ///
    /// - Throws: The settings' refusal (`SettingsError` for a number out of range, the game's own otherwise).
    init(settings: SettingsChange?, lists: WordLists, now: Double, using random: inout SplitMix64) throws
    /// The game exactly as it was when `snapshot` was taken.
    ///
    /// - Throws: When the snapshot does not hold together (a damaged file must not make a broken game).
    init(snapshot: Snapshot, lists: WordLists) throws
    /// The game as it is, for the data directory.
    var snapshot: Snapshot { get }

    /// What every member sees now. Never anything private: the room sends it to everyone.
    var publicView: PublicView { get }

    /// `player`'s private view now, or nil when they have none (spectators, players who left, games without).
    /// Only ever encoded into the message to that one player.
    func privateView(for player: PlayerID) -> PrivateView?

    mutating func addPlayer(_ player: Player, now: Double)
    mutating func removePlayer(_ id: PlayerID, now: Double)

    /// Applies `move` by `player` (never a spectator: the room checks).
    mutating func play(_ move: Move, by player: PlayerID, now: Double) throws(Rejection)

    /// The host's `new_game`: the next game or match, once the current one is over.
    mutating func startNext(now: Double, using random: inout SplitMix64) throws(Rejection)

    /// The host's `settings`: they apply from the next game.
    mutating func updateSettings(_ change: SettingsChange) throws

    /// Advances timers to `now`.
    ///
    /// - Returns: The players whose turn ran out, in order (the room announces them).
    mutating func advance(to now: Double) -> [PlayerID]

    /// When `tick` next has work to do.
    var nextDeadline: Double? { get }

    /// Where the game stands, for the room's status and the lobby.
    var stage: GameStage { get }

    /// Whose turn it is in a game in progress; nil for games without turns (the default).
    var currentTurn: PlayerID? { get }

    /// The host's `skip`, or a turn passed because its holder is away.
    ///
    /// - Returns: The player whose turn was skipped, or nil for games without turns (the default).
    mutating func passTurn(now: Double) throws(Rejection) -> PlayerID?

    /// The name the game remembers for `player`, who may have left the room (nil by default).
    func name(of player: PlayerID) -> String?

    /// A member's `rename`: the game shows `name` for `id` from now on (nothing by default).
    mutating func renamePlayer(_ id: PlayerID, to name: String)

    /// The latest game or round result, for the room's chat (nil by default, and before any). `number` goes up
    /// by one every time a game or round ends; the room announces each number once, across restarts too.
    var resultNotice: ResultNotice? { get }

    /// The players who said they are ready, while the game waits on them to go on early (nil when it waits
    /// on nobody, the default). The room calls `everyoneReady` once every connected player is in the list.
    var readyPlayers: [PlayerID]? { get }

    /// Every connected player is ready: go on now (nothing by default).
    mutating func everyoneReady(now: Double)
}

extension GamePlugin {
    public var currentTurn: PlayerID? { nil }
    public mutating func passTurn(now: Double) throws(Rejection) -> PlayerID? { nil }
    public func name(of player: PlayerID) -> String? { nil }
    public mutating func renamePlayer(_ id: PlayerID, to name: String) {}
    public var resultNotice: ResultNotice? { nil }
    public var readyPlayers: [PlayerID]? { nil }
    public mutating func everyoneReady(now: Double) {}
}

extension GamePlugin where PrivateView == NoPrivateView {
    public func privateView(for player: PlayerID) -> NoPrivateView? { nil }
}

/// The private view of a game that has none: rooms of such games keep and send nothing per player.
public struct NoPrivateView: Encodable, Equatable, Sendable {
    public init() {}
}

/// Where a game stands, as the room's `status` and the lobby show it.
public enum GameStage: String, Sendable, Hashable {
    /// Waiting for the host to start the first game.
    case waiting
    /// A game or match is under way.
    case playing
    /// The last game or match is over; the host may start the next.
    case finished
}

/// A game's or round's result for the room's chat, numbered so that each is announced once.
public struct ResultNotice: Sendable, Hashable {
    /// One more every time a game or round ends (kept by the snapshot).
    public var number: Int
    /// What the chat says, e.g. "Ana solved SNOWBALL".
    public var text: String

    public init(number: Int, text: String) {
        self.number = number
        self.text = text
    }
}

/// A client message that is one of a game's moves, such as Snowman's `guess`.
public struct MoveType: Sendable, Hashable {
    /// The message's `type`.
    public var type: String
    /// What the move does, for the refusal of a move sent to another game's room: "Guessing letters" (is for
    /// Snowman rooms).
    public var doing: String

    public init(_ type: String, doing: String) {
        self.type = type
        self.doing = doing
    }
}
