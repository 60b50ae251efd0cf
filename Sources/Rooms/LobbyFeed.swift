import JSON

/// What the lobby's subscribers follow: per game followed (or all games), the first page of public rooms as its
/// subscribers last received it.
///
/// A value type fed the registry's events that returns the messages to send, each encoded once for every
/// subscriber of its page. A subscriber gets its page whole once (`lobby`), then only what changed in it
/// (`lobby-delta`): rooms added or changed, codes gone, and the counts. With 9,900 public rooms every subscriber
/// used to receive the whole list (941 KB) up to four times a second.
struct LobbyFeed {
    /// The page that subscribers of one game (or of all games) hold.
    struct View {
        var rooms: [LobbyListing.Entry]
        var total: Int
        var counts: [UInt8]
        var subscribers: Set<UInt64> = []
    }

    /// The newest listing built, and whether rooms changed since.
    private(set) var listing: LobbyListing?
    private(set) var isStale = true
    /// When `listing` was built, by the registry's clock.
    private(set) var builtAt = -Double.infinity
    private var version = 0
    /// Keyed by a game's wire name; nil: every game.
    private var views: [String?: View] = [:]
    private var viewOf: [UInt64: String?] = [:]

    var hasSubscribers: Bool { !viewOf.isEmpty }

    /// Whether someone follows the page of `game` (of every game when nil).
    func isFollowed(_ game: String?) -> Bool {
        views[game] != nil
    }

    /// Rooms joined, left, changed state or went away since `listing` was built.
    mutating func roomsChanged() {
        isStale = true
    }

    /// A new listing of `rooms`, now the newest.
    mutating func rebuild(_ rooms: [RoomSummary], now: Double) -> LobbyListing {
        version += 1
        let fresh = LobbyListing(version: version, rooms: rooms)
        listing = fresh
        isStale = false
        builtAt = now
        return fresh
    }

    /// Makes `id` follow the first page of `game`'s rooms (every game's when nil), leaving any page it followed.
    ///
    /// - Parameter listing: the rooms to start the page from; needed only if nobody follows it yet (see
    ///   `isFollowed`), otherwise the subscriber gets the page as the others hold it, so the same deltas apply
    ///   to it.
    /// - Returns: the whole page, a `lobby` message.
    mutating func subscribe(_ id: UInt64, game: String?, listing: LobbyListing?) -> ServerMessage {
        if let followed = viewOf[id], followed == game, let view = views[game] {
            return Self.wholePage(view, game: game)
        }
        unsubscribe(id)
        guard var view = views[game] ?? listing.map({ Self.view(of: game, in: $0) }) else {
            preconditionFailure("a page nobody follows yet needs a listing to start from")
        }
        view.subscribers.insert(id)
        views[game] = view
        viewOf[id] = game
        return Self.wholePage(view, game: game)
    }

    mutating func unsubscribe(_ id: UInt64) {
        guard let game = viewOf.removeValue(forKey: id) else { return }
        views[game]?.subscribers.remove(id)
        if views[game]?.subscribers.isEmpty == true { views[game] = nil }
    }

    /// Brings every followed page to `listing`.
    ///
    /// - Returns: one `lobby-delta` per page that changed, with the subscribers to send it to.
    mutating func deltas(to listing: LobbyListing) -> [(message: ServerMessage, subscribers: Set<UInt64>)] {
        var messages: [(message: ServerMessage, subscribers: Set<UInt64>)] = []
        for (game, old) in views {
            var new = Self.view(of: game, in: listing)
            new.subscribers = old.subscribers
            views[game] = new
            if let message = Self.delta(from: old, to: new, game: game) {
                messages.append((message, new.subscribers))
            }
        }
        return messages
    }

    private static func view(of game: String?, in listing: LobbyListing) -> View {
        let query = LobbyQuery(game: game, offset: 0, limit: LobbyListing.maxPageSize)
        return View(rooms: Array(listing.slice(query)), total: listing.total(of: game), counts: listing.countsJSON)
    }

    /// `{"type":"lobby","game":...,"rooms":[...],"total":N,"counts":{...},"pageSize":50}`
    private static func wholePage(_ view: View, game: String?) -> ServerMessage {
        var json = Array(#"{"type":"lobby","game":"#.utf8)
        json += JSONWriter().serialize(game.map { JSONValue($0) } ?? .null)
        json += #","rooms":"#.utf8
        LobbyListing.appendArray(view.rooms, to: &json)
        appendTotals(view, to: &json)
        json += #","pageSize":"#.utf8
        json += String(LobbyListing.maxPageSize).utf8
        json.append(UInt8(ascii: "}"))
        return ServerMessage(json: json)
    }

    /// `{"type":"lobby-delta","game":...,"rooms":[added or changed],"removed":[codes],"total":N,"counts":{...}}`,
    /// or nil when nothing in the page or the counts changed.
    private static func delta(from old: View, to new: View, game: String?) -> ServerMessage? {
        var before: [String: [UInt8]] = [:]
        before.reserveCapacity(old.rooms.count)
        for room in old.rooms { before[room.code] = room.json }
        let changed = new.rooms.filter { before[$0.code] != $0.json }
        let kept = Set(new.rooms.map(\.code))
        let removed = old.rooms.map(\.code).filter { !kept.contains($0) }
        guard !changed.isEmpty || !removed.isEmpty || old.total != new.total || old.counts != new.counts else {
            return nil
        }
        var json = Array(#"{"type":"lobby-delta","game":"#.utf8)
        json += JSONWriter().serialize(game.map { JSONValue($0) } ?? .null)
        json += #","rooms":"#.utf8
        LobbyListing.appendArray(changed, to: &json)
        json += #","removed":"#.utf8
        json += JSONWriter().serialize(.array(removed.map { JSONValue($0) }))
        appendTotals(new, to: &json)
        json.append(UInt8(ascii: "}"))
        return ServerMessage(json: json)
    }

    private static func appendTotals(_ view: View, to json: inout [UInt8]) {
        json += #","total":"#.utf8
        json += String(view.total).utf8
        json += #","counts":"#.utf8
        json += view.counts
    }
}
