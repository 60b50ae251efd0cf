import JSON
import Runtime
import Testing
import WordGames
@testable import Rooms
import RoomsTestSupport

/// Rooms driven through in-memory links: protocol rules, host controls, resume, and patches that rebuild the
/// exact state.
@Suite struct RoomTests {
    static let lists = try! WordLists.bundled()

    /// A registry, a room created by "Ana" and helpers to settle and read what clients saw.
    struct Fixture {
        let registry: RoomRegistry
        let room: Room
        let host: MemoryLink
        /// The room's clock and timers: time moves only when the test advances it.
        let timers: ManualTimers
        var views: [UInt64: ClientView] = [:]

        init(_ kind: GameKind = .snowman, settings: JSONObject = [:], configuration: RoomConfiguration = RoomConfiguration(),
             seed: UInt64 = 1, start: Double = 1_000_000) async throws {
            timers = ManualTimers(start: start)
            registry = RoomRegistry(lists: RoomTests.lists, configuration: configuration, seed: seed,
                                    clock: timers.clock, timers: timers)
            host = MemoryLink()
            room = try await registry.create(kind, isPublic: true, settings: settings, creator: host, name: "Ana")
            await room.settled()
        }

        mutating func sync(_ links: [MemoryLink]) async throws {
            await room.settled()
            for link in links {
                try views[link.id, default: ClientView()].apply(link.drain())
            }
        }

        func join(_ name: String, spectator: Bool = false) -> MemoryLink {
            let link = MemoryLink()
            room.join(link, name: name, token: nil, lastSeq: nil, spectator: spectator)
            return link
        }

        /// What the host sees once the room has handled `message` from them.
        mutating func hostView(after message: ClientMessage) async throws -> ClientView {
            room.receive(message, from: host.id)
            try await sync([host])
            return try #require(views[host.id])
        }

        /// `name` joins as a player; once the host and they have synced, their link and resume token.
        mutating func joinSynced(_ name: String) async throws -> (link: MemoryLink, token: String) {
            let link = join(name)
            try await sync([host, link])
            return (link, try #require(views[link.id]?.token))
        }

        /// Moves time to just before `grace` is over, expecting the room still registered, then past it, expecting
        /// it gone.
        func expectDisposed(after grace: Double, sourceLocation: SourceLocation = #_sourceLocation) async {
            let room = room
            await room.settled()
            await timers.advance(by: grace - 0.01) { await room.settled() }
            await room.settled()
            #expect(await registry.count == 1, "the grace is not over", sourceLocation: sourceLocation)
            await timers.advance(by: 0.02) { await room.settled() }
            await room.settled()
            #expect(await registry.count == 0, sourceLocation: sourceLocation)
        }
    }

    @Test func creatorGetsWelcomeAndHosts() async throws {
        var fixture = try await Fixture()
        try await fixture.sync([fixture.host])
        let view = try #require(fixture.views[fixture.host.id])
        #expect(view.you == "p1")
        #expect(view.token?.count == 32)
        #expect(view.state["host"]?.stringValue == "p1")
        #expect(view.state["snowman"]?["status"]?.stringValue == "inProgress")
    }

    @Test func patchesRebuildTheStateOfEveryMember() async throws {
        var fixture = try await Fixture()
        let bob = fixture.join("Bob")
        let cleo = fixture.join("Cleo", spectator: true)
        let links = [fixture.host, bob, cleo]
        try await fixture.sync(links)
        for letter in "ETAOINSHRDLU" {
            let turn = fixture.views[fixture.host.id]!.state["snowman"]?["turn"]?.stringValue
            let mover = turn == "p1" ? fixture.host : bob
            fixture.room.receive(.guess(String(letter)), from: mover.id)
            try await fixture.sync(links)
        }
        let (seq, state) = await fixture.room.snapshot()
        for link in links {
            let view = try #require(fixture.views[link.id])
            #expect(view.seq == seq)
            #expect(view.state == state)
            #expect(view.gaps == 0)
        }
    }

    @Test func duplicateNamesGetASuffix() async throws {
        var fixture = try await Fixture()
        let other = fixture.join("  ana ")
        try await fixture.sync([other])
        #expect(fixture.views[other.id]!.memberNames == ["Ana", "ana (2)"])
    }

    /// Names the name rules refuse, at join and at rename: empty, blank, too long, a control character.
    static let badNames = ["", "   ", String(repeating: "x", count: 21), "bad\u{7}name"]

