import JSON
import Testing
import WordGames
@testable import Rooms
import RoomsTestSupport

/// The builder edits its kept state in place and emits operations for what changed. Whatever the edits, the
/// operations must turn the previous state into the new one, and the new state must equal a fresh build.
@Suite struct RoomStateBuilderTests {
    static let lists = RoomTests.lists

    private struct Room {
        var builder = RoomStateBuilder()
        var chat: [ChatLine] = []
        var chatIDs = 0
        var game: any RoomGame {
            didSet { gameVersion += 1 }
        }
        /// The Word Scramble game the room plays (the tests below that use it play nothing else).
        var scramble: ScrambleGame {
            get { (game as! ScrambleRoomGame).game }
            set { game = ScrambleRoomGame(game: newValue) }
        }
        var gameVersion = 0
        var previous: JSONValue = .null
        var operations: [JSONPatch.Operation] = []
        /// A room's builder, which keeps no log entries, fed the same parts: what clients get from it must be
        /// what they get from `builder`.
        var lean = RoomStateBuilder(keepingEntries: false)
        /// The state a client of `lean` holds: its patches applied one after another.
        var leanClient: JSONValue = .null

        var parts: RoomStateBuilder.Parts {
            RoomStateBuilder.Parts(code: RoomCode("ABCD")!, kind: game.kind, isPublic: false,
                                   host: PlayerID("p1"), locked: false, bans: [], members: [], membersVersion: 0, chat: chat, game: game,
                                   gameVersion: gameVersion)
        }

        /// Updates the builder and checks its operations and state; returns the operations.
        @discardableResult
        mutating func update() throws -> [JSONPatch.Operation] {
            previous = builder.state
            operations = builder.update(parts)
            #expect(try JSONPatch(operations).apply(to: previous) == builder.state)
            var fresh = RoomStateBuilder()
            _ = fresh.update(parts)
            #expect(builder.state == fresh.state)

            leanClient = try JSONPatch(lean.update(parts)).apply(to: leanClient)
            #expect(leanClient == builder.state, "a client of the lean builder holds another state")
            #expect(lean.shownState(parts) == builder.state, "the lean builder's whole state is not the full one")
            return operations
        }

        mutating func say(_ text: String, limit: Int = 30) {
            chatIDs += 1
            chat.append(ChatLine(id: chatIDs, player: PlayerID("p1"), name: "Ana", text: text, at: 1))
            if chat.count > limit { chat.removeFirst(chat.count - limit) }
        }
    }

    private func scrambleRoom() throws -> Room {
        var game = ScrambleGame(lexicon: Self.lists.lexicon, roots: Self.lists.roots)
        game.addPlayer(Player(id: PlayerID("p1"), name: "Ana"), now: 0)
        var random = SplitMix64(seed: 7)
        try game.startMatch(now: 0, using: &random)
        return Room(game: ScrambleRoomGame(game: game))
    }

    private func solutions(_ room: Room) -> [String] {
        let game = room.scramble
        guard let root = game.view.root?.lowercased() else { return [] }
        return Self.lists.lexicon.words(spelledFrom: root, minimumLength: game.view.minWordLength)
            .filter { $0 != root }
    }

    private func submit(_ word: String, in room: inout Room) throws {
        _ = try room.scramble.submit(word, by: PlayerID("p1"), now: 1)
    }

    @Test func wordsAndChatLinesBecomeEntryOperations() throws {
        var room = try scrambleRoom()
        try room.update()
        let words = solutions(room)
        try #require(words.count >= 6)

        try submit(words[0], in: &room)
        let one = try room.update()
        #expect(one.count >= 1)
        #expect(one.contains { if case .add(let path, _) = $0 { path.description == "/scramble/found/0" } else { false } })

        // Three words between two updates: three adds at the front, newest first.
        for word in words[1...3] { try submit(word, in: &room) }
        let three = try room.update()
        let adds = three.compactMap { operation -> String? in
            if case .add(let path, _) = operation, path.description.hasPrefix("/scramble/found/") { path.description } else { nil }
        }
        #expect(adds == ["/scramble/found/0", "/scramble/found/1", "/scramble/found/2"])

        // A bounded chat: the oldest lines drop off the front as new ones arrive at the back.
        for index in 0..<5 { room.say("line \(index)", limit: 3) }
        try room.update()
        room.say("newest", limit: 3)
        let chat = try room.update()
        #expect(chat.map(\.name) == ["remove", "add"])

        // Nothing changed: no operations.
        #expect(try room.update().isEmpty)
    }

