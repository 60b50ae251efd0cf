import JSON
import WordGames

/// What a room needs of the game it hosts, whichever it is: `PluginRoomGame` implements it once for every
/// `GamePlugin`, so a game never sees it.
///
/// The room calls it for every input: seats coming and going, the game's own moves (`moves`), the host's
/// `new_game`, `settings` and `skip`, and timer ticks. The game's part of the room state, `state[kind]`, is
/// `shownState`, and each change of it is `viewOperations`.
///
/// Refusals are `RoomError`s whose `move` is the refused message's type.
protocol RoomGame: Sendable {
    /// The game's name on the wire: `create`'s `game`, the state's `game` and the key of its part.
    static var kind: GameKind { get }
    /// The game's name for people, as in "this room plays Word Scramble".
    static var title: String { get }
    /// The client messages that are moves of this game.
    static var moves: [GameMoveSpec] { get }
    /// The numbers a host sets, with their bounds (the web client's steppers are built from them).
    static var settingSpecs: [SettingSpec] { get }

    /// The game's `Move` in `fields`, a message of type `type` (one of `moves`).
    ///
    /// - Throws: `bad-message` naming the member at fault.
    static func decodeMove(_ fields: JSONObject, type: String) throws(RoomError) -> any Sendable

    /// A new game for a new room, with the creator's settings.
    ///
    /// - Throws: `bad-setting` (or the settings' own refusal) when the settings do not hold.
    static func make(settings: JSONObject, lists: WordLists, now: Double,
                     using random: inout SplitMix64) throws(RoomError) -> Self

    /// The game exactly as it was when `snapshot` was taken.
    ///
    /// - Throws: `SavedObject.Unreadable` when the snapshot is not one this game wrote, or does not hold together.
    init(snapshot: JSONValue, lists: WordLists) throws(SavedObject.Unreadable)

    /// Everything that makes the game what it is, including its secrets, for the data directory.
    var snapshot: JSONValue { get }

    mutating func addPlayer(_ player: Player, now: Double)
    mutating func removePlayer(_ id: PlayerID, now: Double)

    /// Applies one of the game's `moves` by `player` (never a spectator: the room checks).
    mutating func play(_ move: GameMove, by player: PlayerID, now: Double) throws(RoomError)

    /// The host's `new_game`: the next game or match, once the current one is over.
    mutating func startNext(now: Double, using random: inout SplitMix64) throws(RoomError)

    /// The host's `settings`: they apply from the next game.
    mutating func updateSettings(_ settings: JSONObject) throws(RoomError)

    /// Advances timers.
    ///
    /// - Returns: The players whose turn ran out, in order (the room announces them).
    mutating func tick(now: Double) -> [PlayerID]

    /// When `tick` next has work to do.
    var nextDeadline: Double? { get }

    /// One word for lobby listings: `waiting`, `playing` or `finished`.
    var status: String { get }

    /// Whose turn it is in a game in progress; nil for games without turns.
    var currentTurn: PlayerID? { get }

    /// The host's `skip`, or a turn passed because its holder is away.
    ///
    /// - Returns: The player whose turn was skipped.
    /// - Throws: `wrong-game` for games without turns.
    mutating func skipTurn(now: Double) throws(RoomError) -> PlayerID

    /// The name the game remembers for `player`, who may have left the room.
    func name(of player: PlayerID) -> String?

    /// A member's `rename`: the game shows `name` for `id` from now on.
    mutating func renamePlayer(_ id: PlayerID, to name: String)

    /// The latest game or round result, for the room's `result` chat notice (nil before any). `number` goes up
    /// by one every time a game or round ends; the room announces each number once, across restarts too.
    var resultNotice: (number: Int, text: String)? { get }

    /// The players who said they are ready, while the game waits on them to go on early; nil otherwise. The room
    /// calls `everyoneReady` once every connected player is in the list.
    var readyPlayers: [PlayerID]? { get }

    /// Every connected player is ready: go on now.
    mutating func everyoneReady(now: Double)

    /// The game's part of the room state, whole: what a newcomer gets.
    var shownState: JSONValue { get }

    /// The operations that bring the game's part, at `path`, from what `kept` last recorded to the game now; nil
    /// when `kept` holds no record of this game's part (the first time, or after a copy), which it then takes:
    /// the caller writes the part whole.
    func viewOperations(at path: [String], kept: inout AnyObject?) -> [JSONPatch.Operation]?

    /// Whether the game gives players private views: when false, the room keeps and sends nothing per player
    /// and never calls the two methods below.
    static var hasPrivateViews: Bool { get }

    /// `player`'s private view whole (a welcome's or snapshot's `private`), or nil when they have none. `kept`
    /// takes the record of it that the next `privateOperations` diffs against (nil when there is none).
    func privateState(for player: PlayerID, kept: inout AnyObject?) -> JSONValue?

    /// The operations that bring `player`'s private view from what `kept` last recorded to the game now, paths
    /// relative to the private object: a `replace` of `""` with the whole view when one appears (`kept` nil),
    /// with `null` when it goes (`kept` then nil), none when nothing changed.
    func privateOperations(for player: PlayerID, kept: inout AnyObject?) -> [JSONPatch.Operation]
}

extension RoomGame {
    /// The game's `kind`, from a value whose type is not known statically.
    var kind: GameKind { Self.kind }

    /// The refusal of a move that belongs to another game (`move.type` is one of `owner`'s moves).
    func wrongGame(_ move: GameMove) -> RoomError {
        let owner = GameRegistry.owner(ofMove: move.type)
        let doing = owner?.spec.doing ?? "That move"
        let game = owner.map { "\($0.game.title) rooms" } ?? "other games"
        return RoomError(.moveOfAnotherGame(doing: doing, games: game, game: Self.title), move: move.type)
    }
}

/// A client message that one game adds to the protocol, such as Snowman's `guess`.
struct GameMoveSpec: Sendable {
    /// The message's `type`.
    var type: String
    /// What the move does, for other games' refusals: "Guessing letters" (is for Snowman rooms).
    var doing: String
}

/// A move of one of the games: a client message whose `type` a game declares, with its members as sent (each
/// string at most `ClientMessage.maxMoveCharacters`), and the game's own `Move` decoded from them when the message
/// was parsed (so that a malformed move is refused like any malformed message, and the room decodes nothing).
public struct GameMove: Sendable, Hashable {
    /// The message's `type`, e.g. `guess`.
    public var type: String
    /// The whole message, `type` included.
    public var fields: JSONObject
    /// The game's `Move`, when the message was parsed; the room's game decodes `fields` otherwise.
    let decoded: (any Sendable)?

    public init(type: String, fields: JSONObject) {
        self.init(type: type, fields: fields, decoded: nil)
    }

    init(type: String, fields: JSONObject, decoded: (any Sendable)?) {
        self.type = type
        self.fields = fields
        self.fields["type"] = JSONValue(type)
        self.decoded = decoded
    }

    public static func == (lhs: GameMove, rhs: GameMove) -> Bool {
        lhs.type == rhs.type && lhs.fields == rhs.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(fields)
    }
}
