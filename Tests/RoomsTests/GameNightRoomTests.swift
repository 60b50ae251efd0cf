import JSON
import Testing
import WordGames
import Runtime
@testable import Rooms
import RoomsTestSupport

/// What friends hit on a game night: refused joins that must leave the way open, removals that must stick,
/// locked rooms, turns that must not stall, announced skips and a leaderboard across games.
@Suite struct GameNightRoomTests {
    /// A room created by Ana, with helpers to join, settle and read what each link saw.
    struct Table {
        /// The room's clock and timers, moved by hand: advancing it fires the room's own deadlines.
        let clock = ManualTimers()
        let registry: RoomRegistry
        let room: Room
        let host = MemoryLink()
        var views: [UInt64: ClientView] = [:]

        init(_ kind: GameKind = .snowman, settings: JSONObject = [:],
             configuration: RoomConfiguration = RoomConfiguration()) async throws {
            registry = RoomRegistry(lists: RoomTests.lists, configuration: configuration, seed: 7, clock: clock.clock,
                                    timers: clock)
            room = try await registry.create(kind, isPublic: true, settings: settings, creator: host, name: "Ana",
                                             client: ClientID("ana-browser-0000000001"))
            await room.settled()
        }

        /// Joins and reports whether the room said the link was seated.
        func join(_ link: MemoryLink, name: String?, token: String? = nil, spectator: Bool = false,
                  client: String? = nil) async -> Bool {
            await withCheckedContinuation { continuation in
                room.join(link, name: name, token: token.flatMap(ResumeToken.init), lastSeq: nil,
                          spectator: spectator, client: client.flatMap(ClientID.init)) { seated in
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

        func state(_ link: MemoryLink) -> JSONValue { views[link.id]?.state ?? .null }
        func lastError(_ link: MemoryLink) -> String? { views[link.id]?.errors.last?["code"]?.stringValue }
        func chatTexts(_ link: MemoryLink) -> [String] {
            (state(link)["chat"]?.arrayValue ?? []).compactMap { $0["text"]?.stringValue }
        }
        func turn(_ link: MemoryLink) -> String? { state(link)["snowman"]?["turn"]?.stringValue }
    }

    // MARK: Refusals leave the way open

    @Test func everyRefusedJoinSaysTheLinkWasNotSeatedAndALaterJoinWorks() async throws {
        var configuration = RoomConfiguration()
        configuration.maxPlayers = 2
        var table = try await Table(configuration: configuration)
        let bob = MemoryLink()
        #expect(await table.join(bob, name: "Bob"))
        let late = MemoryLink()
        #expect(await table.join(late, name: "bad\u{202E}name") == false)
        #expect(await table.join(late, name: "Late") == false) // full
        try await table.sync([late])
        #expect(table.views[late.id]?.errors.map { $0["code"]?.stringValue } == ["bad-name", "room-full"])
        #expect(table.views[late.id]?.errors.allSatisfy { $0["move"]?.stringValue == "join" } == true)
        #expect(await table.join(late, name: "Late", spectator: true))
        try await table.sync([late])
        #expect(table.views[late.id]?.you == "s3")
    }

    // MARK: Removals stick

    @Test func aRemovedBrowserCannotComeBackUnderAnotherNameUntilTheHostLetsItBack() async throws {
        var table = try await Table()
        let bob = MemoryLink()
        let bobBrowser = "bob-browser-000000000001"
        #expect(await table.join(bob, name: "Bob", client: bobBrowser))
        try await table.sync([table.host, bob])
        table.room.receive(.kick(player: "p2"), from: table.host.id)
        try await table.sync([table.host, bob])
        #expect(bob.closeReasons == [.removedByHost])
        // A reload: a new connection, no token (the seat is gone), the same browser id, even another name.
        let reloaded = MemoryLink()
        #expect(await table.join(reloaded, name: "Bobby", client: bobBrowser) == false)
        try await table.sync([reloaded, table.host])
        #expect(table.lastError(reloaded) == "kicked")
        let bans = try #require(table.state(table.host)["bans"]?.arrayValue)
        #expect(bans.count == 1)
        #expect(bans.first?["name"]?.stringValue == "Bob")
        // Only the ban's id and name are shown: no browser id, no token.
        let banText = String(decoding: JSONWriter().serialize(.array(bans)), as: UTF8.self)
        #expect(!banText.contains(bobBrowser))
        #expect(bans.first?.objectValue?.keys.sorted() == ["id", "name"])
        // Another browser at the same party is welcome.
        let cleo = MemoryLink()
        #expect(await table.join(cleo, name: "Cleo", client: "cleo-browser-00000000001"))
        // Only the host lifts bans; then Bob may come back.
        let banID = try #require(bans.first?["id"]?.stringValue)
        table.room.receive(.unban(ban: banID), from: cleo.id)
        table.room.receive(.unban(ban: "b99"), from: table.host.id)
        try await table.sync([cleo, table.host])
        #expect(table.lastError(cleo) == "host-only")
        #expect(table.lastError(table.host) == "no-such-ban")
        table.room.receive(.unban(ban: banID), from: table.host.id)
        try await table.sync([table.host])
        #expect(table.state(table.host)["bans"]?.arrayValue?.isEmpty == true)
        #expect(await table.join(reloaded, name: "Bob", client: bobBrowser))
    }

    @Test func aLockedRoomRefusesNewcomersButNotResumes() async throws {
        var table = try await Table()
        let bob = MemoryLink()
        #expect(await table.join(bob, name: "Bob"))
        try await table.sync([table.host, bob])
        let token = try #require(table.views[bob.id]?.token)
        table.room.receive(.lock(true), from: bob.id)
        table.room.receive(.lock(true), from: table.host.id)
        try await table.sync([table.host, bob])
        #expect(table.lastError(bob) == "host-only")
        #expect(table.state(bob)["locked"]?.boolValue == true)
        let newcomer = MemoryLink()
        #expect(await table.join(newcomer, name: "Dan") == false)
        #expect(await table.join(newcomer, name: "Dan", spectator: true) == false)
        try await table.sync([newcomer])
        #expect(table.views[newcomer.id]?.errors.map { $0["code"]?.stringValue } == ["room-locked", "room-locked"])
        table.room.disconnected(bob.id)
        let bobAgain = MemoryLink()
        #expect(await table.join(bobAgain, name: nil, token: token))
        table.room.receive(.lock(false), from: table.host.id)
        await table.room.settled()
        #expect(await table.join(newcomer, name: "Dan"))
    }

    // MARK: Turns do not stall

    @Test func newRoomsHaveASixtySecondTurnTimerAndTimeoutsAreAnnounced() async throws {
        var table = try await Table()
        let bob = MemoryLink()
        #expect(await table.join(bob, name: "Bob"))
        try await table.sync([table.host])
        #expect(table.state(table.host)["snowman"]?["settings"]?["turnSeconds"]?.intValue == 60)
        #expect(table.turn(table.host) == "p1")
        await table.clock.advance(by: 61) { await table.room.settled() }
        try await table.sync([table.host])
        #expect(table.turn(table.host) == "p2")
        let line = try #require(table.state(table.host)["chat"]?.arrayValue?.last)
        #expect(line["text"]?.stringValue == "Ana ran out of time")
        #expect(line["system"]?.boolValue == true)
        #expect(line["player"]?.isNull == true)
    }

    @Test func theHostCanSwitchTheTimerOff() async throws {
        var table = try await Table(settings: ["turnSeconds": 0])
        try await table.sync([table.host])
        #expect(table.state(table.host)["snowman"]?["settings"]?["turnSeconds"]?.isNull == true)
        #expect(table.state(table.host)["snowman"]?["turnEndsAt"]?.isNull == true)
    }

    @Test func theHostSkipsATurnAndEveryoneIsTold() async throws {
        var table = try await Table()
        let bob = MemoryLink()
        #expect(await table.join(bob, name: "Bob"))
        table.room.receive(.skip, from: bob.id)
        table.room.receive(.skip, from: table.host.id)
        try await table.sync([table.host, bob])
        #expect(table.lastError(bob) == "host-only")
        #expect(table.turn(bob) == "p2")
        #expect(table.chatTexts(bob).last == "Ana's turn was skipped by the host")
    }

    @Test func aDisconnectedPlayersTurnPassesAfterTheGrace() async throws {
        var table = try await Table(settings: ["turnSeconds": 0])
        let bob = MemoryLink()
        let cleo = MemoryLink()
        #expect(await table.join(bob, name: "Bob"))
        #expect(await table.join(cleo, name: "Cleo"))
        table.room.receive(.guess("Q"), from: table.host.id)
        try await table.sync([table.host])
        #expect(table.turn(table.host) == "p2")
        table.room.disconnected(bob.id)
        await table.room.settled()
        await table.clock.advance(by: 9) { await table.room.settled() }
        try await table.sync([table.host])
        #expect(table.turn(table.host) == "p2", "the grace is 10 s")
        await table.clock.advance(by: 1.5) { await table.room.settled() }
        try await table.sync([table.host])
        #expect(table.turn(table.host) == "p3")
        #expect(table.chatTexts(table.host).last == "Bob's turn was skipped: disconnected")
        // Bob's next turn, still away: it passes again after the grace counted from when the turn came to him.
        table.room.receive(.guess("Z"), from: cleo.id)
        table.room.receive(.guess("J"), from: table.host.id)
        try await table.sync([table.host])
        let skips = table.state(table.host)["chat"]!.arrayValue!.filter { $0["notice"]?.stringValue == "skip" }
        #expect(skips.count == 1)
        #expect(table.turn(table.host) == "p2")
        await table.clock.advance(by: 5) { await table.room.settled() }
        try await table.sync([table.host])
        #expect(table.turn(table.host) == "p2")
        await table.clock.advance(by: 5.5) { await table.room.settled() }
        try await table.sync([table.host])
        #expect(table.turn(table.host) == "p3")
    }

    @Test func anAwayPlayerAloneKeepsTheTurn() async throws {
        let table = try await Table(settings: ["turnSeconds": 0])
        let bob = MemoryLink()
        #expect(await table.join(bob, name: "Bob"))
        table.room.receive(.guess("Q"), from: table.host.id)
        table.room.disconnected(table.host.id)
        table.room.disconnected(bob.id)
        await table.room.settled()
        await table.clock.advance(by: 30) { await table.room.settled() }
        let (_, state) = await table.room.snapshot()
        #expect(state["snowman"]?["turn"]?.stringValue == "p2", "nobody is there to take the turn")
        let chat = state["chat"]?.arrayValue ?? []
        #expect(chat.compactMap { $0["text"]?.stringValue } == ["Bob joined"], "no turn was skipped")
    }

    // MARK: Winning the evening

    @Test func theLeaderboardAddsUpEveryFinishedGame() async throws {
        var table = try await Table(settings: ["turnSeconds": 0])
        let bob = MemoryLink()
        #expect(await table.join(bob, name: "Bob"))
        let links = [table.host, bob]
        for game in 1...2 {
            try await table.sync(links)
            for letter in "ETAOINSHRDLCUMWFGYPBVKJXQZ" {
                guard table.state(table.host)["snowman"]?["status"]?.stringValue == "inProgress" else { break }
                let mover = table.turn(table.host) == "p1" ? table.host : bob
                table.room.receive(.guess(String(letter)), from: mover.id)
                try await table.sync(links)
            }
            let snowman = table.state(bob)["snowman"]!
            #expect(snowman["history"]?.arrayValue?.count == game)
            if game == 1 {
                table.room.receive(.newGame, from: table.host.id)
            }
        }
        let snowman = table.state(bob)["snowman"]!
        let history = try #require(snowman["history"]?.arrayValue)
        var totals: [String: Int] = [:]
        for record in history {
            for line in record["scores"]?.arrayValue ?? [] {
                totals[line["player"]!.stringValue!, default: 0] += line["score"]!.intValue!
            }
        }
        let board = try #require(snowman["leaderboard"]?.arrayValue)
        #expect(board.count == 2)
        for row in board {
            #expect(row["total"]?.intValue == totals[row["player"]!.stringValue!])
            #expect(row["games"]?.intValue == 2)
        }
        #expect(board.map { $0["total"]!.intValue! } == board.map { $0["total"]!.intValue! }.sorted(by: >))
        #expect(board.reduce(0) { $0 + $1["wins"]!.intValue! } >= 2, "each game has at least one top scorer")
        #expect(board.first?["rank"]?.intValue == 1)
        // The new game's scores start at 0; the leaderboard does not.
        table.room.receive(.newGame, from: table.host.id)
        try await table.sync(links)
        let fresh = table.state(bob)["snowman"]!
        #expect(fresh["scores"]?.arrayValue?.allSatisfy { $0["score"]?.intValue == 0 } == true)
        #expect(fresh["leaderboard"]?.arrayValue?.map { $0["total"]!.intValue! } == board.map { $0["total"]!.intValue! })
    }

    // MARK: Peek

    @Test func peekDescribesTheRoomWithoutJoiningIt() async throws {
        var configuration = RoomConfiguration()
        configuration.maxPlayers = 1
        var table = try await Table(configuration: configuration)
        let visitor = MemoryLink()
        table.room.peek(visitor)
        try await table.sync([visitor])
        let answer = try #require(table.views[visitor.id]?.other.first)
        #expect(answer["type"]?.stringValue == "room")
        #expect(answer["game"]?.stringValue == "snowman")
        #expect(answer["players"]?.intValue == 1)
        #expect(answer["full"]?.boolValue == true)
        #expect(answer["locked"]?.boolValue == false)
        #expect(table.state(table.host)["members"]?.arrayValue?.count ?? 0 <= 1)
    }
}
