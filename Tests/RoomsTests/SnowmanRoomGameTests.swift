import JSON
import Testing
import WordGames
@testable import Rooms
import RoomsTestSupport

/// Snowman in a room: the waiting room, word packs, the host's own words, renames and result notices.
@Suite struct SnowmanRoomGameTests {
    typealias Fixture = RoomTests.Fixture

    /// Ten words of the host's own, none of them in the general secrets.
    static let tenWords = ["zorbing", "quokkas", "fjordic", "glimmerz", "snorkelz", "wizzard", "plonked", "quixotz",
                           "jazzbow", "kazooie"]

    /// The error codes `link` got.
    static func codes(_ fixture: Fixture, _ link: MemoryLink) -> [String] {
        fixture.views[link.id]?.errors.compactMap { $0["code"]?.stringValue } ?? []
    }

    static func snowman(_ fixture: Fixture, _ link: MemoryLink) -> JSONValue? {
        fixture.views[link.id]?.state["snowman"]
    }

    static func text(_ value: JSONValue) -> String {
        String(decoding: JSONWriter().serialize(value), as: UTF8.self)
    }

    /// The game's secret, from its snapshot (the only place it is before the game is over).
    static func secret(_ game: SnowmanRoomGame) throws -> String {
        try #require(game.snapshot["secret"]?.stringValue)
    }

    /// Guesses every letter of the secret, by `player`, the only player.
    static func solve(_ game: inout SnowmanRoomGame, by player: PlayerID) throws {
        for letter in Set(try secret(game)) {
            try game.play(GameMove(type: "guess", text: String(letter)), by: player, now: 0)
        }
    }

    // MARK: Waiting for the host

    @Test func aRoomCreatedWithWaitForHostWaitsWithoutWordTurnOrTimer() async throws {
        var fixture = try await Fixture(settings: ["waitForHost": true, "turnSeconds": 30])
        let bob = fixture.join("Bob")
        try await fixture.sync([fixture.host, bob])
        let snowman = try #require(Self.snowman(fixture, bob))
        #expect(snowman["status"] == "waiting")
        #expect(snowman["gameNumber"] == 0)
        #expect(snowman["positions"] == [])
        #expect(snowman["turn"] == .null)
        #expect(snowman["turnEndsAt"] == .null)
        #expect(snowman["word"] == .null)
        #expect(snowman["canStartNext"] == true)
        #expect(snowman["statusLine"] == "Waiting for the host to start the game")
        #expect(snowman["scores"]?.arrayValue?.count == 2)
        // Not a setting: neither shown nor kept.
        #expect(snowman["settings"]?["waitForHost"] == nil)
        #expect(snowman["nextSettings"]?["waitForHost"] == nil)
        let record = await fixture.room.record(version: 1)
        #expect(!Self.text(record.snapshot).contains("waitForHost"))
        // The lobby and `peek` say so too.
        let peeker = MemoryLink()
        fixture.room.peek(peeker)
        await fixture.room.settled()
        #expect(peeker.drain().first?["status"] == "waiting")
        #expect(await fixture.registry.publicRooms().first?.status == "waiting")
    }

    @Test func guessesAndSkipsAreRefusedUntilTheHostStartsTheGame() async throws {
        var fixture = try await Fixture(settings: ["waitForHost": true])
        let bob = fixture.join("Bob")
        try await fixture.sync([fixture.host, bob])
        fixture.room.receive(.guess("e"), from: fixture.host.id)
        fixture.room.receive(.guess("e"), from: bob.id)
        fixture.room.receive(.skip, from: fixture.host.id)
        fixture.room.receive(.newGame, from: bob.id)
        try await fixture.sync([fixture.host, bob])
        #expect(Self.codes(fixture, fixture.host) == ["game-not-started", "game-not-started"])
        #expect(Self.codes(fixture, bob) == ["game-not-started", "host-only"])
        let refusal = try #require(fixture.views[bob.id]?.errors.first)
        #expect(refusal["move"] == "guess")
        #expect(refusal["title"] == "Game not started")
        #expect(refusal["message"]?.stringValue?.contains("has not started yet") == true)
        #expect(Self.snowman(fixture, bob)?["guesses"] == [])

        fixture.room.receive(.newGame, from: fixture.host.id)
        try await fixture.sync([fixture.host, bob])
        let snowman = try #require(Self.snowman(fixture, bob))
        #expect(snowman["status"] == "inProgress")
        #expect(snowman["gameNumber"] == 1)
        #expect(snowman["turn"] == "p1")
        #expect(snowman["turnEndsAt"]?.doubleValue != nil, "new rooms have a turn timer")
        #expect((snowman["positions"]?.arrayValue?.count ?? 0) >= 4)
        fixture.room.receive(.guess("e"), from: fixture.host.id)
        try await fixture.sync([fixture.host])
        #expect(Self.codes(fixture, fixture.host).count == 2, "the guess is taken now")
    }

