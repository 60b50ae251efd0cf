import JSON
import Testing
@testable import Rooms
import RoomsTestSupport

/// The lobby's pages and their subscribers, without sockets: whole page once, then deltas, encoded once.
@Suite struct LobbyFeedTests {
    /// `count` public rooms with codes in alphabetical order, one player each unless `players` says otherwise.
    private static func rooms(_ count: Int, game: GameKind = .snowman, players: [Int: Int] = [:]) -> [RoomSummary] {
        let letters = Array("ABCDEFGHJKMNPQRSTVWXYZ")
        return (0..<count).map { index in
            let code = "A" + String(letters[index / 484 % 22]) + String(letters[index / 22 % 22]) + String(letters[index % 22])
            return RoomSummary(code: RoomCode(code)!, game: game, players: players[index] ?? 1, spectators: 0,
                               maxPlayers: 16, status: "waiting", isPublic: true)
        }
    }

    /// A new listing of `rooms`, and the deltas it makes.
    private static func update(_ feed: inout LobbyFeed, _ rooms: [RoomSummary], now: Double)
        -> [(message: ServerMessage, subscribers: Set<UInt64>)] {
        let listing = feed.rebuild(rooms, now: now)
        return feed.deltas(to: listing)
    }

    private static func json(_ message: ServerMessage) throws -> JSONValue {
        try JSONParser().parse(message.json)
    }

    @Test func subscribersOfAPageShareOneMessageAndGetOnlyWhatChanged() throws {
        var feed = LobbyFeed()
        let listing = feed.rebuild(Self.rooms(120), now: 0)
        let first = try Self.json(feed.subscribe(1, game: "snowman", listing: listing))
        #expect(first["type"]?.stringValue == "lobby")
        #expect(first["rooms"]?.arrayValue?.count == LobbyListing.maxPageSize)
        #expect(first["total"]?.intValue == 120)
        _ = feed.subscribe(2, game: "snowman", listing: listing)

        // Nothing changed: nothing to send.
        #expect(Self.update(&feed, Self.rooms(120), now: 1).isEmpty)

        // Room 100 (beyond the first page) gets a second player: it enters the page at the top, the 50th leaves.
        let deltas = Self.update(&feed, Self.rooms(120, players: [100: 2]), now: 2)
        try #require(deltas.count == 1)
        #expect(deltas[0].subscribers == [1, 2])
        let delta = try Self.json(deltas[0].message)
        #expect(delta["type"]?.stringValue == "lobby-delta")
        let moved = Self.rooms(120)[100].code.rawValue
        #expect(delta["rooms"]?.arrayValue?.map { $0["code"]?.stringValue } == [moved])
        #expect(delta["removed"]?.arrayValue?.map(\.stringValue) == [Self.rooms(120)[49].code.rawValue])
    }

    @Test func aRoomChangingOutsideThePageSendsNothing() {
        var feed = LobbyFeed()
        let listing = feed.rebuild(Self.rooms(80), now: 0)
        _ = feed.subscribe(1, game: nil, listing: listing)
        // Room 70 changes state but keeps its place, far below the first page.
        var changed = Self.rooms(80)
        changed[70].status = "playing"
        #expect(Self.update(&feed, changed, now: 1).isEmpty)
    }

    @Test func aNewRoomOfAnotherGameChangesOnlyTheCounts() throws {
        var feed = LobbyFeed()
        let listing = feed.rebuild(Self.rooms(3), now: 0)
        _ = feed.subscribe(1, game: "snowman", listing: listing)
        let more = Self.rooms(3) + [RoomSummary(code: RoomCode("QHTW")!, game: .scramble, players: 1, spectators: 0,
                                                maxPlayers: 16, status: "waiting", isPublic: true)]
        let deltas = Self.update(&feed, more, now: 1)
        try #require(deltas.count == 1)
        let delta = try Self.json(deltas[0].message)
        #expect(delta["rooms"]?.arrayValue?.isEmpty == true)
        #expect(delta["removed"]?.arrayValue?.isEmpty == true)
        #expect(delta["counts"]?["scramble"]?.intValue == 1)
        #expect(delta["total"]?.intValue == 3)
    }

    @Test func aLateSubscriberGetsThePageTheOthersHold() throws {
        var feed = LobbyFeed()
        let listing = feed.rebuild(Self.rooms(2), now: 0)
        _ = feed.subscribe(1, game: nil, listing: listing)
        // The rooms changed but no update went out yet: the newcomer gets the same page as subscriber 1, so
        // that the next delta applies to both.
        let newer = feed.rebuild(Self.rooms(3), now: 1)
        let late = try Self.json(feed.subscribe(2, game: nil, listing: newer))
        #expect(late["rooms"]?.arrayValue?.count == 2)
        let deltas = feed.deltas(to: newer)
        #expect(deltas.first?.subscribers == [1, 2])
        // Asking again for the same page (a second `lobby` message) sends it again, leaving the rest alone.
        let again = try Self.json(feed.subscribe(2, game: nil, listing: nil))
        #expect(again["rooms"]?.arrayValue?.count == 3)
        feed.unsubscribe(1)
        feed.unsubscribe(2)
        #expect(!feed.hasSubscribers)
        #expect(!feed.isFollowed(nil))
    }

    @Test func pagesAreCutOnceAndCapped() {
        let listing = LobbyListing(version: 1, rooms: Self.rooms(120))
        let page = listing.page(LobbyQuery(game: nil, offset: 100, limit: 50))
        #expect((try? JSONParser().parse(page))?["rooms"]?.arrayValue?.count == 20)
        // Served from the cache: the same storage, not a new encoding.
        let again = listing.page(LobbyQuery(game: nil, offset: 100, limit: 50))
        #expect(page.withUnsafeBufferPointer { $0.baseAddress } == again.withUnsafeBufferPointer { $0.baseAddress })
        #expect(listing.slice(LobbyQuery(game: nil, offset: 500, limit: 50)).isEmpty)
    }
}
