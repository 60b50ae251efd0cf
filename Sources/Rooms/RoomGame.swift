import JSON
import WordGames

/// What a room needs of the game it hosts: a game plugs into rooms by implementing this (an adapter in this
/// module around the game's rules in `WordGames`) and adding its type to `GameRegistry`.
///
/// The room calls it for every input: seats coming and going, the game's own moves (`moves`), the host's
/// `new_game`, `settings` and `skip`, and timer ticks. It shows the game as its part of the room state,
/// `state[kind]`, built incrementally by `show` (every move pays for it, so only what changed is rebuilt), and
/// saves it as a JSON snapshot that `init(snapshot:lists:)` brings back after a restart.
///
/// Refusals are `RoomError`s whose `move` is the refused message's type.
protocol RoomGame: Sendable {
    /// What `show` keeps between updates (the JSON of parts that rarely change, the lists it edits in place).
    associatedtype ShownParts

    /// The game's name on the wire: `create`'s `game`, the state's `game` and the key of its part.
    static var kind: GameKind { get }
    /// The game's name for people, as in "this room plays Word Scramble".
    static var title: String { get }
    /// The client messages that are moves of this game.
    static var moves: [GameMoveSpec] { get }
    /// The numbers a host sets, with their bounds (the web client's steppers are built from them).
    static var settingSpecs: [SettingSpec] { get }

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

    /// Whose turn it is in a game in progress; nil for games without turns (the default).
    var currentTurn: PlayerID? { get }

    /// The host's `skip`, or a turn passed because its holder is away.
    ///
    /// - Returns: The player whose turn was skipped.
    /// - Throws: `wrong-game` for games without turns (the default).
    mutating func skipTurn(now: Double) throws(RoomError) -> PlayerID

    /// The name the game remembers for `player`, who may have left the room (nil by default).
    func name(of player: PlayerID) -> String?

    /// A member's `rename`: the game shows `name` for `id` from now on, wherever it shows names (nothing by
    /// default).
    mutating func renamePlayer(_ id: PlayerID, to name: String)

    /// The latest game or round result, for the room's `result` chat notice (nil by default, and before any).
    ///
    /// `number` goes up by one every time a game or round ends; the room announces `text` once per number (it
    /// remembers the last number announced, across restarts too).
    var resultNotice: (number: Int, text: String)? { get }

    /// The players who said they are ready, while the game waits on them to go on early (Word Scramble's break
    /// between rounds); nil when it waits on nobody (the default). The room calls `everyoneReady` once every
    /// connected player is in the list.
    var readyPlayers: [PlayerID]? { get }

    /// Every connected player is ready: go on now (nothing by default).
    mutating func everyoneReady(now: Double)

    /// What `show` starts from: nothing built yet.
    static func shownParts() -> ShownParts

    /// Brings the game's part of the room state, `object`, up to date with the game through `editor`, which
    /// records the operations. `object` is empty on a full build.
    func show(in object: inout JSONObject, kept: inout ShownParts, editor: inout StateEditor)

    /// `show` with what it keeps in a box of its own, as `RoomStateBuilder` holds it for whichever game the room
    /// plays. Implemented once, below; a requirement so that each game gets it specialized (the box's type is
    /// then known, and finding it costs a pointer comparison).
    func show(in object: inout JSONObject, keeping kept: inout AnyObject?, editor: inout StateEditor)

    /// The common moves' cheaper path: right after `play` accepted a move that is the game's only change since
    /// its part was last brought up to date (the room checks), brings `object` up to date for that move alone.
    /// The operations are written straight from what the move changed (a letter revealed, a guess or a word
    /// added, a score) without building the view or comparing the parts the move leaves alone, and `kept` is
    /// left as `show` would have left it.
    ///
    /// - Returns: False when the move did more than such a move does (it ended the game or the round) or the
    ///   game has no such path (the default): the room then runs `show`. The checks come before any edit; should
    ///   an edit still find the state not shaped as `show` left it, what was written so far is in `kept` too,
    ///   and `show` diffs the rest.
    func showPlayedMove(in object: inout JSONObject, kept: inout ShownParts, editor: inout StateEditor) -> Bool

