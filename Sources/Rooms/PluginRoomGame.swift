import JSON
import WordGames

/// Any `GamePlugin` in a room: what the framework does for every game, so that a game only declares its moves,
/// settings, views and snapshot.
///
/// - Moves and settings arrive as JSON and are decoded into the game's types; decoding errors become the same
///   `bad-message`, `setting-not-a-number` and `unknown-setting` replies for every game.
/// - The game's part of the room state is its `publicView`, encoded and diffed by `JSONViewDiffer`; each
///   player's `privateView` is diffed the same way, by a differ of their own.
/// - Snapshots are the game's `Snapshot`, encoded to and decoded from the journal's JSON.
struct PluginRoomGame<Game: GamePlugin>: RoomGame {
    var game: Game

    init(game: Game) {
        self.game = game
    }

    static var kind: GameKind { GameKind(declaring: Game.id) }
    static var title: String { Game.title }
    static var moves: [GameMoveSpec] { Game.moveTypes.map { GameMoveSpec(type: $0.type, doing: $0.doing) } }
    static var settingSpecs: [SettingSpec] { Game.settingSpecs }

    /// The encoder of views and snapshots: an optional member is always written, `null` when absent.
    private static var encoder: JSONValueEncoder { JSONValueEncoder(writesNilMembers: true) }

    static func make(settings: JSONObject, lists: WordLists, now: Double,
                     using random: inout SplitMix64) throws(RoomError) -> Self {
        let change = try decodeSettings(settings)
        do {
            return Self(game: try Game(settings: change, lists: lists, now: now, using: &random))
        } catch {
            throw settingsRefusal(error)
        }
    }

    init(snapshot: JSONValue, lists: WordLists) throws(SavedObject.Unreadable) {
        let saved: Game.Snapshot
        do {
            saved = try JSONValueDecoder().decode(Game.Snapshot.self, from: snapshot)
        } catch {
            throw SavedObject.Unreadable(Self.describe(error))
        }
        do {
            game = try Game(snapshot: saved, lists: lists)
        } catch {
            throw SavedObject.Unreadable("\(error)")
        }
    }

    var snapshot: JSONValue {
        do {
            return try Self.encoder.encode(game.snapshot)
        } catch {
            // Only a non-finite number fails to encode; no game keeps one.
            assertionFailure("a \(Game.title) snapshot does not encode: \(error)")
            return .null
        }
    }

    // MARK: Moves

    mutating func addPlayer(_ player: Player, now: Double) { game.addPlayer(player, now: now) }
    mutating func removePlayer(_ id: PlayerID, now: Double) { game.removePlayer(id, now: now) }

    mutating func play(_ move: GameMove, by player: PlayerID, now: Double) throws(RoomError) {
        // The registry's table, built once: the game's `moveTypes` is a fresh array on every read.
        guard GameRegistry.owner(ofMove: move.type)?.game == Self.self else { throw wrongGame(move) }
        let decoded: Game.Move
        if let parsed = move.decoded as? Game.Move {
            decoded = parsed
        } else {
            decoded = try Self.decode(move.fields, type: move.type)
        }
        do {
            try game.play(decoded, by: player, now: now)
        } catch {
            throw RoomError(error, move: move.type)
        }
    }

    static func decodeMove(_ fields: JSONObject, type: String) throws(RoomError) -> any Sendable {
        try decode(fields, type: type)
    }

    private static func decode(_ fields: JSONObject, type: String) throws(RoomError) -> Game.Move {
        do {
            return try JSONValueDecoder().decode(Game.Move.self, from: .object(fields))
        } catch {
            throw moveRefusal(error, type: type)
        }
    }

    mutating func startNext(now: Double, using random: inout SplitMix64) throws(RoomError) {
        do { try game.startNext(now: now, using: &random) } catch { throw RoomError(error, move: "new_game") }
    }

    mutating func updateSettings(_ settings: JSONObject) throws(RoomError) {
        let change = try Self.decodeSettings(settings)
        do { try game.updateSettings(change) } catch { throw Self.settingsRefusal(error) }
    }

    mutating func tick(now: Double) -> [PlayerID] { game.advance(to: now) }
    var nextDeadline: Double? { game.nextDeadline }
    var status: String { game.stage.rawValue }
    var currentTurn: PlayerID? { game.currentTurn }

    mutating func skipTurn(now: Double) throws(RoomError) -> PlayerID {
        let skipped: PlayerID?
        do { skipped = try game.passTurn(now: now) } catch { throw RoomError(error, move: "skip") }
        guard let skipped else { throw RoomError(.noTurnsToSkip(game: Self.title), move: "skip") }
        return skipped
    }

    func name(of player: PlayerID) -> String? { game.name(of: player) }
    mutating func renamePlayer(_ id: PlayerID, to name: String) { game.renamePlayer(id, to: name) }
    var resultNotice: (number: Int, text: String)? { game.resultNotice.map { ($0.number, $0.text) } }
    var readyPlayers: [PlayerID]? { game.readyPlayers }
    mutating func everyoneReady(now: Double) { game.everyoneReady(now: now) }

    // MARK: The state it shows

    var shownState: JSONValue {
        do {
            return try JSONViewDiffer<Game.PublicView>().json(of: game.publicView)
        } catch {
            assertionFailure("a \(Game.title) view does not encode: \(error)")
            return .null
        }
    }

