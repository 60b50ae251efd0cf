import JSON

/// What a `seat` message asks a member to be.
public enum SeatRole: String, Sendable, Hashable {
    case player
    case spectator
}

/// A message from a client, parsed and bounds-checked. See `PROTOCOL.md` for the wire form of each.
public enum ClientMessage: Sendable, Equatable {
    case create(game: GameKind, name: String, isPublic: Bool, settings: JSONObject, client: ClientID?)
    /// `takeover`: take this browser's seat over from its other connection (PROTOCOL.md, "Seats follow the browser").
    /// `key`: a private room's secret from its link (`RoomKey`), without which the room answers as missing.
    case join(code: RoomCode, name: String?, token: ResumeToken?, lastSeq: Int?, spectator: Bool, client: ClientID?,
              takeover: Bool = false, key: RoomKey? = nil)
    /// What a room is like (game, players, locked, full) before joining it; `key` as for `join`.
    case peek(code: RoomCode, client: ClientID? = nil, key: RoomKey? = nil)
    /// The application-level heartbeat; answered at once with `pong` carrying the same `id`.
    case ping(id: Int?)
    /// A move of one of the games (`guess`, `word`): see `GameRegistry`.
    case move(GameMove)
    case newGame
    case settings(JSONObject)
    case kick(player: String)
    case unban(ban: String)
    case lock(Bool)
    /// Snowman: the host passes the current player's turn.
    case skip
    case makeHost(player: String)
    case chat(String)
    /// An emoji sent to everyone in the room at once, never kept (see `Reaction`).
    case react(emoji: String)
    /// A new display name for yourself.
    case rename(name: String)
    /// Takes a seat or gives it up (`player` nil: yourself); the host may move anyone.
    case seat(role: SeatRole, player: String?)
    case resync
    case leave
    /// Follows (or stops following) the first page of public rooms, of one game or (`game` nil) of all.
    case lobby(subscribe: Bool, game: GameKind?)

    /// Bounds on what a client may send (issue: everything a client sends is bounded).
    public static let maxNameCharacters = 20
    public static let maxChatCharacters = 200
    public static let maxMoveCharacters = 32
    /// Client messages are small; the parser rejects deeper or longer ones before building them.
    public static let parserLimits = JSONParser.Limits(maxDepth: 8, maxBytes: 12288, maxStringLength: 8192, maxElements: 64)

    /// The `type` of this message on the wire.
    public var type: String {
        switch self {
        case .create: "create"
        case .join: "join"
        case .peek: "peek"
        case .ping: "ping"
        case .move(let move): move.type
        case .newGame: "new_game"
        case .settings: "settings"
        case .kick: "kick"
        case .unban: "unban"
        case .lock: "lock"
        case .skip: "skip"
        case .makeHost: "host"
        case .chat: "chat"
        case .react: "react"
        case .rename: "rename"
        case .seat: "seat"
        case .resync: "resync"
        case .leave: "leave"
        case .lobby: "lobby"
        }
    }

    /// Parses one message from bytes of unknown encoding (UTF-8 is checked).
    ///
    /// - Throws: `RoomError` with code `bad-message` (naming the problem) for anything malformed.
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws(RoomError) -> ClientMessage {
        try parse(bytes, validatedUTF8: false)
    }

    /// Parses one WebSocket text message, whose UTF-8 the WebSocket session has validated already (RFC 6455
    /// §8.1), so the JSON parser does not check it a second time.
    ///
    /// - Precondition: `text` is well-formed UTF-8.
    /// - Throws: `RoomError` with code `bad-message` (naming the problem) for anything malformed.
    public static func parse(text: UnsafeRawBufferPointer) throws(RoomError) -> ClientMessage {
        try parse(text, validatedUTF8: true)
    }

    private static func parse(_ bytes: UnsafeRawBufferPointer, validatedUTF8: Bool) throws(RoomError) -> ClientMessage {
        let parser = JSONParser(limits: parserLimits)
        let value: JSONValue
        do {
            value = validatedUTF8 ? try parser.parse(validatedUTF8: bytes) : try parser.parse(bytes)
        } catch {
            throw .badMessage("The message is not valid JSON: \(error).")
        }
        return try parse(value)
    }

