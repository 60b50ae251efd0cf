import Foundation
import JSON
import Rooms
import Testing
import WordGames
@testable import WordRoomsServer

/// Game-night defects over real sockets against the real server: refused joins that left the socket dead,
/// removals that did not stick, the heartbeat, peeking at a room, and a randomized check that every message gets
/// its answer.
@Suite struct GameNightSocketTests {
    static let bannedBrowser = "banned-browser-00000001"

    /// A player's socket as the web client has it: joins with a browser id.
    static func join(_ client: GameClient, code: String, name: String, browser: String? = nil,
                     spectator: Bool = false) throws -> JSONValue {
        var message: JSONObject = ["type": "join", "code": JSONValue(code), "name": JSONValue(name),
                                   "spectator": JSONValue(spectator)]
        if let browser { message["client"] = JSONValue(browser) }
        try client.send(.object(message))
        return try client.receive { $0["type"]?.stringValue == "welcome" || $0["type"]?.stringValue == "error" }
    }

    @Test func everyRefusedJoinLeavesTheSocketAbleToTryAgain() async throws {
        var rooms = RoomConfiguration()
        rooms.maxPlayers = 2
        try await withServer(rooms: rooms) { server in
            let host = try GameClient.create(port: server.port, game: "snowman", name: "Ana")
            let code = try #require(host.code)
            let bob = try GameClient(port: server.port)
            #expect(try Self.join(bob, code: code, name: "Bob", browser: Self.bannedBrowser)["type"]?.stringValue == "welcome")
            try host.waitForSeq(bob.seq)
            try host.send(["type": "kick", "player": "p2"])
            // The ban is in place once the host's state lists it; the guest's socket may be read first otherwise.
            _ = try host.receive { _ in host.state["bans"]?.arrayValue?.count == 1 }

            let guest = try GameClient(port: server.port)
            // bad-name, then the same socket tries again.
            #expect(try Self.join(guest, code: code, name: "x\u{202E}y")["code"]?.stringValue == "bad-name")
            try guest.send(["type": "chat", "text": "anyone?"])
            #expect(try guest.waitForError()["code"]?.stringValue == "not-in-room", "the socket answers after a refusal")
            // kicked: the removed browser is refused whatever name it uses.
            #expect(try Self.join(guest, code: code, name: "Robert", browser: Self.bannedBrowser)["code"]?.stringValue == "kicked")
            // room-full once a second player is in.
            let cleo = try GameClient(port: server.port)
            #expect(try Self.join(cleo, code: code, name: "Cleo")["type"]?.stringValue == "welcome")
            #expect(try Self.join(guest, code: code, name: "Dan")["code"]?.stringValue == "room-full")
            // Watching is still possible from the same socket.
            #expect(try Self.join(guest, code: code, name: "Dan", spectator: true)["type"]?.stringValue == "welcome")
            try guest.send(["type": "leave"])
            _ = try guest.receive { $0["type"]?.stringValue == "left" }
            // room-locked, then unlocked.
            try host.send(["type": "lock", "locked": true])
            _ = try host.receive { _ in host.state["locked"]?.boolValue == true }
            #expect(try Self.join(guest, code: code, name: "Dan", spectator: true)["code"]?.stringValue == "room-locked")
            try host.send(["type": "lock", "locked": false])
            _ = try host.receive { _ in host.state["locked"]?.boolValue == false }
            #expect(try Self.join(guest, code: code, name: "Dan", spectator: true)["type"]?.stringValue == "welcome")
            let latest = guest.seq
            for client in [host, cleo] { try client.waitForSeq(latest) }
            try GameSocketTests.expectConsistent([host, cleo, guest])
        }
    }

    @Test func theHeartbeatIsAnsweredWhereverTheSocketIs() async throws {
        try await withServer { server in
            let client = try GameClient(port: server.port)
            try client.send(["type": "ping", "id": 7])
            let lobbyPong = try client.receive()
            #expect(lobbyPong == ["type": "pong", "id": 7])
            try client.send(["type": "create", "game": "scramble", "name": "Ana"])
            try client.send(["type": "ping"])
            var sawPong = false
            var sawWelcome = false
            while !(sawPong && sawWelcome) {
                let message = try client.receive()
                if message["type"]?.stringValue == "pong" { sawPong = true }
                if message["type"]?.stringValue == "welcome" { sawWelcome = true }
            }
            try client.send(["type": "ping", "id": 8])
            #expect(try client.receive { $0["type"]?.stringValue == "pong" }["id"]?.intValue == 8)
        }
    }