    @Test(arguments: badNames)
    func refusesBadNames(name: String) async throws {
        var fixture = try await Fixture()
        let link = fixture.join(name)
        try await fixture.sync([link])
        #expect(fixture.views[link.id]!.errors.first?["code"]?.stringValue == "bad-name")
        #expect(fixture.views[link.id]!.you == nil)
    }

    @Test func roomFullAtTheCapButSpectatorsStillWelcome() async throws {
        var configuration = RoomConfiguration()
        configuration.maxPlayers = 3
        var fixture = try await Fixture(configuration: configuration)
        let players = (0..<2).map { fixture.join("P\($0)") }
        let extra = fixture.join("Late")
        let watcher = fixture.join("Watcher", spectator: true)
        try await fixture.sync(players + [extra, watcher])
        #expect(fixture.views[extra.id]!.errors.first?["code"]?.stringValue == "room-full")
        #expect(fixture.views[watcher.id]!.you == "s4")
    }

    @Test func spectatorsCannotMove() async throws {
        var fixture = try await Fixture()
        let watcher = fixture.join("Watcher", spectator: true)
        try await fixture.sync([watcher])
        fixture.room.receive(.guess("e"), from: watcher.id)
        try await fixture.sync([watcher])
        fixture.views[watcher.id]!.expectLastError("spectator", move: "guess")
    }

    @Test func onlyTheHostControlsTheRoom() async throws {
        var fixture = try await Fixture()
        let bob = fixture.join("Bob")
        try await fixture.sync([bob])
        for message: ClientMessage in [.newGame, .settings(["maxWrongGuesses": 5]), .kick(player: "p1"), .makeHost(player: "p2")] {
            fixture.room.receive(message, from: bob.id)
        }
        try await fixture.sync([bob])
        #expect(fixture.views[bob.id]!.errors.map { $0["code"]!.stringValue! } == Array(repeating: "host-only", count: 4))
    }

    @Test func settingsApplyToTheNextGameOnly() async throws {
        var fixture = try await Fixture()
        fixture.room.receive(.settings(["maxWrongGuesses": 4]), from: fixture.host.id)
        try await fixture.sync([fixture.host])
        let snowman = fixture.views[fixture.host.id]!.state["snowman"]!
        #expect(snowman["maxWrongGuesses"]?.intValue == 7)
        #expect(snowman["nextSettings"]?["maxWrongGuesses"]?.intValue == 4)
        fixture.room.receive(.settings(["maxWrongGuesses": 11]), from: fixture.host.id)
        fixture.room.receive(.settings(["colour": 1]), from: fixture.host.id)
        try await fixture.sync([fixture.host])
        #expect(fixture.views[fixture.host.id]!.errors.map { $0["code"]!.stringValue! } == ["setting-out-of-range", "bad-setting"])
    }

    @Test func kickedPlayerIsClosedAndCannotReturn() async throws {
        var fixture = try await Fixture()
        let bob = fixture.join("Bob")
        try await fixture.sync([fixture.host, bob])
        let token = try #require(fixture.views[bob.id]!.token)
        fixture.room.receive(.kick(player: "p2"), from: fixture.host.id)
        try await fixture.sync([fixture.host, bob])
        #expect(bob.closeReasons == [.removedByHost])
        #expect(fixture.views[bob.id]!.errors.last?["code"]?.stringValue == "kicked")
        let back = MemoryLink()
        fixture.room.join(back, name: "Bob", token: ResumeToken(token), lastSeq: nil, spectator: false)
        try await fixture.sync([back, fixture.host])
        #expect(fixture.views[back.id]!.errors.last?["code"]?.stringValue == "kicked")
        #expect(fixture.views[fixture.host.id]!.state["members"]!.arrayValue!.count == 1)
    }

    @Test func hostPassesToTheLongestPresentPlayerOnLeave() async throws {
        var fixture = try await Fixture()
        let bob = fixture.join("Bob")
        let cleo = fixture.join("Cleo")
        try await fixture.sync([bob, cleo])
        fixture.room.receive(.leave, from: fixture.host.id)
        try await fixture.sync([bob, cleo])
        #expect(fixture.views[cleo.id]!.state["host"]?.stringValue == "p2")
        fixture.room.receive(.makeHost(player: "p3"), from: bob.id)
        try await fixture.sync([bob, cleo])
        #expect(fixture.views[cleo.id]!.state["host"]?.stringValue == "p3")
    }