    /// `showPlayedMove` with what `show` keeps in its box (see `show(in:keeping:editor:)`); false when nothing
    /// is kept yet.
    func showPlayedMove(in object: inout JSONObject, keeping kept: inout AnyObject?, editor: inout StateEditor)
        -> Bool
}

extension RoomGame {
    var currentTurn: PlayerID? { nil }

    mutating func skipTurn(now: Double) throws(RoomError) -> PlayerID {
        throw RoomError(.noTurnsToSkip(game: Self.title), move: "skip")
    }

    func name(of player: PlayerID) -> String? { nil }

    mutating func renamePlayer(_ id: PlayerID, to name: String) {}

    var resultNotice: (number: Int, text: String)? { nil }

    var readyPlayers: [PlayerID]? { nil }

    mutating func everyoneReady(now: Double) {}

    /// The game's `kind`, from a value whose type is not known statically.
    var kind: GameKind { Self.kind }

    func show(in object: inout JSONObject, keeping kept: inout AnyObject?, editor: inout StateEditor) {
        var box = kept as? ShownPartsBox<ShownParts> ?? ShownPartsBox(Self.shownParts())
        kept = nil
        // Copied on write, so that a copy of a builder never changes what another shows.
        if !isKnownUniquelyReferenced(&box) { box = ShownPartsBox(box.parts) }
        show(in: &object, kept: &box.parts, editor: &editor)
        kept = box
    }

    func showPlayedMove(in object: inout JSONObject, kept: inout ShownParts, editor: inout StateEditor) -> Bool {
        false
    }

    func showPlayedMove(in object: inout JSONObject, keeping kept: inout AnyObject?, editor: inout StateEditor)
        -> Bool {
        guard var box = kept as? ShownPartsBox<ShownParts> else { return false }
        kept = nil
        if !isKnownUniquelyReferenced(&box) { box = ShownPartsBox(box.parts) }
        let written = showPlayedMove(in: &object, kept: &box.parts, editor: &editor)
        kept = box
        return written
    }

    /// The refusal of a move that belongs to another game (`move.type` is one of `owner`'s moves).
    func wrongGame(_ move: GameMove) -> RoomError {
        let owner = GameRegistry.owner(ofMove: move.type)
        let doing = owner?.spec.doing ?? "That move"
        let game = owner.map { "\($0.game.title) rooms" } ?? "other games"
        return RoomError(.moveOfAnotherGame(doing: doing, games: game, game: Self.title), move: move.type)
    }
}

/// What a game's `show` keeps between updates, boxed: the state builder holds it without knowing the game, and the
/// game edits it in place.
final class ShownPartsBox<Parts> {
    var parts: Parts

    init(_ parts: Parts) {
        self.parts = parts
    }
}

/// A client message that one game adds to the protocol, such as Snowman's `guess`: its `type` and the field that
/// carries its one argument, if it has one (Word Scramble's `ready` has none).
struct GameMoveSpec: Sendable {
    /// The message's `type`.
    var type: String
    /// The field with the move's argument, a string of at most `ClientMessage.maxMoveCharacters`; nil for a move
    /// without one (its `GameMove.text` is empty).
    var field: String?
    /// The `bad-message` sentence when the field is missing, e.g. `"guess" needs a "letter".`
    var missing: String
    /// What the move does, for other games' refusals: "Guessing letters" (is for Snowman rooms).
    var doing: String
}

/// A move of one of the games, parsed from a client message a game declares in its `moves`.
public struct GameMove: Sendable, Hashable {
    /// The message's `type`, e.g. `guess`.
    public var type: String
    /// The move's argument as sent: Snowman's letter, Word Scramble's word; empty for a move without one.
    public var text: String
}
