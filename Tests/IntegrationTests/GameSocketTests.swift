#if canImport(Glibc)
import Glibc
#endif
import Foundation
import JSON
import Rooms
import Testing
import WordGames
@testable import WordRoomsServer

/// Rooms over real sockets against the real server: whole games, resume, host controls, secrecy and load.
@Suite struct GameSocketTests {
    static let lists = try! WordLists.bundled()
    static let letterOrder = Array("ETAOINSHRDLCUMWFGYPBVKJXQZ")

    /// Plays the current Snowman game to its end, each player guessing in turn by letter frequency.
    static func playSnowman(_ clients: [GameClient]) throws {
        let watcher = clients[0]
        while watcher.snowman["status"]?.stringValue == "inProgress" {
            let turn = try #require(watcher.snowman["turn"]?.stringValue)
            let mover = try #require(clients.first { $0.you == turn })
            let guessed = Set((mover.snowman["guesses"]?.arrayValue ?? []).compactMap { $0["letter"]?.stringValue })
            let letter = try #require(letterOrder.first { !guessed.contains(String($0)) })
            let target = mover.seq + 1
            try mover.send(["type": "guess", "letter": JSONValue(String(letter))])
            for client in clients {
                try client.waitForSeq(target)
            }
        }
    }

    /// Every client's rebuilt state equals a fresh snapshot, with no gaps.
    static func expectConsistent(_ clients: [GameClient], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (seq, state) = try clients[0].freshSnapshot()
        for client in clients {
            #expect(client.seq == seq, sourceLocation: sourceLocation)
            #expect(client.state == state, sourceLocation: sourceLocation)
            #expect(client.gaps == 0, sourceLocation: sourceLocation)
        }
    }

    /// Whether `text` (JSON) has the string `value` as a value somewhere: quoted, not a member's name, and not a
    /// member's role (`"role":"player"`, when the secret is PLAYER).
    static func holdsValue(_ value: String, in text: String) -> Bool {
        let text = text.replacingOccurrences(of: "\"role\":\"\(value)\"", with: "")
        var rest = text[...]
        while let range = rest.range(of: "\"\(value)\"") {
            if !rest[range.upperBound...].hasPrefix(":") { return true }
            rest = rest[range.upperBound...]
        }
        return false
    }