    @Test func peekTellsAboutARoomBeforeJoining() async throws {
        try await withServer { server in
            let host = try GameClient.create(port: server.port, game: "scramble", name: "Ana", isPublic: false)
            let visitor = try GameClient(port: server.port)
            try visitor.send(["type": "peek", "code": JSONValue(host.code!), "key": JSONValue(host.key!)])
            let room = try visitor.receive()
            #expect(room["type"]?.stringValue == "room")
            #expect(room["game"]?.stringValue == "scramble")
            #expect(room["players"]?.intValue == 1)
            #expect(room["locked"]?.boolValue == false)
            try visitor.send(["type": "peek", "code": "ZZZZ"])
            let missing = try visitor.receive()
            #expect(missing["code"]?.stringValue == "room-not-found")
            #expect(missing["move"]?.stringValue == "peek")
        }
    }

    @Test func unknownPagesGetTheStyled404Page() async throws {
        try await withServer { server in
            let browser = try TestClient(port: server.port)
            try browser.send("GET /no/such/page HTTP/1.1\r\nHost: x\r\nAccept: text/html,*/*\r\n\r\n")
            let page = try browser.readHTTPResponse()
            #expect(page.status == 404)
            #expect(page.head.lowercased().contains("content-type: text/html"))
            #expect(String(decoding: page.body, as: UTF8.self).contains("href=\"/\""))
            let script = try TestClient(port: server.port)
            try script.send("GET /js/missing.js HTTP/1.1\r\nHost: x\r\nAccept: */*\r\n\r\n")
            let plain = try script.readHTTPResponse()
            #expect(plain.status == 404)
            #expect(plain.head.lowercased().contains("content-type: text/plain"))
        }
    }

    /// Where the randomized client believes it is.
    private enum Place: Equatable {
        case lobby
        case room(String)
    }

