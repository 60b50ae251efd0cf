import JSON
import Testing
import WordGames
import Runtime
@testable import Rooms
import RoomsTestSupport

/// One person, one seat (issue 43): a browser that reopens the room link gets its own seat back, a second tab is
/// told the seat is held and may take it over or watch, a page that stops its heartbeat is away, and the
/// evening's totals follow the browser across a lost seat and a rename.
@Suite struct RoomSeatsTests {
    static let bobBrowser = "bob-browser-00000000001"

    /// A Snowman room created by Ana, with Bob (from `bobBrowser`) seated.
    struct Table {
        let clock = ManualTimers()
        let registry: RoomRegistry
        let room: Room
        let host = MemoryLink()
        let bob = MemoryLink()
        var views: [UInt64: ClientView] = [:]

        init(configuration: RoomConfiguration = RoomConfiguration()) async throws {
            registry = RoomRegistry(lists: RoomTests.lists, configuration: configuration, seed: 7, clock: clock.clock,
                                    timers: clock)
            room = try await registry.create(.snowman, isPublic: true, settings: ["turnSeconds": 0], creator: host,
                                             name: "Ana", client: ClientID("ana-browser-0000000001"))
            await room.settled()
            #expect(await join(bob, name: "Bob", client: RoomSeatsTests.bobBrowser))
        }

        func join(_ link: MemoryLink, name: String?, spectator: Bool = false, client: String? = nil,
                  takeover: Bool = false) async -> Bool {
            await withCheckedContinuation { continuation in
                room.join(link, name: name, token: nil, lastSeq: nil, spectator: spectator,
                          client: client.flatMap(ClientID.init), takeover: takeover) { seated in
                    continuation.resume(returning: seated)
                }
            }
        }

        mutating func sync(_ links: [MemoryLink]) async throws {
            await room.settled()
            for link in links {
                try views[link.id, default: ClientView()].apply(link.drain())
            }
        }

        func view(_ link: MemoryLink) -> ClientView { views[link.id] ?? ClientView() }
        func members(_ link: MemoryLink) -> [JSONValue] { view(link).state["members"]?.arrayValue ?? [] }
        func member(_ id: String, seenBy link: MemoryLink) -> JSONValue? {
            members(link).first { $0["id"]?.stringValue == id }
        }
        func turn(_ link: MemoryLink) -> String? { view(link).state["snowman"]?["turn"]?.stringValue }
    }

    @Test func aJoinFromTheSameBrowserResumesItsSeatInsteadOfMakingASecond() async throws {
        var table = try await Table()
        try await table.sync([table.host, table.bob])
        let seat = try #require(table.view(table.bob).you)
        table.room.disconnected(table.bob.id)
        // The tab closed and the link opened again: no token (it lived in the closed tab), the same browser.
        let reopened = MemoryLink()
        #expect(await table.join(reopened, name: "Bob", client: RoomSeatsTests.bobBrowser))
        try await table.sync([table.host, reopened])
        #expect(table.view(reopened).you == seat)
        #expect(table.members(table.host).count == 2, "no second seat")
        #expect(table.members(table.host).compactMap { $0["name"]?.stringValue } == ["Ana", "Bob"])
        #expect(table.member(seat, seenBy: table.host)?["connected"]?.boolValue == true)
    }

    @Test func aPeekTellsABrowserItHasASeatInALockedRoom() async throws {
        let table = try await Table()
        table.room.receive(.lock(true), from: table.host.id)
        let peeker = MemoryLink()
        table.room.peek(peeker, client: ClientID(RoomSeatsTests.bobBrowser))
        table.room.peek(peeker, client: ClientID("someone-else-000000001"))
        await table.room.settled()
        let answers = peeker.drain()
        #expect(answers.map { $0["seated"]?.boolValue } == [true, nil])
        // And the locked room takes the browser back.
        table.room.disconnected(table.bob.id)
        #expect(await table.join(MemoryLink(), name: "Bob", client: RoomSeatsTests.bobBrowser))
    }

    @Test func aSecondTabIsToldTheSeatIsHeldAndMayTakeItOverOrWatch() async throws {
        var table = try await Table()
        try await table.sync([table.host, table.bob])
        let seat = try #require(table.view(table.bob).you)
        let second = MemoryLink()
        #expect(await table.join(second, name: "Bob", client: RoomSeatsTests.bobBrowser) == false)
        try await table.sync([second, table.bob, table.host])
        table.view(second).expectLastError("seat-in-use", move: "join")
        #expect(table.bob.closeReasons.isEmpty, "the first tab keeps playing")
        #expect(table.members(table.host).count == 2)

        // Watching makes a spectator's seat, never a second player's.
        let watcher = MemoryLink()
        #expect(await table.join(watcher, name: "Bob", spectator: true, client: RoomSeatsTests.bobBrowser))
        try await table.sync([watcher, table.host])
        #expect(table.view(watcher).you?.hasPrefix("s") == true)
        #expect(table.members(table.host).filter { $0["role"]?.stringValue == "player" }.count == 2)

        #expect(await table.join(second, name: "Bob", client: RoomSeatsTests.bobBrowser, takeover: true))
        try await table.sync([second, table.bob])
        #expect(table.view(second).you == seat)
        #expect(table.bob.closeReasons == [.replaced])
        #expect(table.view(table.bob).errors.last?["code"]?.stringValue == "replaced")
        // The first tab coming back with its token does not take the seat back behind the player's back.
        let oldToken = try #require(table.view(table.bob).token)
        let firstAgain = MemoryLink()
        let resumed = await withCheckedContinuation { continuation in
            table.room.join(firstAgain, name: nil, token: ResumeToken(oldToken), lastSeq: nil, spectator: false,
                            client: ClientID(RoomSeatsTests.bobBrowser)) { continuation.resume(returning: $0) }
        }
        #expect(resumed == false)
        try await table.sync([firstAgain])
        #expect(table.view(firstAgain).errors.last?["code"]?.stringValue == "seat-in-use")
    }

