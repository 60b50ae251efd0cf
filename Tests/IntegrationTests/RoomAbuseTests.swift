import Foundation
import JSON
import Rooms
import Testing
@testable import WordRoomsServer

/// Issue 42's attacks on rooms, each over real sockets: clients at other addresses come through a trusted proxy
/// (127.0.0.1, the tests themselves) that names them in `X-Forwarded-For`.
@Suite struct RoomAbuseTests {
    /// Creates a room from `address` and returns the client with the reply (`welcome` or `error`).
    private static func create(_ port: Int, from address: String, name: String = "Ana",
                               isPublic: Bool = true) throws -> (GameClient, JSONValue) {
        let client = try GameClient(port: port, forwardedFor: address)
        try client.send(["type": "create", "game": "snowman", "name": JSONValue(name), "public": JSONValue(isPublic)])
        let reply = try client.receive { ["welcome", "error"].contains($0["type"]?.stringValue) }
        return (client, reply)
    }

    /// Sends `message` (a `join` or `peek`) on `client` and returns the answer.
    private static func ask(_ client: GameClient, _ message: JSONValue) throws -> JSONValue {
        try client.send(message)
        return try client.receive { ["welcome", "error", "room"].contains($0["type"]?.stringValue) }
    }

    @Test func oneAddressCannotFillTheServerWithRooms() async throws {
        var rooms = RoomConfiguration()
        rooms.maxRoomsPerAddress = 2
        try await withServer(rooms: rooms, behindProxy: true) { server in
            // Each room from a connection of its own: reconnecting gives an address no new allowance.
            var held: [GameClient] = []
            for _ in 0..<2 {
                let (client, reply) = try Self.create(server.port, from: "203.0.113.10", isPublic: false)
                #expect(reply["type"]?.stringValue == "welcome")
                held.append(client)
            }
            let (_, refused) = try Self.create(server.port, from: "203.0.113.10")
            #expect(refused["code"]?.stringValue == "too-many-rooms")
            #expect(refused["move"]?.stringValue == "create")
            let (_, other) = try Self.create(server.port, from: "203.0.113.11")
            #expect(other["type"]?.stringValue == "welcome")
        }
    }

    @Test func roomCreationIsRateLimitedPerAddressNotPerConnection() async throws {
        var limits = GameLimits()
        limits.roomCreationsPerAddressPerMinute = 2
        try await withServer(limits: limits, behindProxy: true) { server in
            for _ in 0..<2 {
                let (client, reply) = try Self.create(server.port, from: "203.0.113.20")
                #expect(reply["type"]?.stringValue == "welcome")
                try client.send(["type": "leave"])
                try client.receive { $0["type"]?.stringValue == "left" }
            }
            let (_, refused) = try Self.create(server.port, from: "203.0.113.20")
            #expect(refused["code"]?.stringValue == "rate-limited")
            let (_, other) = try Self.create(server.port, from: "203.0.113.21")
            #expect(other["type"]?.stringValue == "welcome")
        }
    }

    @Test func aRoomNobodyButItsCreatorJoinedExpiresSoonAfterThem() async throws {
        var rooms = RoomConfiguration()
        rooms.creatorOnlyRoomGraceSeconds = 0.5
        rooms.emptyRoomGraceSeconds = 300
        try await withServer(rooms: rooms) { server in
            let lonely = try GameClient.create(port: server.port, game: "snowman", name: "Ana", isPublic: false)
            let (lonelyCode, lonelyKey) = (lonely.code!, lonely.key!)
            let host = try GameClient.create(port: server.port, game: "snowman", name: "Bea", isPublic: false)
            let (code, key) = (host.code!, host.key!)
            let guest = try GameClient(port: server.port)
            let welcome = try Self.ask(guest, ["type": "join", "code": JSONValue(code), "key": JSONValue(key),
                                               "name": "Cy"])
            #expect(welcome["type"]?.stringValue == "welcome")
            for client in [lonely, host, guest] {
                try client.send(["type": "leave"])
                try client.receive { $0["type"]?.stringValue == "left" }
            }
            Thread.sleep(forTimeInterval: 1.5)
            let visitor = try GameClient(port: server.port)
            let gone = try Self.ask(visitor, ["type": "peek", "code": JSONValue(lonelyCode), "key": JSONValue(lonelyKey)])
            #expect(gone["code"]?.stringValue == "room-not-found")
            let kept = try Self.ask(visitor, ["type": "peek", "code": JSONValue(code), "key": JSONValue(key)])
            #expect(kept["type"]?.stringValue == "room", "a room others joined keeps the normal grace")
        }
    }