    @Test func aScoreChangeIsAnOperationOnItsLineOnly() throws {
        var game = ScrambleGame(lexicon: Self.lists.lexicon, roots: Self.lists.roots)
        for (id, name) in [("p1", "Ana"), ("p2", "Bo"), ("p3", "Cy")] {
            game.addPlayer(Player(id: PlayerID(id), name: name), now: 0)
        }
        var random = SplitMix64(seed: 7)
        try game.startMatch(now: 0, using: &random)
        var room = Room(game: ScrambleRoomGame(game: game))
        try room.update()
        let word = try #require(solutions(room).first)
        _ = try room.scramble.submit(word, by: PlayerID("p2"), now: 1)
        let paths = try room.update().map { $0.path.description }
        // Bo's line of the scores (second of three) changes in place; the other lines are not touched.
        #expect(paths.contains("/scramble/scores/1"))
        #expect(!paths.contains { $0 == "/scramble/scores" || $0.hasPrefix("/scramble/scores/0") || $0.hasPrefix("/scramble/scores/2") })
        // Standings reorder (Bo moves to the top): whole lines or their fields, never the whole list.
        #expect(!paths.contains("/scramble/scoreboard"))
    }

    @Test func aNewRoundReplacesTheFoundWords() throws {
        var room = try scrambleRoom()
        try room.update()
        for word in solutions(room).prefix(2) { try submit(word, in: &room) }
        try room.update()
        _ = room.scramble.tick(now: 10_000)   // past the round's end
        try room.update()
        #expect(room.builder.state["scramble"]?["round"] != nil)
    }

    /// Builders are values: what a copy keeps of the game's part (the lists it edits in place) is its own.
    @Test func aCopiedBuilderKeepsItsOwnParts() throws {
        var room = try scrambleRoom()
        try room.update()
        let words = solutions(room)
        try #require(words.count >= 2)
        let kept = room
        try submit(words[0], in: &room)
        try room.update()
        // The copy still has the state before the word: the same word is an add for it too.
        var copy = kept
        try submit(words[0], in: &copy)
        let operations = try copy.update()
        #expect(operations.contains { if case .add(let path, _) = $0 { path.description == "/scramble/found/0" } else { false } })
        #expect(copy.builder.state == room.builder.state)
    }

    /// A room's builder keeps only the length of each of its own lists (chat lines) and none of the game's part,
    /// whose view the game's differ keeps; its patches carry them all the same (`Room.update` checks them against
    /// the full builder's at every step).
    @Test func aRoomsBuilderKeepsTheListsLengthsOnly() throws {
        var room = try scrambleRoom()
        try room.update()
        for word in solutions(room).prefix(3) { try submit(word, in: &room) }
        room.say("hello")
        room.say("again")
        try room.update()
        #expect(room.lean.state["chat"] == 2)
        #expect(room.lean.state["scramble"] == .null)
        #expect(room.builder.state["scramble"]?["found"]?[0]?["word"] != nil)
        #expect(room.builder.state["scramble"]?["scores"]?[0]?["player"] == "p1")
        // The round ends: its words are shown as the last round's (kept as their count too), and the found words
        // start again.
        let end = try #require(room.scramble.view.phaseEndsAt)
        _ = room.scramble.tick(now: end + 0.01)
        try room.update()
        #expect(room.builder.state["scramble"]?["lastRound"]?["found"]?.arrayValue?.count == 3)
        #expect(room.lean.state["scramble"] == .null)
        _ = room.scramble.tick(now: 10_000)
        try room.update()
        #expect(room.builder.state["scramble"]?["found"] == [])
        // More lines than one update sends one by one: the chat is sent whole.
        for index in 0..<12 { room.say("line \(index)", limit: 10) }
        let operations = try room.update()
        #expect(operations.contains { $0.path.description == "/chat" })
        #expect(room.lean.state["chat"] == 10)
    }

