import Foundation
import JSON
import Testing
import WebSocket
@testable import WordRoomsServer

/// Limits that keep one client from taking the server: connection budget, handshake rate, room creation rate and
/// room-code guessing.
@Suite struct AbuseLimitTests {
    private func upgrade(_ port: Int, forwardedFor: String? = nil) throws -> (TestClient, String) {
        try TestClient.upgrade(port: port, headers: forwardedFor.map { ["X-Forwarded-For": $0] } ?? [:])
    }

    @Test func connectionsBeyondTheLimitGet503() async throws {
        try await withServer(options: { $0.maxConnections = 3 }) { server in
            var open: [TestClient] = []
            for _ in 0..<3 {
                let (client, head) = try upgrade(server.port)
                #expect(head.hasPrefix("HTTP/1.1 101"))
                open.append(client)
            }
            let (_, refused) = try upgrade(server.port)
            #expect(refused.hasPrefix("HTTP/1.1 503"))
            // A slot frees up when a client leaves.
            open.removeLast().abort()
            Thread.sleep(forTimeInterval: 0.2)
            let (_, again) = try upgrade(server.port)
            #expect(again.hasPrefix("HTTP/1.1 101"))
        }
    }

    @Test func handshakeFloodsFromOneAddressGet429() async throws {
        var limits = GameLimits()
        limits.handshakesPerSecond = 2
        // The burst is the larger of twice the rate and the connections an address may hold: 4 here.
        try await withServer(limits: limits, behindProxy: true, options: { $0.maxConnectionsPerIP = 3 }) { server in
            var statuses: [String] = []
            for _ in 0..<6 {
                let (_, head) = try upgrade(server.port, forwardedFor: "203.0.113.5")
                statuses.append(String(head.prefix(12)))
            }
            #expect(statuses.prefix(4).allSatisfy { $0 == "HTTP/1.1 101" })
            #expect(statuses.last == "HTTP/1.1 429")
            let (_, other) = try upgrade(server.port, forwardedFor: "203.0.113.6")
            #expect(other.hasPrefix("HTTP/1.1 101"))
        }
    }

    @Test func aReconnectStormFromOneAddressIsLetInAtOnce() async throws {
        // A hundred players behind one NAT come back together after a deploy: five times the default burst of
        // twice the handshake rate, within the connections one address may hold (256).
        try await withServer(behindProxy: true) { server in
            var held: [TestClient] = []
            var refused = 0
            for _ in 0..<100 {
                let (client, head) = try upgrade(server.port, forwardedFor: "203.0.113.7")
                if !head.hasPrefix("HTTP/1.1 101") { refused += 1 }
                held.append(client)
            }
            #expect(refused == 0)
            #expect(held.count == 100)
        }
    }

    @Test func roomCreationIsRateLimitedPerConnection() async throws {
        try await withServer { server in
            let client = try GameClient(port: server.port)
            var refused: JSONValue?
            for _ in 0..<6 where refused == nil {
                try client.send(["type": "create", "game": "snowman", "name": "Ana"])
                let reply = try client.receive { ["welcome", "error"].contains($0["type"]?.stringValue) }
                if reply["type"]?.stringValue == "error" {
                    refused = reply
                } else {
                    try client.send(["type": "leave"])
                    try client.receive { $0["type"]?.stringValue == "left" }
                }
            }
            #expect(refused?["code"]?.stringValue == "rate-limited")
            #expect(refused?["move"]?.stringValue == "create")
        }
    }

    @Test func guessingRoomCodesIsCutShort() async throws {
        try await withServer(behindProxy: true) { server in
            let (socket, head) = try upgrade(server.port, forwardedFor: "198.51.100.20")
            #expect(head.hasPrefix("HTTP/1.1 101"))
            var codes: [String] = []
            for index in 0..<12 {
                let code = "QQ" + String(Array("ABCDEFGHJKMN")[index]) + "Z"
                try socket.sendFrame(.text, Array(#"{"type":"join","code":"\#(code)","name":"Eve"}"#.utf8))
                let reply = try JSONParser().parse(try socket.readMessage().payload)
                codes.append(reply["code"]?.stringValue ?? "?")
            }
            #expect(codes.prefix(10).allSatisfy { $0 == "room-not-found" })
            #expect(codes.last == "too-many-attempts")
        }
    }
}