    /// The secret word never travels before the message that ends the game.
    static func expectSecretKept(_ clients: [GameClient], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let word = try #require(clients[0].snowman["word"]?.stringValue)
        for client in clients {
            let texts = client.received.map { String(decoding: $0, as: UTF8.self) }
            // As a JSON string value only: a bare substring, or a key, would also match the protocol's own names
            // ("player", "score", "letter"...), which some secrets are.
            let first = texts.firstIndex { Self.holdsValue(word, in: $0) || Self.holdsValue(word.lowercased(), in: $0) }
            let firstIndex = try #require(first, sourceLocation: sourceLocation)
            let revealing = texts[firstIndex]
            #expect(revealing.contains("\"/snowman/status\"") || revealing.contains("\"type\":\"snapshot\""),
                    "the word \(word) appeared before the game ended: \(revealing.prefix(200))",
                    sourceLocation: sourceLocation)
        }
    }

    private static func snowmanGame(players: Int) async throws {
        try await withServer { server in
            let host = try GameClient.create(port: server.port, game: "snowman", name: "P1")
            var clients = [host]
            for index in 2...players {
                let client = try GameClient.join(port: server.port, code: host.code!, name: "P\(index)")
                try #require(client.you == "p\(index)")
                clients.append(client)
            }
            for client in clients { try client.waitForSeq(clients.last!.seq) }
            try Self.playSnowman(clients)
            #expect(["won", "lost"].contains(host.snowman["status"]?.stringValue))
            try Self.expectSecretKept(clients)
            try Self.expectConsistent(clients)
            let scores = host.snowman["scores"]!.arrayValue!.map { $0["score"]!.intValue! }.reduce(0, +)
            let points = host.snowman["guesses"]!.arrayValue!.map { $0["points"]!.intValue! }.reduce(0, +)
            #expect(scores == points)
        }
    }

    @Test func twoPlayersFinishASnowmanGame() async throws {
        try await Self.snowmanGame(players: 2)
    }

    @Test func sixteenPlayersFinishASnowmanGameAndTheSeventeenthIsTurnedAway() async throws {
        try await Self.snowmanGame(players: 16)
        try await withServer { server in
            let host = try GameClient.create(port: server.port, game: "snowman", name: "P1")
            for index in 2...16 {
                _ = try GameClient.join(port: server.port, code: host.code!, name: "P\(index)")
            }
            let late = try GameClient.join(port: server.port, code: host.code!, name: "Late")
            #expect(late.errors.first?["code"]?.stringValue == "room-full")
        }
    }

    private static func scrambleMatch(players: Int) async throws {
        let clock = TestClock(start: 1_800_000_000)
        try await withServer(clock: { clock.now }) { server in
            let host = try GameClient.create(port: server.port, game: "scramble", name: "P1",
                                             settings: ["rounds": 3, "roundSeconds": 30])
            var clients = [host]
            for index in 2...players {
                clients.append(try GameClient.join(port: server.port, code: host.code!, name: "P\(index)"))
            }
            func sync() throws {
                let target = clients.map(\.seq).max()!
                for client in clients { try client.waitForSeq(target) }
            }
            func tickRooms() {
                waitFor { for room in await server.registry.allRooms() { room.tick() } }
            }
            try sync()
            try host.send(["type": "new_game"])
            for client in clients {
                try client.receive { _ in client.scramble["phase"]?.stringValue == "playing" }
            }
            var lettersScored = 0
            for round in 1...3 {
                let root = try #require(host.scramble["root"]?.stringValue).lowercased()
                // Unshown words are accepted but neither counted nor listed as missed.
                let valid = lists.lexicon.words(spelledFrom: root, minimumLength: 3)
                    .filter { $0 != root && lists.lexicon.isShown($0) }
                #expect(host.scramble["totalWords"]?.intValue == valid.count)
                for (index, client) in clients.enumerated() where index < valid.count {
                    // Everyone up to date first, so each word's patch is the next one and the order is known.
                    try sync()
                    let target = client.seq + 1
                    try client.send(["type": "word", "word": JSONValue(valid[index].uppercased() + " ")])
                    try client.waitForSeq(target)
                    lettersScored += valid[index].count
                }
                try host.send(["type": "word", "word": "qzxj"])
                let refused = try host.waitForError()
                #expect(refused["move"]?.stringValue == "word")
                try sync()
                let found = host.scramble["found"]!.arrayValue!.map { $0["word"]!.stringValue! }
                #expect(found == Array(valid.prefix(players).reversed()), "found words are listed newest first")
                clock.advance(31)
                tickRooms()
                for client in clients {
                    try client.receive { _ in client.scramble["phase"]?.stringValue != "playing" }
                }
                let last = host.scramble["lastRound"]!
                #expect(last["number"]?.intValue == round)
                #expect(last["missed"]?.arrayValue?.count == valid.count - min(players, valid.count))
                if round < 3 {
                    #expect(host.scramble["phase"]?.stringValue == "intermission")
                    clock.advance(Double(ScrambleSettings.defaultBreakSeconds + 1))
                    tickRooms()
                    for client in clients {
                        try client.receive { _ in client.scramble["phase"]?.stringValue == "playing" }
                    }
                }
            }
            #expect(host.scramble["phase"]?.stringValue == "finished")
            let final = try #require(host.scramble["finalScoreboard"]?.arrayValue)
            #expect(final.count == players)
            #expect(final.map { $0["score"]!.intValue! }.reduce(0, +) == lettersScored)
            try sync()
            try Self.expectConsistent(clients)
        }
    }

    @Test func twoPlayersFinishAWordScrambleMatch() async throws {
        try await Self.scrambleMatch(players: 2)
    }

    @Test func sixteenPlayersFinishAWordScrambleMatch() async throws {
        try await Self.scrambleMatch(players: 16)
    }

    @Test func droppedPlayerResumesWithTokenAndMissedPatches() async throws {
        try await withServer { server in
            let ana = try GameClient.create(port: server.port, game: "snowman", name: "Ana")
            var bob = try GameClient.join(port: server.port, code: ana.code!, name: "Bob")
            try ana.waitForSeq(bob.seq)
            let (token, lastSeq, bobState) = (bob.token!, bob.seq, bob.state)
            bob.socket.abort()
            // Ana sees Bob go, then plays on.
            try ana.receive { _ in ana.state["members"]?[1]?["connected"]?.boolValue == false }
            try ana.send(["type": "guess", "letter": "e"])
            try ana.send(["type": "chat", "text": "bob?"])
            try ana.waitForSeq(ana.seq + 2)
            bob = try GameClient(port: server.port)
            bob.state = bobState
            bob.seq = lastSeq
            try bob.send(["type": "join", "code": JSONValue(ana.code!), "token": JSONValue(token), "seq": JSONValue(lastSeq)])
            let welcome = try bob.receive()
            #expect(welcome["resumed"]?.boolValue == true)
            #expect(welcome["you"]?.stringValue == "p2")
            try ana.receive { _ in ana.state["members"]?[1]?["connected"]?.boolValue == true }
            try bob.waitForSeq(ana.seq)
            try Self.expectConsistent([ana, bob])
            // The room announced Bob's join; Ana's line came while he was away.
            #expect(bob.state["chat"]?.arrayValue?.compactMap { $0["text"]?.stringValue } == ["Bob joined", "bob?"])
        }
    }

    @Test func resumeAfterTheGracePeriodIsRefused() async throws {
        var rooms = RoomConfiguration()
        rooms.resumeGraceSeconds = 1
        try await withServer(rooms: rooms) { server in
            let ana = try GameClient.create(port: server.port, game: "snowman", name: "Ana")
            let bob = try GameClient.join(port: server.port, code: ana.code!, name: "Bob")
            let token = bob.token!
            bob.socket.abort()
            try ana.receive { _ in ana.state["members"]?.arrayValue?.count == 1 }
            let back = try GameClient(port: server.port)
            try back.send(["type": "join", "code": JSONValue(ana.code!), "token": JSONValue(token)])
            #expect(try back.waitForError()["code"]?.stringValue == "seat-expired")
        }
    }

    @Test func hostHandsOverKicksAndLeaves() async throws {
        try await withServer { server in
            let ana = try GameClient.create(port: server.port, game: "snowman", name: "Ana")
            let bob = try GameClient.join(port: server.port, code: ana.code!, name: "Bob")
            let cleo = try GameClient.join(port: server.port, code: ana.code!, name: "Cleo")
            try ana.send(["type": "host", "player": "p2"])
            try bob.receive { _ in bob.state["host"]?.stringValue == "p2" }
            try ana.send(["type": "kick", "player": "p3"])
            #expect(try ana.waitForError()["code"]?.stringValue == "host-only")
            try bob.send(["type": "kick", "player": "p3"])
            #expect(try cleo.waitForError()["code"]?.stringValue == "kicked")
            #expect(throws: TestClient.Failure.self) { try cleo.receive() }
            let again = try GameClient(port: server.port)
            try again.send(["type": "join", "code": JSONValue(ana.code!), "token": JSONValue(cleo.token!)])
            #expect(try again.waitForError()["code"]?.stringValue == "kicked")
            try bob.send(["type": "leave"])
            try ana.receive { _ in ana.state["host"]?.stringValue == "p1" }
            #expect(ana.state["members"]?.arrayValue?.count == 1)
        }
    }

    @Test func spectatorSeesEverythingAndCannotPlay() async throws {
        try await withServer { server in
            let ana = try GameClient.create(port: server.port, game: "snowman", name: "Ana")
            let bob = try GameClient.join(port: server.port, code: ana.code!, name: "Bob")
            let eve = try GameClient.join(port: server.port, code: ana.code!, name: "Eve", spectator: true)
            #expect(eve.you == "s3")
            try eve.send(["type": "guess", "letter": "a"])
            let refused = try eve.waitForError()
            #expect(refused["code"]?.stringValue == "spectator")
            try ana.waitForSeq(eve.seq)
            try bob.waitForSeq(eve.seq)
            try Self.playSnowman([ana, bob])
            try eve.waitForSeq(ana.seq)
            try Self.expectConsistent([ana, bob, eve])
            try Self.expectSecretKept([ana, bob, eve])
        }
    }

    @Test func floodsGetErrorsThenClose1008() async throws {
        try await withServer(limits: .messages(perSecond: 5, burst: 10, strikesBeforeClose: 50)) { server in
            let ana = try GameClient.create(port: server.port, game: "snowman", name: "Ana")
            for index in 0..<30 {
                try ana.send(["type": "chat", "text": JSONValue("spam \(index)")])
            }
            try ana.receive { _ in ana.errors.contains { $0["code"]?.stringValue == "rate-limited" } }
            do {
                for index in 0..<200 {
                    try ana.send(["type": "chat", "text": JSONValue("more \(index)")])
                }
            } catch {}
            var closeCode: UInt16?
            while closeCode == nil {
                let frame = try ana.socket.readFrame()
                if frame.opcode == 0x8 { closeCode = frame.closeCode }
            }
            #expect(closeCode == 1008)
        }
    }

    @Test func publicRoomsAreListedOverHTTPAndTheLobbySocket() async throws {
        try await withServer { server in
            let open = try GameClient.create(port: server.port, game: "scramble", name: "Ana")
            _ = try GameClient.create(port: server.port, game: "snowman", name: "Hidden", isPublic: false)
            let watcher = try GameClient(port: server.port)
            try watcher.send(["type": "lobby"])
            let lobby = try watcher.receive { $0["type"]?.stringValue == "lobby" && $0["rooms"]?.arrayValue?.isEmpty == false }
            #expect(lobby["rooms"]?.arrayValue?.map { $0["code"]!.stringValue! } == [open.code!])
            let http = try TestClient(port: server.port)
            try http.send("GET /api/rooms HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try http.readHTTPResponse()
            #expect(response.status == 200)
            let body = try JSONParser().parse(response.body)
            #expect(body["rooms"]?.arrayValue?.count == 1)
            #expect(body["rooms"]?[0]?["game"]?.stringValue == "scramble")
        }
    }

    @Test func twoHundredRoomsOfEightPlayAtOnce() async throws {
        try await withServer { server in
            let failures = Failures()
            // Threads of our own: Dispatch's worker threads also run the room actors, so blocking them would stall the server.
            onThreads(200) { room in
                do {
                    let host = try GameClient.create(port: server.port, game: "snowman", name: "R\(room)P1")
                    var clients = [host]
                    for index in 2...8 {
                        clients.append(try GameClient.join(port: server.port, code: host.code!, name: "P\(index)"))
                    }
                    for client in clients { try client.waitForSeq(clients.last!.seq) }
                    try Self.playSnowman(clients)
                    let (seq, state) = try host.freshSnapshot()
                    for client in clients where client.state != state || client.seq != seq || client.gaps > 0 {
                        failures.add("room \(room): \(client.you ?? "?") ended at seq \(client.seq), snapshot \(seq)")
                    }
                } catch {
                    failures.add("room \(room): \(error)")
                }
            }
            #expect(failures.all.isEmpty, "\(failures.all.prefix(5))")
        }
    }
}

/// Failures collected from many threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []

    func add(_ failure: String) {
        lock.lock()
        list.append(failure)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return list
    }
}

/// A clock tests move by hand.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var seconds: Double

    init(start: Double) {
        seconds = start
    }

    var now: Double {
        lock.lock()
        defer { lock.unlock() }
        return seconds
    }

    func advance(_ delta: Double) {
        lock.lock()
        seconds += delta
        lock.unlock()
    }
}