    /// A Snowman game played to its end through a room's builder: guesses, the finished game's record and the
    /// next game, each patch the full builder's.
    @Test func aSnowmanGameThroughARoomsBuilder() throws {
        var random = SplitMix64(seed: 11)
        var game = SnowmanGame(words: Self.lists.secrets, now: 0, using: &random)
        game.addPlayer(Player(id: PlayerID("p1"), name: "Ana"), now: 0)
        var room = Room(game: SnowmanRoomGame(game: game))
        try room.update()
        for letter in "etaoinshrdlucmfwypvbgkjqxz" {
            var snowman = (room.game as! SnowmanRoomGame).game
            guard snowman.view.status == .inProgress else { break }
            _ = try? snowman.guess(String(letter), by: PlayerID("p1"), now: 1)
            room.game = SnowmanRoomGame(game: snowman)
            room.say("guessed \(letter)")
            try room.update()
        }
        #expect(room.builder.state["snowman"]?["history"]?.arrayValue?.count == 1)
        #expect(room.lean.state["snowman"] == .null)
        var finished = (room.game as! SnowmanRoomGame).game
        try finished.startNextGame(now: 2, using: &random)
        room.game = SnowmanRoomGame(game: finished)
        try room.update()
        #expect(room.builder.state["snowman"]?["guesses"] == [])
        #expect(room.builder.state["snowman"]?["history"]?[0]?["word"] != nil)
    }

    /// A member's connection changes before the room publishes it (a resume queues its patch): the whole state
    /// written meanwhile is still the one clients have, with the member as last shown.
    @Test func theWholeStateShowsTheMembersAsLastPublished() throws {
        var random = SplitMix64(seed: 3)
        var game = SnowmanGame(words: Self.lists.secrets, now: 0, using: &random)
        game.addPlayer(Player(id: PlayerID("p1"), name: "Ana"), now: 0)
        game.addPlayer(Player(id: PlayerID("p2"), name: "Bo"), now: 0)
        let members = [("p1", "Ana"), ("p2", "Bo")].map { id, name in
            Member(id: PlayerID(id), name: name, token: ResumeToken.random(), isSpectator: false, link: nil,
                   disconnectedAt: nil)
        }
        var parts = RoomStateBuilder.Parts(code: RoomCode("ABCD")!, kind: .snowman, isPublic: true,
                                           host: PlayerID("p1"), locked: false, bans: [], members: members,
                                           membersVersion: 1, chat: [], game: SnowmanRoomGame(game: game),
                                           gameVersion: 0)
        parts.shownConnected = [PlayerID("p1"), PlayerID("p2")]
        var builder = RoomStateBuilder(keepingEntries: false)
        let client = try JSONPatch(builder.update(parts)).apply(to: .null)
        #expect(builder.state["members"] == 2)
        #expect(client["members"]?[1]?["connected"] == true)

        parts.shownConnected = [PlayerID("p1")]
        parts.membersVersion = 2
        #expect(builder.shownState(parts) == client, "Bo is shown as the last patch left him")
        let operations = builder.update(parts)
        #expect(operations.map(\.path.description) == ["/members/1/connected"])
        let after = try JSONPatch(operations).apply(to: client)
        #expect(after["members"]?[1]?["connected"] == false)
        #expect(builder.shownState(parts) == after)
    }

    @Test func restoredStateIsDiffedInFull() throws {
        var builder = RoomStateBuilder()
        let restored: JSONValue = ["code": "ABCD", "stale": true]
        builder.restore(restored)
        var random = SplitMix64(seed: 3)
        var game = SnowmanGame(words: Self.lists.secrets, now: 0, using: &random)
        game.addPlayer(Player(id: PlayerID("p1"), name: "Ana"), now: 0)
        let parts = RoomStateBuilder.Parts(code: RoomCode("ABCD")!, kind: .snowman, isPublic: true, host: PlayerID("p1"),
                                           locked: false, bans: [], members: [], membersVersion: 0, chat: [], game: SnowmanRoomGame(game: game),
                                           gameVersion: 0)
        let operations = builder.update(parts)
        #expect(try JSONPatch(operations).apply(to: restored) == builder.state, "from what clients have")
        #expect(builder.state["stale"] == nil)
        #expect(builder.update(parts).isEmpty)
    }
}

/// Chat text is stored with whitespace collapsed; the ASCII fast path must agree with the general rule.
@Suite struct ChatWhitespaceTests {
    @Test(arguments: [
        ("hello there", "hello there"),
        ("  hello   there  ", "hello there"),
        ("tab\tand\nnewline", "tab and newline"),
        ("", ""),
        ("   ", ""),
        ("x", "x"),
        ("café  au lait", "café au lait"),
        ("no\u{00A0}break", "no break"),
    ])
    func collapses(_ input: String, _ expected: String) {
        #expect(Room.collapsingWhitespace(input) == expected)
        #expect(Room.collapsingWhitespace(input) == input.split(whereSeparator: { $0.isWhitespace }).joined(separator: " "))
    }
}
