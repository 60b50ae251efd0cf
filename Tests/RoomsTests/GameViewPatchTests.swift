import JSON
import Testing
@testable import WordGames
@testable import Rooms
import RoomsTestSupport

/// The games' parts of the state as the framework diffs their views (`JSONViewDiffer`). Whatever the sequence of
/// moves, chat lines, timeouts, players coming and going and new games, the operations of every update must turn
/// the previous state into the new one, and the new state must be the one a fresh full build gives; and the
/// common moves must be small patches (a guess: its letters, the guess, the score and the turn).
@Suite struct GameViewPatchTests {
    static let lists = RoomTests.lists

    /// A room's state as `Room` keeps it: a builder, the game, the chat, and the version bookkeeping that tells
    /// the builder when the move just played is the game's only change.
    struct Table {
        var builder = RoomStateBuilder()
        /// A room's builder (it keeps no list entries) fed the same parts: its clients must get the same state,
        /// by the same path.
        var lean = RoomStateBuilder(keepingEntries: false)
        var leanClient: JSONValue = .null
        var game: any RoomGame {
            didSet { gameVersion &+= 1 }
        }
        var gameVersion = 0
        var chat: [ChatLine] = []
        var chatIDs = 0
        var now = 0.0
        var players: [PlayerID] = []
        var playerCounter = 0
        /// Steps whose operations were checked.
        var updates = 0

        init(_ game: any RoomGame) {
            self.game = game
        }

        var parts: RoomStateBuilder.Parts {
            RoomStateBuilder.Parts(code: RoomCode("ABCD")!, kind: game.kind, isPublic: false, host: players.first,
                                   locked: false, bans: [], members: [], membersVersion: 0, chat: chat, game: game,
                                   gameVersion: gameVersion)
        }

        /// Plays `move` as the room does; true when the game accepted it.
        @discardableResult
        mutating func play(_ type: String, _ text: String, by player: PlayerID) -> Bool {
            let deadlinePassed = game.nextDeadline.map { now >= $0 } ?? false
            do {
                try game.play(GameMove(type: type, text: text), by: player, now: now)
                return true
            } catch {
                // As the room does: a refused move may have moved the game on, once a deadline passed (see
                // `Room.handle`).
                if deadlinePassed { gameVersion &+= 1 }
                return false
            }
        }

        /// The host's `new_game`, as the room makes it (see `play`).
        mutating func startNext(using random: inout SplitMix64) {
            do { try game.startNext(now: now, using: &random) } catch { gameVersion &+= 1 }
        }

        mutating func addPlayer() {
            playerCounter += 1
            let id = PlayerID("p\(playerCounter)")
            players.append(id)
            game.addPlayer(Player(id: id, name: "Player \(playerCounter)"), now: now)
        }

        mutating func removePlayer(_ id: PlayerID) {
            players.removeAll { $0 == id }
            game.removePlayer(id, now: now)
        }

        mutating func say(_ text: String) {
            chatIDs += 1
            chat.append(ChatLine(id: chatIDs, player: players.first, name: "Ana", text: text, at: now))
            if chat.count > 12 { chat.removeFirst(chat.count - 12) }
        }

