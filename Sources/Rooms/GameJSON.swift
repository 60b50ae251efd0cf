import JSON
import WordGames

/// JSON of what the games share (players, score lines, score tables) and of their settings messages, for the
/// adapters: the same JSON in the room state and in snapshots.
enum GameJSON {
    // MARK: Shared types

    static func json(_ player: Player) -> JSONValue {
        ["id": JSONValue(player.id.rawValue), "name": JSONValue(player.name)]
    }

    static func player(_ value: JSONValue) throws(SavedObject.Unreadable) -> Player {
        let saved = try SavedObject(value, "player")
        return Player(id: PlayerID(try saved.string("id")), name: try saved.string("name"))
    }

    static func json(_ lines: [ScoreLine]) -> JSONValue {
        .array(lines.map { json($0) })
    }

    static func json(_ line: ScoreLine) -> JSONValue {
        [
            "player": JSONValue(line.player.rawValue),
            "name": JSONValue(line.name),
            "score": JSONValue(line.score),
            "rank": JSONValue(line.rank),
        ]
    }

    static func scoreLine(_ value: JSONValue) throws(SavedObject.Unreadable) -> ScoreLine {
        let saved = try SavedObject(value, "score line")
        return ScoreLine(player: PlayerID(try saved.string("player")), name: try saved.string("name"),
                         score: try saved.int("score"), rank: try saved.int("rank"))
    }

    /// Points by player as an object, ids in order (so that the same game saves the same bytes).
    static func json(_ scores: [PlayerID: Int]) -> JSONValue {
        var object = JSONObject()
        object.reserveCapacity(scores.count)
        for (player, points) in scores.sorted(by: { $0.key < $1.key }) {
            object[player.rawValue] = JSONValue(points)
        }
        return .object(object)
    }

    /// Points by player: an object, or (as the Codable journal wrote a dictionary with non-string keys) an array
    /// of ids and points one after the other.
    static func scores(_ value: JSONValue) throws(SavedObject.Unreadable) -> [PlayerID: Int] {
        var scores: [PlayerID: Int] = [:]
        if let object = value.objectValue {
            for (player, points) in object {
                scores[PlayerID(player)] = try SavedObject.int(points, "the score of \(player.prefix(16))")
            }
            return scores
        }
        guard let flat = value.arrayValue, flat.count.isMultiple(of: 2) else {
            throw SavedObject.Unreadable("the scores are neither an object nor pairs of ids and points")
        }
        for index in stride(from: 0, to: flat.count, by: 2) {
            let player = try SavedObject.string(flat[index], "a scored player's id")
            scores[PlayerID(player)] = try SavedObject.int(flat[index + 1], "the score of \(player.prefix(16))")
        }
        return scores
    }

    static func strings(_ value: JSONValue) throws(SavedObject.Unreadable) -> String {
        try SavedObject.string(value, "a list entry")
    }

    static func bools(_ value: JSONValue) throws(SavedObject.Unreadable) -> Bool {
        try SavedObject.bool(value, "a list entry")
    }

    /// A value of a string enumeration (a status, a phase).
    static func raw<Value: RawRepresentable<String>>(_ saved: SavedObject, _ key: String) throws(SavedObject.Unreadable)
        -> Value {
        let text = try saved.string(key)
        guard let value = Value(rawValue: text) else {
            throw SavedObject.Unreadable("\"\(key)\" of the \(saved.what) has an unknown value \"\(text.prefix(16))\"")
        }
        return value
    }

    /// Settings from a snapshot: the settings' own checks apply, so saved settings out of range are refused.
    static func settings<Settings>(_ saved: SavedObject, _ key: String,
                                   _ make: (SavedObject) throws -> Settings) throws(SavedObject.Unreadable) -> Settings {
        let object = try saved.object(key)
        do {
            return try make(object)
        } catch let error as SavedObject.Unreadable {
            throw error
        } catch {
            throw SavedObject.Unreadable("\"\(key)\" of the \(saved.what) does not hold: \(error)")
        }
    }

    // MARK: Settings messages

    /// The whole number `settings[key]`: absent (`.none`), `null` (`.some(nil)`) or a number.
    static func setting(_ settings: JSONObject, _ key: String) throws(RoomError) -> Int?? {
        guard let value = settings[key] else { return .none }
        if value.isNull { return .some(nil) }
        guard let number = value.intValue else {
            throw RoomError(.settingNotANumber(key: key), move: "settings")
        }
        return .some(number)
    }

    /// Refuses any key of `settings` the game does not have.
    static func checkKeys(_ settings: JSONObject, allowed: Set<String>) throws(RoomError) {
        for key in settings.keys where !allowed.contains(key) {
            throw RoomError(.unknownSetting(key: key), move: "settings")
        }
    }
}

/// `null` for a missing value: optional fields are always present on the wire, so patches replace rather than add.
func nullable(_ value: String?) -> JSONValue { value.map { JSONValue($0) } ?? .null }
func nullable(_ value: Int?) -> JSONValue { value.map { JSONValue($0) } ?? .null }
func nullable(_ value: Double?) -> JSONValue { value.map { JSONValue($0) } ?? .null }