    public static func parse(_ value: JSONValue) throws(RoomError) -> ClientMessage {
        guard let object = value.objectValue else { throw .badMessage("A message must be a JSON object.") }
        guard let type = object["type"]?.stringValue else {
            throw .badMessage("A message needs a \"type\" field naming what it is.")
        }
        let fields = Fields(object: object, type: type)
        switch type {
        case "create":
            guard let gameName = try fields.string("game", max: 16), let game = GameKind(rawValue: gameName) else {
                throw .badMessage("\"create\" needs \"game\": \(GameKind.quotedNames).")
            }
            guard let name = try fields.name() else {
                throw .badMessage("\"create\" needs your \"name\".")
            }
            let settings = try fields.object("settings") ?? JSONObject()
            return .create(game: game, name: name, isPublic: try fields.bool("public") ?? true, settings: settings,
                           client: try fields.client())
        case "join":
            let code = try fields.code()
            var token: ResumeToken?
            if let text = try fields.string("token", max: 64) {
                guard let parsed = ResumeToken(text) else { throw .badMessage("\"token\" must be 32 hex digits.") }
                token = parsed
            }
            let name = try fields.name()
            guard name != nil || token != nil else {
                throw .badMessage("\"join\" needs your \"name\", or a \"token\" to resume.")
            }
            return .join(code: code, name: name, token: token, lastSeq: try fields.int("seq"),
                         spectator: try fields.bool("spectator") ?? false, client: try fields.client(),
                         takeover: try fields.bool("takeover") ?? false, key: try fields.key())
        case "peek":
            return .peek(code: try fields.code(), client: try fields.client(), key: try fields.key())
        case "ping":
            return .ping(id: try fields.int("id"))
        case "new_game":
            return .newGame
        case "settings":
            guard let settings = try fields.object("settings") else {
                throw .badMessage("\"settings\" needs a \"settings\" object.")
            }
            return .settings(settings)
        case "kick":
            guard let player = try fields.string("player", max: 16) else {
                throw .badMessage("\"kick\" needs the \"player\" id.")
            }
            return .kick(player: player)
        case "unban":
            guard let ban = try fields.string("ban", max: 16) else {
                throw .badMessage("\"unban\" needs the \"ban\" id.")
            }
            return .unban(ban: ban)
        case "lock":
            guard let locked = try fields.bool("locked") else {
                throw .badMessage("\"lock\" needs \"locked\": true or false.")
            }
            return .lock(locked)
        case "skip":
            return .skip
        case "host":
            guard let player = try fields.string("player", max: 16) else {
                throw .badMessage("\"host\" needs the \"player\" id of the new host.")
            }
            return .makeHost(player: player)
        case "chat":
            guard let text = try fields.string("text", max: maxChatCharacters * 4) else {
                throw .badMessage("\"chat\" needs some \"text\".")
            }
            return .chat(text)
        case "react":
            guard let emoji = try fields.string("emoji", max: 8, maxBytes: 32) else {
                throw .badMessage("\"react\" needs an \"emoji\".")
            }
            return .react(emoji: emoji)
        case "rename":
            guard let name = try fields.name() else {
                throw .badMessage("\"rename\" needs the new \"name\".")
            }
            return .rename(name: name)
        case "seat":
            guard let raw = try fields.string("role", max: 16), let role = SeatRole(rawValue: raw) else {
                throw .badMessage("\"seat\" needs \"role\": \"player\" or \"spectator\".")
            }
            return .seat(role: role, player: try fields.string("player", max: 16))
        case "resync":
            return .resync
        case "leave":
            return .leave
        case "lobby":
            var game: GameKind?
            if let gameName = try fields.string("game", max: 16) {
                guard let kind = GameKind(rawValue: gameName) else {
                    throw .badMessage("\"lobby\" takes \"game\": \(GameKind.quotedNames), or none for every game.")
                }
                game = kind
            }
            return .lobby(subscribe: try fields.bool("subscribe") ?? true, game: game)
        default:
            if let owner = GameRegistry.owner(ofMove: type) {
                // Every string of a move is short: a letter, a word. The game decodes the rest.
                for (key, value) in object where key != "type" {
                    if case .string = value { _ = try fields.string(key, max: maxMoveCharacters) }
                }
                let decoded = try owner.game.decodeMove(object, type: type)
                return .move(GameMove(type: type, fields: object, decoded: decoded))
            }
            throw RoomError(.unknownType(type))
        }
    }

    /// Typed access to a message's fields with errors naming the field.
    private struct Fields {
        let object: JSONObject
        let type: String

        /// `maxBytes` defaults to four bytes a character; names allow more, since one emoji of a family or a
        /// flag is a single character of up to 35 bytes.
        func string(_ key: String, max: Int, maxBytes: Int? = nil) throws(RoomError) -> String? {
            guard let value = object[key], !value.isNull else { return nil }
            guard let text = value.stringValue else {
                throw .badMessage("\"\(key)\" in \"\(type)\" must be a string.")
            }
            guard text.utf8.count <= maxBytes ?? max * 4, text.count <= max else {
                throw RoomError(.fieldTooLong(field: key, maxCharacters: max), move: type)
            }
            return text
        }

        /// The player's name as typed; `NameRules` checks it for real (the 64 here only bounds the work).
        func name() throws(RoomError) -> String? {
            try string("name", max: 64, maxBytes: 1024)
        }

        func code() throws(RoomError) -> RoomCode {
            guard let text = try string("code", max: 16) else {
                throw .badMessage("\"\(type)\" needs the room \"code\".")
            }
            guard let code = RoomCode(text) else {
                throw RoomError(.notARoomCode, move: type)
            }
            return code
        }

        func client() throws(RoomError) -> ClientID? {
            guard let text = try string("client", max: 64) else { return nil }
            guard let id = ClientID(text) else {
                throw .badMessage("\"client\" must be 16 to 64 letters, digits, '-' or '_'.")
            }
            return id
        }

        /// A private room's `key`; one that cannot be a key is refused as such (it names no room either way).
        func key() throws(RoomError) -> RoomKey? {
            guard let text = try string("key", max: 64) else { return nil }
            guard let key = RoomKey(text) else {
                throw .badMessage("\"key\" must be the 16 letters, digits, '-' or '_' after #k= in the room's link.")
            }
            return key
        }

        func bool(_ key: String) throws(RoomError) -> Bool? {
            guard let value = object[key], !value.isNull else { return nil }
            guard let flag = value.boolValue else { throw .badMessage("\"\(key)\" in \"\(type)\" must be true or false.") }
            return flag
        }

        func int(_ key: String) throws(RoomError) -> Int? {
            guard let value = object[key], !value.isNull else { return nil }
            guard let number = value.intValue else { throw .badMessage("\"\(key)\" in \"\(type)\" must be a whole number.") }
            return number
        }

        func object(_ key: String) throws(RoomError) -> JSONObject? {
            guard let value = object[key], !value.isNull else { return nil }
            guard let inner = value.objectValue else { throw .badMessage("\"\(key)\" in \"\(type)\" must be an object.") }
            return inner
        }
    }
}