    @Test func addressesInOneIPv6NetworkShareTheirLimits() async throws {
        var limits = GameLimits()
        limits.failedJoinBurst = 2
        try await withServer(limits: limits, behindProxy: true) { server in
            func wrongCode(from address: String) throws -> String? {
                let client = try GameClient(port: server.port, forwardedFor: address)
                return try Self.ask(client, ["type": "peek", "code": "ZZZZ"])["code"]?.stringValue
            }
            let answers = try [
                // Two addresses of 2001:db8:1:2::/64 spend one bucket; another /64 has its own.
                "2001:db8:1:2::a", "2001:db8:1:2:ffff:1:2:3", "2001:db8:1:2::b", "2001:db8:1:3::a",
                // An IPv4-mapped address is its IPv4 address.
                "198.51.100.7", "::ffff:198.51.100.7", "198.51.100.7",
            ].map(wrongCode)
            #expect(answers == ["room-not-found", "room-not-found", "too-many-attempts", "room-not-found",
                                "room-not-found", "room-not-found", "too-many-attempts"])
        }
    }

    @Test func wrongAdminTokensFromOneIPv6NetworkShareOneLockout() async throws {
        try await withServer(behindProxy: true) { server in
            func status(from address: String, token: String) throws -> Int {
                let client = try TestClient(port: server.port)
                try client.send("GET /admin/api/rooms HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n"
                    + "X-Forwarded-For: \(address)\r\n\r\n")
                return try client.readHTTPResponse().status
            }
            let wrong = String(repeating: "w", count: 24)
            // A fresh address of the same /64 for every guess: one bucket, spent after AdminGate.wrongTokenBurst.
            var statuses: [Int] = []
            for index in 1...Int(AdminGate.wrongTokenBurst) {
                statuses.append(try status(from: "2001:db8:9:9::\(index)", token: wrong))
            }
            #expect(statuses.allSatisfy { $0 == 401 })
            #expect(try status(from: "2001:db8:9:9::ff", token: server.adminToken.value) == 429)
            #expect(try status(from: "2001:db8:9:a::1", token: server.adminToken.value) == 200, "another /64")
        }
    }

    @Test func connectionsPerAddressCountAnIPv6Network() async throws {
        try await withServer(behindProxy: true, options: { $0.maxConnectionsPerIP = 1 }) { server in
            let first = try GameClient(port: server.port, forwardedFor: "2001:db8:7:7::1")
            let second = try GameClient(port: server.port, forwardedFor: "2001:db8:7:7::2")
            // The second is closed at once with 1008 (too many connections from its network).
            var closedWith = ""
            do { try second.receive() } catch { closedWith = "\(error)" }
            #expect(closedWith.hasSuffix("1008"), "\(closedWith)")
            let elsewhere = try GameClient(port: server.port, forwardedFor: "2001:db8:7:8::1")
            try first.send(["type": "ping", "id": 1])
            #expect(try first.receive()["type"]?.stringValue == "pong")
            try elsewhere.send(["type": "ping", "id": 2])
            #expect(try elsewhere.receive()["type"]?.stringValue == "pong")
        }
    }

    @Test func anIPv6PrefixOf128CountsEveryAddress() async throws {
        var limits = GameLimits()
        limits.failedJoinBurst = 1
        try await withServer(limits: limits, behindProxy: true, options: { $0.ipv6Prefix = 128 }) { server in
            for address in ["2001:db8:1:2::a", "2001:db8:1:2::b"] {
                let client = try GameClient(port: server.port, forwardedFor: address)
                let answer = try Self.ask(client, ["type": "peek", "code": "ZZZZ"])
                #expect(answer["code"]?.stringValue == "room-not-found")
            }
        }
    }

    @Test func aPrivateRoomsCodeAloneAnswersLikeNoRoom() async throws {
        try await withServer { server in
            let host = try GameClient.create(port: server.port, game: "snowman", name: "Ana", isPublic: false)
            let (code, key) = (host.code!, try #require(host.key))
            #expect(key.utf8.count == 16)
            let visitor = try GameClient(port: server.port)
            let missing = try Self.ask(visitor, ["type": "peek", "code": "ZZZZ"])
            let peeked = try Self.ask(visitor, ["type": "peek", "code": JSONValue(code)])
            #expect(JSONWriter().serialize(peeked) == JSONWriter().serialize(missing), "no oracle")
            let wrongKey = try Self.ask(visitor, ["type": "peek", "code": JSONValue(code), "key": "AAAAAAAAAAAAAAAA"])
            #expect(wrongKey["code"]?.stringValue == "room-not-found")
            let missingJoin = try Self.ask(visitor, ["type": "join", "code": "ZZZZ", "name": "Eve"])
            let joined = try Self.ask(visitor, ["type": "join", "code": JSONValue(code), "name": "Eve"])
            #expect(JSONWriter().serialize(joined) == JSONWriter().serialize(missingJoin), "no oracle")
            let described = try Self.ask(visitor, ["type": "peek", "code": JSONValue(code), "key": JSONValue(key)])
            #expect(described["type"]?.stringValue == "room")
            let welcome = try Self.ask(visitor, ["type": "join", "code": JSONValue(code), "key": JSONValue(key),
                                                 "name": "Bob"])
            #expect(welcome["type"]?.stringValue == "welcome")
            #expect(welcome["key"]?.stringValue == key, "every member can share the link")
            // A resume needs the key too: a token alone would tell that the code is in use.
            let token = try #require(visitor.token)
            visitor.socket.abort()
            let back = try GameClient(port: server.port)
            let refused = try Self.ask(back, ["type": "join", "code": JSONValue(code), "token": JSONValue(token)])
            #expect(refused["code"]?.stringValue == "room-not-found")
            let resumed = try Self.ask(back, ["type": "join", "code": JSONValue(code), "token": JSONValue(token),
                                              "key": JSONValue(key)])
            #expect(resumed["type"]?.stringValue == "welcome")
            // Public rooms still join by code.
            let open = try GameClient.create(port: server.port, game: "snowman", name: "Cy")
            #expect(open.key == nil)
            let friend = try GameClient(port: server.port)
            let friendly = try Self.ask(friend, ["type": "join", "code": JSONValue(open.code!), "name": "Di"])
            #expect(friendly["type"]?.stringValue == "welcome")
        }
    }

    @Test func chatOverTheRoomsBudgetIsRefusedAndNotBroadcast() async throws {
        var rooms = RoomConfiguration()
        // Bursts of 4,000 bytes: a 100-character line to two members costs (100 + 160) x 2 = 520.
        rooms.chatBudgetBytesPerSecond = 2_000
        try await withServer(rooms: rooms) { server in
            let host = try GameClient.create(port: server.port, game: "snowman", name: "Ana")
            let guest = try GameClient.join(port: server.port, code: host.code!, name: "Bob")
            #expect(guest.you != nil)
            var refusal: JSONValue?
            var sent = 0
            while refusal == nil && sent < 40 {
                sent += 1
                let text = "line \(sent) " + String(repeating: "x", count: 90)
                try host.send(["type": "chat", "text": JSONValue(text)])
                // Until the line is in the host's state (earlier patches, such as Bob's arrival, may come first).
                let reply = try host.receive { message in
                    message["type"]?.stringValue == "error"
                        || host.state["chat"]?.arrayValue?.last?["text"]?.stringValue == text
                }
                if reply["type"]?.stringValue == "error" { refusal = reply }
            }
            let error = try #require(refusal)
            #expect(error["code"]?.stringValue == "room-busy")
            #expect(error["move"]?.stringValue == "chat")
            #expect(sent < 15, "refused within the burst's budget, not after \(sent) lines")
            let (_, state) = try guest.freshSnapshot()
            let texts = state["chat"]?.arrayValue?.compactMap { $0["text"]?.stringValue } ?? []
            #expect(!texts.contains { $0.hasPrefix("line \(sent) ") }, "the refused line reached nobody")
            #expect(texts.contains { $0.hasPrefix("line \(sent - 1) ") })
        }
    }

    @Test func oneAddressHasAtMostItsShareOfARoom() async throws {
        var rooms = RoomConfiguration()
        rooms.maxMembersPerAddress = 2
        try await withServer(rooms: rooms, behindProxy: true) { server in
            let (host, _) = try Self.create(server.port, from: "203.0.113.30")
            let code = JSONValue(host.code!)
            var replies: [String?] = []
            var held: [GameClient] = []
            for index in 0..<3 {
                let client = try GameClient(port: server.port, forwardedFor: "203.0.113.31")
                let reply = try Self.ask(client, ["type": "join", "code": code, "name": JSONValue("Fan \(index)"),
                                                  "spectator": true])
                replies.append(reply["type"]?.stringValue == "welcome" ? "welcome" : reply["code"]?.stringValue)
                held.append(client)
            }
            #expect(replies == ["welcome", "welcome", "too-many-from-address"])
            let other = try GameClient(port: server.port, forwardedFor: "203.0.113.32")
            let seated = try Self.ask(other, ["type": "join", "code": code, "name": "Gus"])
            #expect(seated["type"]?.stringValue == "welcome")
        }
    }

    @Test func aRemovedPlayerCannotRejoinWithoutOrWithANewClientID() async throws {
        try await withServer(behindProxy: true) { server in
            let (host, _) = try Self.create(server.port, from: "203.0.113.40")
            let code = JSONValue(host.code!)
            let troll = try GameClient(port: server.port, forwardedFor: "203.0.113.41")
            let welcome = try Self.ask(troll, ["type": "join", "code": code, "name": "Troll",
                                               "client": "troll-browser-0001"])
            let trollID = try #require(welcome["you"]?.stringValue)
            try host.send(["type": "kick", "player": JSONValue(trollID)])
            _ = try? troll.receive { $0["type"]?.stringValue == "error" }
            for client: JSONValue in [.null, "another-browser-0002"] {
                let again = try GameClient(port: server.port, forwardedFor: "203.0.113.41")
                var join: JSONObject = ["type": "join", "code": code, "name": "Troll"]
                if !client.isNull { join["client"] = client }
                let refused = try Self.ask(again, .object(join))
                #expect(refused["code"]?.stringValue == "kicked")
            }
            let stranger = try GameClient(port: server.port, forwardedFor: "203.0.113.42")
            let welcomed = try Self.ask(stranger, ["type": "join", "code": code, "name": "Ivy"])
            #expect(welcomed["type"]?.stringValue == "welcome")
        }
    }
}