    @Test func resumeWithTokenGetsMissedPatchesAndKeepsTheSeat() async throws {
        var fixture = try await Fixture()
        let bob = fixture.join("Bob")
        try await fixture.sync([fixture.host, bob])
        let bobView = fixture.views[bob.id]!
        fixture.room.disconnected(bob.id)
        fixture.room.receive(.chat("are you there?"), from: fixture.host.id)
        fixture.room.receive(.guess("e"), from: fixture.host.id)
        try await fixture.sync([fixture.host])
        let back = MemoryLink()
        fixture.room.join(back, name: nil, token: ResumeToken(bobView.token!), lastSeq: bobView.seq, spectator: false)
        var view = bobView
        await fixture.room.settled()
        let messages = back.drain()
        #expect(messages.first?["resumed"]?.boolValue == true)
        try view.apply(messages)
        let (seq, state) = await fixture.room.snapshot()
        #expect(view.seq == seq)
        #expect(view.state == state)
        #expect(view.you == "p2")
        let bobMember = state["members"]!.arrayValue!.first { $0["id"]?.stringValue == "p2" }
        #expect(bobMember?["connected"]?.boolValue == true)
    }

    @Test func resumeTooFarBehindGetsTheFullState() async throws {
        var configuration = RoomConfiguration()
        configuration.patchHistory = 2
        var fixture = try await Fixture(configuration: configuration)
        let (bob, token) = try await fixture.joinSynced("Bob")
        let oldSeq = fixture.views[bob.id]!.seq
        fixture.room.disconnected(bob.id)
        for line in ["one", "two", "three", "four"] {
            fixture.room.receive(.chat(line), from: fixture.host.id)
        }
        let back = MemoryLink()
        fixture.room.join(back, name: nil, token: ResumeToken(token), lastSeq: oldSeq, spectator: false)
        await fixture.room.settled()
        let welcome = try #require(back.drain().first)
        #expect(welcome["resumed"] == nil)
        let chat = welcome["state"]?["chat"]?.arrayValue?.compactMap { $0["text"]?.stringValue }
        #expect(chat == ["Bob joined", "one", "two", "three", "four"])
    }

    /// The history is bounded by bytes as well as by count: a resume that missed more than the room keeps gets the
    /// whole state (and that state is the one the others have); one that missed less gets the patches.
    @Test func resumeBeyondTheHistoryBytesGetsTheFullState() async throws {
        var configuration = RoomConfiguration()
        configuration.patchHistoryBytes = 600
        var fixture = try await Fixture(configuration: configuration)
        let (bob, token) = try await fixture.joinSynced("Bob")
        fixture.room.disconnected(bob.id)
        try await fixture.sync([fixture.host])
        let afterDisconnect = fixture.views[fixture.host.id]!.seq

        // One short line: well inside 600 bytes of patches.
        fixture.room.receive(.chat("one"), from: fixture.host.id)
        try await fixture.sync([fixture.host])
        let near = MemoryLink()
        fixture.room.join(near, name: nil, token: ResumeToken(token), lastSeq: afterDisconnect, spectator: false)
        await fixture.room.settled()
        let nearMessages = near.drain()
        #expect(nearMessages.first?["resumed"]?.boolValue == true)
        #expect(nearMessages.dropFirst().first?["type"]?.stringValue == "patch")
        fixture.room.disconnected(near.id)
        try await fixture.sync([fixture.host])
        let afterSecondDisconnect = fixture.views[fixture.host.id]!.seq

        // Far more than 600 bytes of patches: each line's patch alone is over 100.
        for number in 1...12 {
            fixture.room.receive(.chat("line number \(number) of a long absence"), from: fixture.host.id)
        }
        try await fixture.sync([fixture.host])
        let far = MemoryLink()
        fixture.room.join(far, name: nil, token: ResumeToken(token), lastSeq: afterSecondDisconnect, spectator: false)
        await fixture.room.settled()
        let welcome = try #require(far.drain().first)
        #expect(welcome["resumed"] == nil)
        let (_, state) = await fixture.room.snapshot()
        #expect(welcome["state"]?["chat"] == state["chat"])
        #expect(welcome["state"]?["chat"]?.arrayValue?.last?["text"]?.stringValue == "line number 12 of a long absence")
    }

    @Test func resumeReplacesAnOlderConnection() async throws {
        var fixture = try await Fixture()
        try await fixture.sync([fixture.host])
        let token = fixture.views[fixture.host.id]!.token!
        let tab = MemoryLink()
        fixture.room.join(tab, name: nil, token: ResumeToken(token), lastSeq: nil, spectator: false)
        await fixture.room.settled()
        #expect(fixture.host.closeReasons == [.replaced])
        #expect(tab.drain().first?["you"]?.stringValue == "p1")
    }