    @Test func aPageThatStopsItsHeartbeatIsClosedAndItsTurnPasses() async throws {
        var configuration = RoomConfiguration()
        configuration.silenceSeconds = 3
        configuration.awayTurnSeconds = 2
        var table = try await Table(configuration: configuration)
        let cleo = MemoryLink()
        #expect(await table.join(cleo, name: "Cleo"))
        table.room.receive(.guess("Q"), from: table.host.id)
        table.room.heard(table.bob.id)
        try await table.sync([table.host])
        #expect(table.turn(table.host) == "p2")
        await table.clock.advance(by: 2) { await table.room.settled() }
        table.room.heard(table.bob.id)
        await table.clock.advance(by: 2.5) { await table.room.settled() }
        #expect(table.bob.closeReasons.isEmpty, "heard 2.5 s ago")
        // Frozen: nothing more from Bob's page, though its socket stays open.
        await table.clock.advance(by: 1) { await table.room.settled() }
        #expect(table.bob.closeReasons == [.silent])
        try await table.sync([table.host])
        #expect(table.member("p2", seenBy: table.host)?["connected"]?.boolValue == false)
        #expect(table.turn(table.host) == "p2")
        await table.clock.advance(by: 2.5) { await table.room.settled() }
        try await table.sync([table.host])
        #expect(table.turn(table.host) == "p3", "passed like any disconnected player's turn")
        // Connections that never sent a heartbeat (bots, older clients) are never closed for silence.
        await table.clock.advance(by: 60) { await table.room.settled() }
        #expect(cleo.closeReasons.isEmpty)
        #expect(table.host.closeReasons.isEmpty)
    }

    @Test func theEveningsTotalsFollowTheBrowserAcrossALostSeatAndARename() async throws {
        var configuration = RoomConfiguration()
        configuration.resumeGraceSeconds = 5
        var table = try await Table(configuration: configuration)
        try await table.playToTheEnd()
        table.room.receive(.rename(name: "Bobby"), from: table.bob.id)
        table.room.disconnected(table.bob.id)
        await table.clock.advance(by: 6) { await table.room.settled() }
        try await table.sync([table.host])
        #expect(table.members(table.host).count == 1, "the seat was given up")
        let back = MemoryLink()
        #expect(await table.join(back, name: "Robert", client: RoomSeatsTests.bobBrowser))
        try await table.sync([table.host, back])
        #expect(table.view(back).you == "p2", "the browser's id again")
        table.room.receive(.newGame, from: table.host.id)
        try await table.playToTheEnd(bob: back)
        let board = try #require(table.view(table.host).state["snowman"]?["leaderboard"]?.arrayValue)
        #expect(board.count == 2, "one row per person")
        let bobs = board.first { $0["player"]?.stringValue == "p2" }
        #expect(bobs?["name"]?.stringValue == "Robert")
        #expect(bobs?["games"]?.intValue == 2)
    }

    @Test func theBrowsersPastIdsSurviveARestart() async throws {
        var configuration = RoomConfiguration()
        configuration.resumeGraceSeconds = 5
        let table = try await Table(configuration: configuration)
        table.room.disconnected(table.bob.id)
        await table.clock.advance(by: 6) { await table.room.settled() }
        let record = await table.room.record(version: 1)
        let parsed = try RoomRecord(saved: record.json, format: 3)
        #expect(parsed.pastSeats == [RoomSeatsTests.bobBrowser: "p2"])
        // Another process's room, restored from the record: Bob's browser gets its id back there too.
        let other = try await Table(configuration: configuration)
        try await other.room.restore(from: parsed, now: other.clock.clock())
        let back = MemoryLink()
        #expect(await other.join(back, name: "Bob", client: RoomSeatsTests.bobBrowser))
        await other.room.settled()
        let welcome = back.drain().first { $0["type"]?.stringValue == "welcome" }
        #expect(welcome?["you"]?.stringValue == "p2")
    }
}

extension RoomSeatsTests.Table {
    /// Ana and Bob guess common letters in turn until the game ends.
    mutating func playToTheEnd(bob: MemoryLink? = nil) async throws {
        let bob = bob ?? self.bob
        try await sync([host, bob])
        for letter in "ETAOINSHRDLCUMWFGYPBVKJXQZ" {
            guard view(host).state["snowman"]?["status"]?.stringValue == "inProgress" else { break }
            let mover = turn(host) == "p1" ? host : bob
            room.receive(.guess(String(letter)), from: mover.id)
            try await sync([host, bob])
        }
        #expect(view(host).state["snowman"]?["status"]?.stringValue != "inProgress")
    }
}
