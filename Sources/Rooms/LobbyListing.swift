import JSON
import Synchronization

/// The public rooms at one moment, in lobby order (most players first, then by code), each room encoded once,
/// and the pages of `GET /api/rooms` cut from them.
///
/// A listing never changes once built: when rooms change, the registry builds a new one. The pages asked of a
/// listing are kept (up to `maxCachedPages`), so a flood of the same request costs a dictionary look-up and a
/// copy, not an encoding; with 9,900 public rooms the whole list was 941 KB, which is why no page holds more than
/// `maxPageSize` rooms.
public final class LobbyListing: Sendable {
    /// One room as the lobby shows it.
    public struct Entry: Sendable, Equatable {
        public let code: String
        public let game: String
        public let players: Int
        /// `RoomSummary.json`, encoded.
        public let json: [UInt8]

        public init(code: String, game: String, players: Int, json: [UInt8]) {
            self.code = code
            self.game = game
            self.players = players
            self.json = json
        }

        public init(_ summary: RoomSummary) {
            self.init(code: summary.code.rawValue, game: summary.game.rawValue, players: summary.players,
                      json: JSONWriter().serialize(summary.json))
        }

        /// A room as another instance published it (see `SharedLobby`); nil when it lacks a code or game.
        public init?(_ value: JSONValue) {
            guard let code = value["code"]?.stringValue, let game = value["game"]?.stringValue else { return nil }
            self.init(code: code, game: game, players: value["players"]?.intValue ?? 0,
                      json: JSONWriter().serialize(value))
        }

        /// Lobby order: most players first, then by code.
        static func precedes(_ left: Entry, _ right: Entry) -> Bool {
            left.players != right.players ? left.players > right.players : left.code < right.code
        }
    }

    /// Rooms in one page at most, and in the first page lobby subscribers follow.
    public static let maxPageSize = 50
    /// Distinct pages kept per listing: enough for every game's first pages, bounded however many offsets a
    /// client asks for.
    static let maxCachedPages = 64

    /// Counts up with every listing the registry builds.
    public let version: Int
    /// Every public room, in lobby order.
    public let entries: [Entry]
    /// Public rooms per game (the games with none are left out).
    public let counts: [String: Int]
    /// `counts` as JSON, every registered game listed (zero when it has no public room).
    public let countsJSON: [UInt8]
    private let pages = Mutex<[LobbyQuery: [UInt8]]>([:])

    /// - Parameter entries: in any order; the listing sorts them.
    public init(version: Int, entries: [Entry]) {
        self.version = version
        self.entries = entries.sorted(by: Entry.precedes)
        var counts: [String: Int] = [:]
        for entry in entries { counts[entry.game, default: 0] += 1 }
        self.counts = counts
        countsJSON = Self.countsJSON(counts)
    }

    public convenience init(version: Int, rooms: [RoomSummary]) {
        self.init(version: version, entries: rooms.map(Entry.init))
    }

    /// The rooms of `game` (all rooms when nil), in lobby order.
    public func rooms(of game: String?) -> ArraySlice<Entry> {
        guard let game else { return entries[...] }
        return ArraySlice(entries.filter { $0.game == game })
    }

    /// How many rooms `rooms(of: game)` holds, without filtering.
    public func total(of game: String?) -> Int {
        game.map { counts[$0] ?? 0 } ?? entries.count
    }

    /// The rooms `query` asks for.
    public func slice(_ query: LobbyQuery) -> ArraySlice<Entry> {
        let rooms = rooms(of: query.game)
        let start = min(query.offset, rooms.count)
        return rooms[(rooms.startIndex + start)..<(rooms.startIndex + min(rooms.count, start + query.limit))]
    }

    /// `{"rooms":[...],"total":N,"offset":O,"limit":L,"counts":{...},"version":V}`, as `GET /api/rooms` serves
    /// it; encoded once per listing and query.
    public func page(_ query: LobbyQuery) -> [UInt8] {
        if let cached = pages.withLock({ $0[query] }) { return cached }
        var json = Array(#"{"rooms":"#.utf8)
        Self.appendArray(slice(query), to: &json)
        json += #","total":"#.utf8
        json += String(total(of: query.game)).utf8
        json += #","offset":"#.utf8
        json += String(query.offset).utf8
        json += #","limit":"#.utf8
        json += String(query.limit).utf8
        json += #","counts":"#.utf8
        json += countsJSON
        json += #","version":"#.utf8
        json += String(version).utf8
        json.append(UInt8(ascii: "}"))
        pages.withLock { pages in
            if pages.count < Self.maxCachedPages { pages[query] = json }
        }
        return json
    }

    /// `{"snowman":N,...}`, every registered game listed (zero when it has no public room).
    private static func countsJSON(_ counts: [String: Int]) -> [UInt8] {
        var object = JSONObject()
        for kind in GameKind.allCases { object[kind.rawValue] = JSONValue(counts[kind.rawValue] ?? 0) }
        for (game, count) in counts.sorted(by: { $0.key < $1.key }) where object[game] == nil {
            object[game] = JSONValue(count)
        }
        return JSONWriter().serialize(.object(object))
    }

    /// `[room,room,...]` from the rooms' encoded JSON.
    static func appendArray(_ rooms: some Collection<Entry>, to json: inout [UInt8]) {
        json.append(UInt8(ascii: "["))
        for (index, room) in rooms.enumerated() {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            json += room.json
        }
        json.append(UInt8(ascii: "]"))
    }
}

/// Which page of the lobby to list: `GET /api/rooms?game=&offset=&limit=`.
public struct LobbyQuery: Hashable, Sendable {
    /// A game's wire name, or nil for every game.
    public var game: String?
    public var offset: Int
    /// 1 to `LobbyListing.maxPageSize`.
    public var limit: Int

    /// The lobby's first page of every game.
    public static let firstPage = LobbyQuery(game: nil, offset: 0, limit: LobbyListing.maxPageSize)

    public init(game: String?, offset: Int, limit: Int) {
        self.game = game
        self.offset = offset
        self.limit = limit
    }
}