    @Test func seatIsReleasedAfterTheGracePeriod() async throws {
        // The default grace: the clock is moved by hand, so a long period costs the test nothing.
        let grace = RoomConfiguration().resumeGraceSeconds
        var fixture = try await Fixture()
        let (bob, token) = try await fixture.joinSynced("Bob")
        fixture.room.disconnected(bob.id)
        await fixture.room.settled()
        await fixture.timers.advance(by: grace - 0.01) { await fixture.room.settled() }
        try await fixture.sync([fixture.host])
        #expect(fixture.views[fixture.host.id]!.state["members"]!.arrayValue!.count == 2, "the grace is not over")
        await fixture.timers.advance(by: 0.02) { await fixture.room.settled() }
        try await fixture.sync([fixture.host])
        #expect(fixture.views[fixture.host.id]!.state["members"]!.arrayValue!.count == 1)
        let late = MemoryLink()
        fixture.room.join(late, name: nil, token: ResumeToken(token), lastSeq: nil, spectator: false)
        await fixture.room.settled()
        #expect(late.drain().first?["code"]?.stringValue == "seat-expired")
    }

    @Test func aRoomOnlyItsCreatorJoinedIsDisposedSoonAfterThey() async throws {
        let grace = RoomConfiguration().creatorOnlyRoomGraceSeconds
        let fixture = try await Fixture()
        fixture.room.disconnected(fixture.host.id)
        await fixture.expectDisposed(after: grace)
    }

    @Test func emptyRoomIsDisposedAfterItsGracePeriod() async throws {
        let grace = RoomConfiguration().emptyRoomGraceSeconds
        let fixture = try await Fixture()
        #expect(await fixture.registry.count == 1)
        // Someone besides the creator came by: the room has the whole grace (see the next test).
        let guest = fixture.join("Bob")
        fixture.room.disconnected(guest.id)
        fixture.room.disconnected(fixture.host.id)
        await fixture.expectDisposed(after: grace)
        #expect(await fixture.registry.room(fixture.room.code) == nil)
    }