    @Test func playersJoinAndLeaveWhileWaiting() async throws {
        var fixture = try await Fixture(settings: ["waitForHost": true])
        let bob = fixture.join("Bob")
        let cleo = fixture.join("Cleo")
        try await fixture.sync([fixture.host, bob, cleo])
        fixture.room.receive(.leave, from: bob.id)
        try await fixture.sync([fixture.host, cleo])
        let names = Self.snowman(fixture, cleo)?["scores"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
        #expect(names == ["Ana", "Cleo"])
        #expect(Self.snowman(fixture, cleo)?["status"] == "waiting")
        fixture.room.receive(.newGame, from: fixture.host.id)
        try await fixture.sync([fixture.host, cleo])
        #expect(Self.snowman(fixture, cleo)?["status"] == "inProgress")
        let (_, state) = await fixture.room.snapshot()
        #expect(fixture.views[cleo.id]?.state == state)
    }

    @Test func withoutWaitForHostTheFirstGameStartsAtOnce() async throws {
        var fixture = try await Fixture(settings: ["waitForHost": false])
        try await fixture.sync([fixture.host])
        #expect(Self.snowman(fixture, fixture.host)?["status"] == "inProgress")
        #expect(Self.snowman(fixture, fixture.host)?["gameNumber"] == 1)
    }

    @Test func waitForHostIsACreateOptionOnly() async throws {
        var random = SplitMix64(seed: 1)
        #expect(throws: RoomError.self) {
            try SnowmanRoomGame.make(settings: ["waitForHost": "yes"], lists: RoomTests.lists, now: 0, using: &random)
        }
        let error = try #require(throws: RoomError.self) {
            try SnowmanRoomGame.make(settings: ["waitForHost": 1], lists: RoomTests.lists, now: 0, using: &random)
        }
        #expect(error.code == "bad-setting")
        #expect(error.message == #""waitForHost" must be true or false."#)
        var fixture = try await Fixture()
        fixture.room.receive(.settings(["waitForHost": true]), from: fixture.host.id)
        try await fixture.sync([fixture.host])
        #expect(Self.codes(fixture, fixture.host) == ["bad-setting"])
    }

    @Test func aWaitingRoomComesBackWaiting() throws {
        var random = SplitMix64(seed: 1)
        var game = try SnowmanRoomGame.make(settings: ["waitForHost": true], lists: RoomTests.lists, now: 0,
                                            using: &random)
        game.addPlayer(Player(id: "p1", name: "Ana"), now: 0)
        let restored = try SnowmanRoomGame(snapshot: game.snapshot, lists: RoomTests.lists)
        #expect(restored.status == "waiting")
        #expect(restored.game.status == .waiting)
        #expect(restored.snapshot == game.snapshot)
        #expect(game.snapshot["status"] == "waiting")
        var started = restored
        try started.startNext(now: 1, using: &random)
        #expect(started.status == "playing")
    }

    // MARK: Word packs

    @Test func aPackChosenAtCreateGivesTheFirstSecret() async throws {
        let animals = try #require(RoomTests.lists.pack("animals")).words.words
        for seed: UInt64 in 1...5 {
            let fixture = try await Fixture(settings: ["pack": "animals"], seed: seed)
            let secret = try #require(await fixture.room.record(version: 1).snapshot["secret"]?.stringValue)
            #expect(animals.contains(secret), "\(secret)")
        }
        var fixture = try await Fixture(settings: ["pack": "food"])
        try await fixture.sync([fixture.host])
        #expect(Self.snowman(fixture, fixture.host)?["settings"]?["pack"] == "food")
    }

    @Test func aPackChosenLaterAppliesToTheNextGame() async throws {
        var fixture = try await Fixture(settings: ["waitForHost": true])
        fixture.room.receive(.settings(["pack": "home"]), from: fixture.host.id)
        try await fixture.sync([fixture.host])
        #expect(Self.snowman(fixture, fixture.host)?["settings"]?["pack"] == "general")
        #expect(Self.snowman(fixture, fixture.host)?["nextSettings"]?["pack"] == "home")
        fixture.room.receive(.newGame, from: fixture.host.id)
        try await fixture.sync([fixture.host])
        #expect(Self.snowman(fixture, fixture.host)?["settings"]?["pack"] == "home")
        let secret = try #require(await fixture.room.record(version: 1).snapshot["secret"]?.stringValue)
        #expect(try #require(RoomTests.lists.pack("home")).words.words.contains(secret))
    }

    @Test(arguments: [JSONValue("sports"), JSONValue(3), JSONValue.null])
    func anUnknownPackIsRefusedNamingThePacks(pack: JSONValue) async throws {
        var fixture = try await Fixture()
        fixture.room.receive(.settings(["pack": pack]), from: fixture.host.id)
        try await fixture.sync([fixture.host])
        let error = try #require(fixture.views[fixture.host.id]?.errors.first)
        #expect(error["code"] == "bad-setting")
        #expect(error["title"] == "Unknown word pack")
        let message = try #require(error["message"]?.stringValue)
        #expect(message.hasSuffix(#"Choose one of "general" (General), "animals" (Animals), "food" (Food), "#
            + #""nature" (Nature), "home" (Around the house)."#))
        #expect(Self.snowman(fixture, fixture.host)?["nextSettings"]?["pack"] == "general")
    }

    @Test func aCreateWithAnUnknownPackIsRefused() async throws {
        let registry = RoomRegistry(lists: RoomTests.lists, seed: 1)
        await #expect(throws: RoomError.self) {
            try await registry.create(.snowman, isPublic: true, settings: ["pack": "sports"], creator: MemoryLink(),
                                      name: "Ana")
        }
        #expect(await registry.count == 0)
    }

    // MARK: Custom words

    @Test func theHostsWordsAreCountedButNeverSent() async throws {
        var fixture = try await Fixture(settings: ["waitForHost": true])
        let bob = fixture.join("Bob")
        let cleo = fixture.join("Cleo", spectator: true)
        let links = [fixture.host, bob, cleo]
        try await fixture.sync(links)
        var sent: [JSONValue] = []
        fixture.room.receive(.settings(["customWords": JSONValue(Self.tenWords.joined(separator: "\n")),
                                        "wordSource": "custom"]), from: fixture.host.id)
        await fixture.room.settled()
        for link in links {
            let messages = link.drain()
            sent += messages
            try fixture.views[link.id, default: ClientView()].apply(messages)
        }
        let next = try #require(Self.snowman(fixture, bob)?["nextSettings"])
        #expect(next == ["maxWrongGuesses": 7, "turnSeconds": 60, "pack": "general", "wordSource": "custom",
                         "customWords": 10])
        #expect(Self.snowman(fixture, bob)?["settings"]?["customWords"] == 0)
        // The game: the secret is one of them, and still no message names any of them.
        fixture.room.receive(.newGame, from: fixture.host.id)
        fixture.room.receive(.resync, from: bob.id)
        await fixture.room.settled()
        for link in links { sent += link.drain() }
        let secret = try #require(await fixture.room.record(version: 1).snapshot["secret"]?.stringValue)
        #expect(Self.tenWords.map { $0.uppercased() }.contains(secret))
        let everything = sent.map { Self.text($0).uppercased() }.joined()
        #expect(sent.count >= 6)
        for word in Self.tenWords {
            #expect(!everything.contains(word.uppercased()), "\(word) was sent")
        }
        // The room's snapshot keeps them, for a restart.
        let saved = await fixture.room.record(version: 1).snapshot["nextSettings"]?["customWords"]
        #expect(saved == .array(Self.tenWords.map { JSONValue($0.uppercased()) }))
    }

    @Test func aBadListIsRefusedNamingEveryBadLine() async throws {
        var fixture = try await Fixture()
        let text = (["igloo", "ice cream", "mitten", "ski"] + Self.tenWords).joined(separator: "\n")
        fixture.room.receive(.settings(["customWords": JSONValue(text)]), from: fixture.host.id)
        fixture.room.receive(.settings(["customWords": 12]), from: fixture.host.id)
        fixture.room.receive(.settings(["customWords": "igloo, mitten, scarf"]), from: fixture.host.id)
        fixture.room.receive(.settings(["wordSource": "mixed"]), from: fixture.host.id)
        fixture.room.receive(.settings(["wordSource": "mine"]), from: fixture.host.id)
        try await fixture.sync([fixture.host])
        let errors = try #require(fixture.views[fixture.host.id]?.errors)
        #expect(errors.map { $0["code"]?.stringValue } == ["bad-words", "bad-words", "bad-words", "bad-words",
                                                             "bad-setting"])
        #expect(errors[0]["message"] == .string(#"The word list has 2 invalid entries: line 2: "ice cream" has "#
            + #"characters other than the letters A-Z; line 4: "ski" has 3 letters (words need 4 to 10)."#))
        #expect(errors[0]["move"] == "settings")
        #expect(errors[2]["message"]?.stringValue?.contains("needs at least 10") == true)
        #expect(errors[3]["title"] == "No words of your own")
        #expect(errors[4]["message"]?.stringValue?.contains(#""mine" is not a word source"#) == true)
        #expect(Self.snowman(fixture, fixture.host)?["nextSettings"]?["customWords"] == 0)
    }

    @Test func anEmptyListClearsTheWordsAndFallsBackToThePack() async throws {
        var fixture = try await Fixture()
        fixture.room.receive(.settings(["customWords": JSONValue(Self.tenWords.joined(separator: ",")),
                                        "wordSource": "mixed", "pack": "nature"]), from: fixture.host.id)
        try await fixture.sync([fixture.host])
        #expect(Self.snowman(fixture, fixture.host)?["nextSettings"]?["wordSource"] == "mixed")
        fixture.room.receive(.settings(["customWords": ""]), from: fixture.host.id)
        try await fixture.sync([fixture.host])
        let next = Self.snowman(fixture, fixture.host)?["nextSettings"]
        #expect(next?["customWords"] == 0)
        #expect(next?["wordSource"] == "pack")
        #expect(next?["pack"] == "nature")
        #expect(await fixture.room.record(version: 1).snapshot["nextSettings"]?["customWords"] == nil)
        #expect(Self.codes(fixture, fixture.host).isEmpty)
    }

    @Test func customWordsSurviveASnapshot() throws {
        var random = SplitMix64(seed: 3)
        var game = try SnowmanRoomGame.make(settings: [:], lists: RoomTests.lists, now: 0, using: &random)
        try game.updateSettings(["customWords": JSONValue(Self.tenWords.joined(separator: "\n")), "wordSource": "custom",
                                 "pack": "food"])
        var restored = try SnowmanRoomGame(snapshot: game.snapshot, lists: RoomTests.lists)
        #expect(restored.game.nextSettings == game.game.nextSettings)
        #expect(restored.game.nextSettings.customWords?.count == 10)
        restored.addPlayer(Player(id: "p1", name: "Ana"), now: 0)
        try Self.solve(&restored, by: "p1")
        try restored.startNext(now: 1, using: &random)
        #expect(Self.tenWords.map { $0.uppercased() }.contains(try Self.secret(restored)))
        // A saved list that would not be accepted today makes the snapshot unreadable, not a broken game.
        var corrupt = game.snapshot
        corrupt["nextSettings"]?["customWords"] = ["ICE"]
        #expect(throws: SavedObject.Unreadable.self) {
            try SnowmanRoomGame(snapshot: corrupt, lists: RoomTests.lists)
        }
    }

    // MARK: Renames and result notices

    @Test func resultNoticesAreNumberedByFinishedGame() throws {
        var random = SplitMix64(seed: 3)
        var game = try SnowmanRoomGame.make(settings: ["customWords": JSONValue(Self.tenWords.joined(separator: "\n")),
                                                       "wordSource": "custom"],
                                            lists: RoomTests.lists, now: 0, using: &random)
        game.addPlayer(Player(id: "p1", name: "Ana"), now: 0)
        #expect(game.resultNotice == nil)
        let first = try Self.secret(game)
        #expect(Self.tenWords.map { $0.uppercased() }.contains(first))
        try Self.solve(&game, by: "p1")
        let won = try #require(game.resultNotice)
        #expect(won.number == 1)
        #expect(won.text == "Ana solved \(first)")
        let restored = try SnowmanRoomGame(snapshot: game.snapshot, lists: RoomTests.lists)
        #expect(restored.resultNotice?.number == 1, "a restored room keeps the number, so it is not announced again")
        #expect(restored.resultNotice?.text == won.text)

        try game.startNext(now: 1, using: &random)
        #expect(game.resultNotice == nil)
        let second = try Self.secret(game)
        for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ".filter({ !second.contains($0) }) where game.game.status == .inProgress {
            try game.play(GameMove(type: "guess", text: String(letter)), by: "p1", now: 1)
        }
        #expect(game.resultNotice?.number == 2)
        #expect(game.resultNotice?.text == "The snowman melted — the word was \(second)")
    }

    @Test func renamingAPlayerRenamesTheScoresHistoryAndLeaderboard() throws {
        var random = SplitMix64(seed: 3)
        var game = try SnowmanRoomGame.make(settings: [:], lists: RoomTests.lists, now: 0, using: &random)
        game.addPlayer(Player(id: "p1", name: "Ana"), now: 0)
        try Self.solve(&game, by: "p1")
        game.renamePlayer("p1", to: "Annie")
        let object = try #require(game.shownState.objectValue)
        let shown = Self.text(.object(object))
        #expect(!shown.contains("\"Ana\""))
        #expect(object["scores"]?[0]?["name"] == "Annie")
        #expect(object["history"]?[0]?["scores"]?[0]?["name"] == "Annie")
        #expect(object["leaderboard"]?[0]?["name"] == "Annie")
        #expect(game.name(of: "p1") == "Annie")
        #expect(game.resultNotice?.text.hasPrefix("Annie solved ") == true)
    }
}
