import JSON
import WordGames

/// Every game the server can host. Adding a game is its rules (a folder in `WordGames`), its adapter (a
/// `RoomGame` in this module) and one line in `games`.
public enum GameRegistry {
    /// The games, in the order listings show them.
    static let games: [any RoomGame.Type] = [
        SnowmanRoomGame.self,
        ScrambleRoomGame.self,
    ]

    /// Every game as the web client builds its controls from it (`GET /api/config`'s `games`): its id, its title
    /// and its settings' bounds, so that the steppers and the server's checks share one source of truth.
    public static let catalog: JSONValue = .array(games.map { game in
        [
            "id": JSONValue(game.kind.rawValue),
            "title": JSONValue(game.title),
            "settings": .array(game.settingSpecs.map(json)),
        ]
    })

    /// One setting as the web client's stepper takes it; `off` is present (as `null`, the value that switches it
    /// off) only for a setting that can be off.
    private static func json(_ spec: SettingSpec) -> JSONValue {
        var object: JSONObject = [
            "key": JSONValue(spec.key), "label": JSONValue(spec.label), "min": JSONValue(spec.range.lowerBound),
            "max": JSONValue(spec.range.upperBound), "step": JSONValue(spec.step), "initial": JSONValue(spec.initial),
        ]
        if let unit = spec.unit { object["unit"] = JSONValue(unit) }
        if spec.canBeOff { object["off"] = .null }
        return .object(object)
    }

    /// The game whose kind is `name`.
    static func game(named name: String) -> (any RoomGame.Type)? {
        games.first { $0.kind.rawValue == name }
    }

    /// The game that declares the move `type`, with its declaration.
    static func owner(ofMove type: String) -> (game: any RoomGame.Type, spec: GameMoveSpec)? {
        moveOwners[type]
    }

    private static let moveOwners: [String: (game: any RoomGame.Type, spec: GameMoveSpec)] = {
        var owners: [String: (game: any RoomGame.Type, spec: GameMoveSpec)] = [:]
        for game in games {
            for spec in game.moves {
                precondition(owners[spec.type] == nil, "two games declare the move \(spec.type)")
                owners[spec.type] = (game, spec)
            }
        }
        return owners
    }()

    /// A new game of `kind` for a new room.
    static func make(_ kind: GameKind, settings: JSONObject, lists: WordLists, now: Double,
                     using random: inout SplitMix64) throws(RoomError) -> any RoomGame {
        guard let game = game(named: kind.rawValue) else {
            preconditionFailure("GameKind values only exist for registered games")
        }
        return try game.make(settings: settings, lists: lists, now: now, using: &random)
    }

    /// A game of `kind` brought back from its snapshot.
    static func restore(_ kind: String, snapshot: JSONValue, lists: WordLists) throws(SavedObject.Unreadable)
        -> any RoomGame {
        guard let game = game(named: kind) else { throw SavedObject.Unreadable("a game of unknown kind \"\(kind)\"") }
        return try game.init(snapshot: snapshot, lists: lists)
    }
}