    @Test func chatIsBoundedAndCleaned() async throws {
        var fixture = try await Fixture()
        for index in 0..<40 {
            fixture.room.receive(.chat("  line \u{3000}\(index)  "), from: fixture.host.id)
        }
        fixture.room.receive(.chat("   "), from: fixture.host.id)
        fixture.room.receive(.chat(String(repeating: "y", count: 201)), from: fixture.host.id)
        // What the name rules refuse, a chat line refuses too, saying why.
        fixture.room.receive(.chat("two\nlines"), from: fixture.host.id)
        fixture.room.receive(.chat("gro\u{202E}olk"), from: fixture.host.id)
        fixture.room.receive(.chat("\u{200B}\u{2060}"), from: fixture.host.id)
        try await fixture.sync([fixture.host])
        let chat = fixture.views[fixture.host.id]!.state["chat"]!.arrayValue!
        #expect(chat.count == 30)
        #expect(chat.last?["text"]?.stringValue == "line 39")
        let errors = fixture.views[fixture.host.id]!.errors
        #expect(errors.map { $0["code"]!.stringValue! } == ["empty-chat", "too-long", "bad-chat", "bad-chat", "bad-chat"])
        #expect(errors.suffix(3).map { $0["message"]!.stringValue! } == [
            "Chat messages cannot contain control characters such as tabs or line breaks.",
            "Chat messages cannot contain characters that reverse the direction of text.",
            "Chat messages cannot be only spaces or invisible characters.",
        ])
    }

    @Test func aGuessInABigRoundSendsASmallPatch() async throws {
        var fixture = try await Fixture()
        let bob = fixture.join("Bob")
        for index in 0..<25 {
            fixture.room.receive(.chat("message \(index)"), from: bob.id)
        }
        try await fixture.sync([fixture.host, bob])
        fixture.room.receive(.guess("e"), from: fixture.host.id)
        await fixture.room.settled()
        let patch = try #require(bob.drain().last)
        let bytes = JSONWriter().serialize(patch)
        #expect(patch["type"]?.stringValue == "patch")
        #expect(bytes.count < 700)
    }

    @Test func thousandsOfRandomMovesKeepEveryClientOnTheSnapshot() async throws {
        var fixture = try await Fixture(seed: 42)
        var generator = SplitMix64(seed: 7)
        var links = [fixture.host]
        for name in ["Bob", "Cleo", "Dev"] {
            links.append(fixture.join(name))
        }
        links.append(fixture.join("Eve", spectator: true))
        try await fixture.sync(links)
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        for step in 0..<3000 {
            let link = links[Int.random(in: 0..<links.count, using: &generator)]
            let message: ClientMessage
            switch Int.random(in: 0..<10, using: &generator) {
            case 0: message = .newGame
            case 1: message = .chat("step \(step)")
            case 2: message = .settings(["maxWrongGuesses": .integer(Int64.random(in: 3...10, using: &generator))])
            default: message = .guess(String(letters[Int.random(in: 0..<26, using: &generator)]))
            }
            fixture.room.receive(message, from: link.id)
            if step % 100 == 99 {
                try await fixture.sync(links)
            }
        }
        try await fixture.sync(links)
        let (seq, state) = await fixture.room.snapshot()
        #expect(seq > 100)
        for link in links {
            #expect(fixture.views[link.id]!.state == state)
            #expect(fixture.views[link.id]!.gaps == 0)
        }
        let history = state["snowman"]!["history"]!.arrayValue!
        #expect(!history.isEmpty)
    }

    @Test func scrambleRoundEndsByTheClockAndRevealsMissedWords() async throws {
        var fixture = try await Fixture(.scramble, settings: ["roundSeconds": 30, "rounds": 3], start: 1_000)
        let bob = fixture.join("Bob")
        let links = [fixture.host, bob]
        fixture.room.receive(.newGame, from: fixture.host.id)
        try await fixture.sync(links)
        let scramble = fixture.views[bob.id]!.state["scramble"]!
        #expect(scramble["phase"]?.stringValue == "playing")
        let root = try #require(scramble["root"]?.stringValue).lowercased()
        // Unshown words are accepted but neither counted nor listed as missed.
        let valid = RoomTests.lists.lexicon.words(spelledFrom: root, minimumLength: 3)
            .filter { $0 != root && RoomTests.lists.lexicon.isShown($0) }
        #expect(scramble["totalWords"]?.intValue == valid.count)
        // Nothing sent so far names a valid word: the list stays secret while the round runs.
        let everything = String(decoding: JSONWriter().serialize(scramble), as: UTF8.self)
        #expect(!valid.contains { everything.contains("\"\($0)\"") })
        fixture.room.receive(.word(valid[0]), from: bob.id)
        fixture.room.receive(.word(valid[0]), from: fixture.host.id)
        fixture.room.receive(.word("zzzz"), from: fixture.host.id)
        try await fixture.sync(links)
        #expect(fixture.views[fixture.host.id]!.errors.map { $0["code"]!.stringValue! } == ["already-found", "cannot-spell"])
        await fixture.timers.advance(by: 31) { await fixture.room.settled() }
        try await fixture.sync(links)
        let after = fixture.views[bob.id]!.state["scramble"]!
        #expect(after["phase"]?.stringValue == "intermission")
        #expect(after["lastRound"]?["missed"]?.arrayValue?.count == valid.count - 1)
        #expect(after["scores"]?.arrayValue?.first { $0["player"]?.stringValue == "p2" }?["score"]?.intValue == valid[0].count)
    }

    @Test func publicRoomsAreListedForTheLobby() async throws {
        let fixture = try await Fixture()
        // The room reported its summary to the registry while seating Ana, before `settled` returned: the
        // registry's queue has it ahead of this call.
        await fixture.room.settled()
        let rooms = await fixture.registry.publicRooms()
        #expect(rooms.map(\.code) == [fixture.room.code])
        #expect(rooms.first?.players == 1)
    }

    /// Issue 43: the lobby showed a locked room with a plain Join.
    @Test func theLobbyListsWhetherARoomIsLocked() async throws {
        let fixture = try await Fixture()
        #expect(await fixture.registry.publicRooms().first?.locked == false)
        fixture.room.receive(.lock(true), from: fixture.host.id)
        await fixture.room.settled()
        let locked = try #require(await fixture.registry.publicRooms().first)
        #expect(locked.locked)
        #expect(locked.json["locked"] == JSONValue(true))
        fixture.room.receive(.lock(false), from: fixture.host.id)
        await fixture.room.settled()
        #expect(await fixture.registry.publicRooms().first?.locked == false)
    }
}