    /// Random messages, each followed by a probe (`resync`): the probe's answer must come after the message's own
    /// answer and say where the server has the socket (a snapshot in a room, `not-in-room` in the lobby), which
    /// must match what the answers so far imply. A socket left dead, or left believing it is somewhere else, fails.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomizedMessagesAlwaysGetTheirAnswer(seed: UInt64) async throws {
        var rooms = RoomConfiguration()
        rooms.maxPlayers = 2
        try await withServer(rooms: rooms, limits: .messages(perSecond: 10_000, burst: 10_000)) { server in
            // Room O has a free seat; F is full; L is locked; K has banned our browser id.
            let open = try GameClient.create(port: server.port, game: "snowman", name: "Olga")
            let full = try GameClient.create(port: server.port, game: "scramble", name: "Fay")
            let filler = try GameClient(port: server.port)
            _ = try Self.join(filler, code: full.code!, name: "Finn")
            let locked = try GameClient.create(port: server.port, game: "snowman", name: "Lou")
            try locked.send(["type": "lock", "locked": true])
            _ = try locked.receive { _ in locked.state["locked"]?.boolValue == true }
            let banning = try GameClient.create(port: server.port, game: "snowman", name: "Kim")
            let victim = try GameClient(port: server.port)
            _ = try Self.join(victim, code: banning.code!, name: "Vic", browser: Self.bannedBrowser)
            try banning.waitForSeq(victim.seq)
            try banning.send(["type": "kick", "player": "p2"])
            _ = try banning.receive { _ in banning.state["bans"]?.arrayValue?.count == 1 }

            var random = SplitMix64(seed: seed)
            let client = try GameClient(port: server.port)
            var place = Place.lobby
            var missingCodesLeft = 4 // joins of missing rooms are rate-limited per address
            for step in 0..<150 {
                let choice = Int.random(in: 0..<12, using: &random)
                let message: JSONValue
                // What answers the message: a check on each message received before the probe's answer.
                var expected: (JSONValue) -> Bool
                // `peek` is answered by the room from the registry's lookup, not in line with the socket's other
                // messages, so its answer may come after the probe's.
                var ordered = true
                var next = place
                switch choice {
                case 0, 1:
                    message = ["type": "join", "code": JSONValue(open.code!), "name": "Zed", "client": "fuzz-browser-000000001"]
                    if place == .lobby {
                        expected = { $0["type"]?.stringValue == "welcome" }
                        next = .room(open.code!)
                    } else {
                        expected = { $0["code"]?.stringValue == "already-in-room" }
                    }
                case 2:
                    let bad = ["", "   ", "\u{202E}evil", "tab\tname", String(repeating: "w", count: 21), "\u{200B}", "p\u{E000}"]
                    message = ["type": "join", "code": JSONValue(open.code!), "name": JSONValue(bad[Int.random(in: 0..<bad.count, using: &random)])]
                    let code = place == .lobby ? "bad-name" : "already-in-room"
                    expected = { $0["code"]?.stringValue == code }
                case 3:
                    message = ["type": "join", "code": JSONValue(full.code!), "name": "Zed"]
                    let code = place == .lobby ? "room-full" : "already-in-room"
                    expected = { $0["code"]?.stringValue == code }
                case 4:
                    message = ["type": "join", "code": JSONValue(locked.code!), "name": "Zed"]
                    let code = place == .lobby ? "room-locked" : "already-in-room"
                    expected = { $0["code"]?.stringValue == code }
                case 5:
                    message = ["type": "join", "code": JSONValue(banning.code!), "name": "Zed", "client": JSONValue(Self.bannedBrowser)]
                    let code = place == .lobby ? "kicked" : "already-in-room"
                    expected = { $0["code"]?.stringValue == code }
                case 6 where missingCodesLeft > 0 && place == .lobby:
                    missingCodesLeft -= 1
                    message = ["type": "join", "code": "ZZZZ", "name": "Zed"]
                    expected = { $0["code"]?.stringValue == "room-not-found" }
                case 6, 7:
                    message = ["type": "chat", "text": JSONValue("line \(step)")]
                    if place == .lobby {
                        expected = { $0["code"]?.stringValue == "not-in-room" }
                    } else {
                        expected = { $0["type"]?.stringValue == "patch" }
                    }
                case 8:
                    message = ["type": "leave"]
                    if place == .lobby {
                        expected = { $0["code"]?.stringValue == "not-in-room" }
                    } else {
                        expected = { $0["type"]?.stringValue == "left" }
                        next = .lobby
                    }
                case 9:
                    message = ["type": "peek", "code": JSONValue(locked.code!)]
                    ordered = false
                    expected = { $0["type"]?.stringValue == "room" && $0["locked"]?.boolValue == true }
                case 10:
                    message = ["type": "ping", "id": JSONValue(step)]
                    expected = { $0["type"]?.stringValue == "pong" && $0["id"]?.intValue == step }
                default:
                    message = ["type": JSONValue(["unknown-\(step)", "new_game", "guess"][Int.random(in: 0..<3, using: &random)])]
                    expected = { $0["type"]?.stringValue == "error" }
                }
                try client.send(message)
                try client.send(["type": "resync"])
                var answered = false
                var probe: JSONValue?
                while !(answered && probe != nil) {
                    let received = try client.receive()
                    let isProbeAnswer = received["type"]?.stringValue == "snapshot"
                        || (received["type"]?.stringValue == "error" && received["move"]?.stringValue == "resync")
                    if isProbeAnswer && (answered || !ordered) {
                        probe = received
                    } else if expected(received) {
                        answered = true
                    }
                }
                let answer = probe ?? .null
                place = next
                let context = "step \(step): \(String(decoding: JSONWriter().serialize(message), as: UTF8.self))"
                switch place {
                case .lobby:
                    #expect(answer["code"]?.stringValue == "not-in-room", "\(context)")
                case .room(let code):
                    #expect(answer["type"]?.stringValue == "snapshot", "\(context)")
                    #expect(answer["state"]?["code"]?.stringValue == code, "\(context)")
                }
            }
        }
    }
}