    func viewOperations(at path: [String], kept: inout AnyObject?) -> [JSONPatch.Operation]? {
        // Taken out while it is used, so that the box stays uniquely referenced.
        var box = kept as? DifferBox<Game.PublicView>
        kept = nil
        guard box != nil else {
            let fresh = DifferBox<Game.PublicView>()
            _ = try? fresh.differ.update(to: game.publicView, at: path)
            kept = fresh
            return nil
        }
        // A copy of the state builder shares the box: the differ is copied then (it copies what it keeps on write).
        if !isKnownUniquelyReferenced(&box!) { box = DifferBox(box!.differ) }
        do {
            let operations = try box!.differ.update(to: game.publicView, at: path)
            kept = box
            return operations
        } catch {
            assertionFailure("a \(Game.title) view does not encode: \(error)")
            return nil
        }
    }

    // MARK: Private views

    static var hasPrivateViews: Bool { Game.PrivateView.self != NoPrivateView.self }

    func privateState(for player: PlayerID, kept: inout AnyObject?) -> JSONValue? {
        kept = nil
        guard let view = game.privateView(for: player) else { return nil }
        let box = DifferBox<Game.PrivateView>()
        do {
            _ = try box.differ.update(to: view, at: [])
            let whole = try box.differ.json(of: view)
            kept = box
            return whole
        } catch {
            assertionFailure("a \(Game.title) private view does not encode: \(error)")
            return nil
        }
    }

    func privateOperations(for player: PlayerID, kept: inout AnyObject?) -> [JSONPatch.Operation] {
        // Taken out while it is used, so that the box stays uniquely referenced (as in `viewOperations`).
        var box = kept as? DifferBox<Game.PrivateView>
        kept = nil
        guard box != nil else {
            guard let whole = privateState(for: player, kept: &kept) else { return [] }
            return [.replace(path: .root, value: whole)]
        }
        guard let view = game.privateView(for: player) else { return [.replace(path: .root, value: .null)] }
        if !isKnownUniquelyReferenced(&box!) { box = DifferBox(box!.differ) }
        do {
            let operations = try box!.differ.update(to: view, at: [])
            kept = box
            return operations
        } catch {
            // Sent whole next time: the differ forgot what it kept.
            assertionFailure("a \(Game.title) private view does not encode: \(error)")
            return []
        }
    }

    // MARK: Decoding

    /// `settings` as the game's change, refusing keys it does not read.
    private static func decodeSettings(_ settings: JSONObject) throws(RoomError) -> Game.SettingsChange {
        var unread: [String] = []
        let change: Game.SettingsChange
        do {
            change = try JSONValueDecoder().decode(Game.SettingsChange.self, from: .object(settings),
                                                   unreadKeys: &unread)
        } catch {
            throw settingsRefusal(error)
        }
        if let key = unread.first { throw RoomError(.unknownSetting(key: key), move: "settings") }
        return change
    }

    /// The reply to settings the game refused, or that did not decode.
    private static func settingsRefusal(_ error: any Error) -> RoomError {
        if let rejection = error as? any GameRejection { return RoomError(rejection, move: "settings") }
        if case .dataCorrupted(let context) = error as? DecodingError,
           let rejection = context.underlyingError as? any GameRejection {
            return RoomError(rejection, move: "settings")
        }
        let key = (error as? DecodingError).flatMap(Self.key) ?? "settings"
        return RoomError(.settingNotANumber(key: key), move: "settings")
    }

    /// The reply to a move that did not decode: it names the member at fault and what it takes.
    private static func moveRefusal(_ error: DecodingError, type: String) -> RoomError {
        switch error {
        case .keyNotFound(let key, _):
            return .badMessage("\"\(type)\" needs a \"\(key.stringValue)\".")
        case .valueNotFound(_, let context) where context.codingPath.count == 1:
            return .badMessage("\"\(type)\" needs a \"\(context.codingPath[0].stringValue)\".")
        case .typeMismatch(let expected, let context):
            let key = context.codingPath.first?.stringValue ?? type
            let takes = switch expected {
            case is String.Type: "a string"
            case is Bool.Type: "true or false"
            case is Int.Type, is Double.Type: "a number"
            default: "something else"
            }
            return .badMessage("\"\(key)\" in \"\(type)\" must be \(takes).")
        case .valueNotFound(_, let context), .dataCorrupted(let context):
            let key = context.codingPath.first?.stringValue ?? type
            return .badMessage("\"\(key)\" in \"\(type)\" is not what \"\(type)\" takes.")
        @unknown default:
            return .badMessage("\"\(type)\" is not a move of \(title).")
        }
    }

    /// The member a decoding error is about.
    private static func key(_ error: DecodingError) -> String? {
        switch error {
        case .keyNotFound(let key, _): key.stringValue
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            context.codingPath.first?.stringValue
        @unknown default: nil
        }
    }

    /// What is wrong with a snapshot, as the journal's log line says it.
    private static func describe(_ error: DecodingError) -> String {
        let snapshot = "the \(Game.title) snapshot"
        switch error {
        case .keyNotFound(let key, let context):
            let path = (context.codingPath.map(\.stringValue) + [key.stringValue]).joined(separator: ".")
            return "\(snapshot) has no \"\(path)\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            let problem = (context.underlyingError.map { "\($0)" } ?? context.debugDescription).prefix(120)
            return "\(snapshot) does not hold at \"\(path)\": \(problem)"
        @unknown default:
            return "\(snapshot) does not hold: \(error)"
        }
    }
}

/// What the framework keeps of a game's view between updates, in the state builder's box for the game.
final class DifferBox<View: Encodable & Equatable> {
    var differ: JSONViewDiffer<View>

    init(_ differ: JSONViewDiffer<View> = JSONViewDiffer()) {
        self.differ = differ
    }
}