        /// Updates the builder; checks the operations against the previous state and the state against a full
        /// build. Returns the operations.
        @discardableResult
        mutating func update() throws -> [JSONPatch.Operation] {
            let previous = builder.state
            let operations = builder.update(parts)
            #expect(try JSONPatch(operations).apply(to: previous) == builder.state,
                    "the operations do not give the new state")
            var fresh = RoomStateBuilder()
            _ = fresh.update(parts)
            #expect(builder.state == fresh.state, "the kept state is not a full build's")
            // Through the wire form too, as a client gets it.
            var bytes: [UInt8] = []
            JSONWriter().write(JSONPatch(operations), into: &bytes)
            let wire = try JSONParser().parse(bytes)
            #expect(try JSONPatch(json: wire).apply(to: previous) == builder.state)
            leanClient = try JSONPatch(lean.update(parts)).apply(to: leanClient)
            #expect(leanClient == builder.state, "a client of the room's builder holds another state")
            #expect(lean.shownState(parts) == builder.state)
            updates += 1
            return operations
        }
    }

    // MARK: Randomized sequences

    static func snowmanTable(seed: UInt64) throws -> Table {
        var random = SplitMix64(seed: seed)
        let game = try SnowmanRoomGame.make(settings: ["turnSeconds": 10, "maxWrongGuesses": 6], lists: lists,
                                            now: 0, using: &random)
        var table = Table(game)
        for _ in 0..<3 { table.addPlayer() }
        return table
    }

    static func scrambleTable(seed: UInt64) throws -> Table {
        var random = SplitMix64(seed: seed)
        let settings: JSONObject = ["rounds": 3, "roundSeconds": 30, "breakSeconds": 5, "minWordLength": 3]
        var table = Table(try ScrambleRoomGame.make(settings: settings, lists: lists, now: 0, using: &random))
        for _ in 0..<3 { table.addPlayer() }
        try table.game.startNext(now: 0, using: &random)
        return table
    }

    @Test(arguments: 1...12 as ClosedRange<UInt64>)
    func snowmanSequences(seed: UInt64) throws {
        var table = try Self.snowmanTable(seed: seed)
        var random = SplitMix64(seed: seed &* 7919)
        try table.update()
        var guesses = 0
        let letters = Array("ETAOINSHRDLUCMFYWGPBVKXQJZ")
        for step in 0..<300 {
            let roll = random.next() % 100
            // Time moves on a little with most steps, sometimes past a turn's timer.
            table.now += Double(random.next() % 4) + (random.next() % 25 == 0 ? 11 : 0)
            let snowman = (table.game as! SnowmanRoomGame).game
            switch roll {
            case 0..<60:
                if snowman.status == .inProgress, let turn = snowman.turn {
                    // Mostly likely letters, some repeated (refused) or random.
                    let letter = letters[Int(random.next() % UInt64(random.next() % 3 == 0 ? 26 : 10))]
                    if table.play("guess", String(letter), by: turn) { guesses += 1 }
                } else {
                    table.startNext(using: &random)
                }
            case 60..<66:
                if let other = table.players.last, other != snowman.turn { table.play("guess", "E", by: other) }
            case 66..<80:
                table.say("line \(step)")
            case 80..<86:
                _ = table.game.tick(now: table.now)
            case 86..<89:
                if table.players.count < 5 { table.addPlayer() }
            case 89..<92:
                if table.players.count > 1, let leaving = table.players.randomElement(using: &random) {
                    table.removePlayer(leaving)
                }
            case 92..<94:
                if let player = table.players.randomElement(using: &random) {
                    table.game.renamePlayer(player, to: "Renamed \(step)")
                }
            case 94..<96:
                do { _ = try table.game.skipTurn(now: table.now) } catch { table.gameVersion &+= 1 }
            default:
                table.startNext(using: &random)
            }
            // Now and then two steps reach the builder together: then the move is not the only change.
            if random.next() % 8 != 0 { try table.update() }
        }
        try table.update()
        #expect(guesses > 40)
        // Most accepted guesses are written from the move; those ending a game, following a timeout or sharing
        // an update with another change are not.
    }

    @Test(arguments: 1...12 as ClosedRange<UInt64>)
    func scrambleSequences(seed: UInt64) throws {
        var table = try Self.scrambleTable(seed: seed)
        var random = SplitMix64(seed: seed &* 104_729)
        try table.update()
        var words = 0
        for step in 0..<300 {
            let roll = random.next() % 100
            table.now += Double(random.next() % 3) + (random.next() % 30 == 0 ? 20 : 0)
            let scramble = (table.game as! ScrambleRoomGame).game
            let player = table.players.isEmpty ? nil : table.players[Int(random.next() % UInt64(table.players.count))]
            switch roll {
            case 0..<60:
                guard let player else { break }
                if scramble.phase == .playing, let root = scramble.root {
                    let solutions = Self.lists.lexicon.words(spelledFrom: root, minimumLength: 3).filter { $0 != root }
                    // Mostly words (some found already, refused), some not.
                    let word = random.next() % 6 == 0 || solutions.isEmpty
                        ? "zzq\(step)" : solutions[Int(random.next() % UInt64(solutions.count))]
                    if table.play("word", word, by: player) { words += 1 }
                } else if scramble.phase == .intermission {
                    table.play("ready", "", by: player)
                } else {
                    table.startNext(using: &random)
                }
            case 60..<75:
                table.say("line \(step)")
            case 75..<84:
                _ = table.game.tick(now: table.now)
            case 84..<88:
                if table.players.count < 6 { table.addPlayer() }
            case 88..<92:
                if table.players.count > 1, let leaving = table.players.randomElement(using: &random) {
                    table.removePlayer(leaving)
                }
            case 92..<94:
                if let player { table.game.renamePlayer(player, to: "Renamed \(step)") }
            case 94..<97:
                table.game.everyoneReady(now: table.now)
            default:
                table.startNext(using: &random)
            }
            if random.next() % 8 != 0 { try table.update() }
        }
        try table.update()
        #expect(words > 40)
    }

    // MARK: One move of each kind

    private static func paths(_ operations: [JSONPatch.Operation]) -> [String] {
        operations.map { "\($0.name) \($0.path)" }
    }

    private static func snowman(_ table: Table) -> SnowmanGame {
        (table.game as! SnowmanRoomGame).game
    }

    @Test func aHitIsItsLettersTheGuessTheScoreAndTheTurn() throws {
        var table = try Self.snowmanTable(seed: 21)
        try table.update()
        let game = Self.snowman(table)
        let turn = try #require(game.turn)
        let scorer = try #require(table.players.firstIndex(of: turn))
        let letter = try #require(game.secret.first)
        let places = game.secret.indices.filter { game.secret[$0] == letter }
        table.now = 5
        let accepted = table.play("guess", String(letter), by: turn)
        #expect(accepted)
        let operations = try table.update()
        #expect(Set(Self.paths(operations)) == Set([
            "replace /snowman/statusLine", "add /snowman/guesses/0", "replace /snowman/scores/\(scorer)",
            "replace /snowman/turn", "replace /snowman/turnEndsAt",
        ] + places.map { "replace /snowman/positions/\($0)" }))
        for place in places {
            #expect(table.builder.state["snowman"]?["positions"]?[place]?["letter"] == JSONValue(String(letter)))
        }
    }

    @Test func aMissCountsAWrongGuessAndRevealsNothing() throws {
        var table = try Self.snowmanTable(seed: 22)
        try table.update()
        let game = Self.snowman(table)
        let turn = try #require(game.turn)
        let miss = try #require("ZQXJKVBWYFGPMUCDLHRSNIOATE".first { !game.secret.contains($0) })
        let accepted = table.play("guess", String(miss), by: turn)
        #expect(accepted)
        let operations = try table.update()
        let paths = Self.paths(operations)
        #expect(paths.contains("replace /snowman/wrongGuesses"))
        #expect(paths.contains("add /snowman/guesses/0"))
        #expect(!paths.contains { $0.contains("/positions/") || $0.contains("/scores/") })
    }

    @Test func everyGuessButTheWinningOneIsWrittenFromTheMove() throws {
        var table = try Self.snowmanTable(seed: 23)
        try table.update()
        var letters: [Character] = []
        for letter in Self.snowman(table).secret where !letters.contains(letter) { letters.append(letter) }
        for (index, letter) in letters.enumerated() {
            let turn = try #require(Self.snowman(table).turn)
            let accepted = table.play("guess", String(letter), by: turn)
            #expect(accepted)
            let operations = try table.update()
            if index < letters.count - 1 {
            } else {
                // The word is solved: the game is over, which goes through `show`.
                #expect(Self.paths(operations).contains("replace /snowman/word"))
                #expect(table.builder.state["snowman"]?["status"] == "won")
            }
        }
    }

    @Test func aGuessAfterATurnRanOutGoesThroughTheFullPath() throws {
        var table = try Self.snowmanTable(seed: 24)
        try table.update()
        let game = Self.snowman(table)
        // Past the first player's timer (10 s): the turn has passed to the next player, who guesses.
        table.now = 12
        let current = try #require(game.turn)
        let next = table.players[(try #require(table.players.firstIndex(of: current)) + 1) % table.players.count]
        let accepted = table.play("guess", "E", by: next)
        #expect(accepted)
        try table.update()
        #expect(table.builder.state["snowman"]?["guesses"]?[0]?["player"] == JSONValue(next.rawValue))
    }

    @Test func aFoundWordIsAnAddAtTheFrontAndTheScores() throws {
        var table = try Self.scrambleTable(seed: 3)
        try table.update()
        let game = (table.game as! ScrambleRoomGame).game
        let root = try #require(game.root)
        let word = try #require(Self.lists.lexicon.words(spelledFrom: root, minimumLength: 3)
            .first { $0 != root && Self.lists.lexicon.isShown($0) })
        let finder = table.players[2]
        let accepted5 = table.play("word", word, by: finder)
        #expect(accepted5)
        let operations = try table.update()
        let paths = Self.paths(operations)
        #expect(paths.first == "add /scramble/found/0")
        #expect(paths.contains("replace /scramble/scores/2"))
        // The third player goes to the top of the scoreboard: its lines change field by field, in place.
        #expect(paths.contains { $0.hasPrefix("replace /scramble/scoreboard/0") })
        #expect(!paths.contains("replace /scramble/scoreboard") && !paths.contains("replace /scramble/found"))
        #expect(table.builder.state["scramble"]?["scoreboard"]?[0]?["player"] == JSONValue(finder.rawValue))
    }

    @Test func aWordAfterTheRoundEndedGoesThroughTheFullPath() throws {
        var table = try Self.scrambleTable(seed: 4)
        try table.update()
        table.now = 31
        // The round is over: the word is refused, and the round's end is published by the full path.
        let accepted6 = table.play("word", "word", by: table.players[0])
        #expect(!accepted6)
        try table.update()
        #expect(table.builder.state["scramble"]?["phase"] == "intermission")
    }

    @Test func aChatLineIsOneAddAtTheEnd() throws {
        var table = try Self.snowmanTable(seed: 5)
        try table.update()
        table.say("hello")
        let one = try table.update()
        #expect(Self.paths(one) == ["add /chat/0"])
        for index in 0..<12 { table.say("line \(index)") }
        try table.update()
        table.say("newest")
        let scrolled = try table.update()
        #expect(Self.paths(scrolled) == ["remove /chat/0", "add /chat/11"])
    }
}
