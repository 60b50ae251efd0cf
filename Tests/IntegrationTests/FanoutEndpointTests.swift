#if canImport(Glibc)
import Glibc
#endif
import Testing
import WebSocket
@testable import WordRoomsServer

/// `/fanout/NAME` over real sockets: absent unless `--bench-fanout`, then every message to every member of its
/// topic and to no one else.
@Suite struct FanoutEndpointTests {
    @Test func isNotServedByDefault() async throws {
        try await withServer { server in
            let (_, head) = try TestClient.upgrade(port: server.port, path: "/fanout/room-1")
            #expect(head.hasPrefix("HTTP/1.1 404"), "expected 404 without --bench-fanout, got \(head)")
        }
    }

    @Test func aTopicNeedsAName() async throws {
        try await withServer(options: { $0.benchFanout = true }) { server in
            #expect(throws: TestClient.Failure.self) { try TestClient.webSocket(port: server.port, path: "/fanout/") }
        }
    }

    @Test func everyMemberOfATopicGetsEveryMessageAndOtherTopicsNone() async throws {
        try await withServer(options: { $0.benchFanout = true }) { server in
            // The test server runs two loops: the members are spread over both.
            let members = try (0..<3).map { _ in try TestClient.webSocket(port: server.port, path: "/fanout/room-a") }
            let outsider = try TestClient.webSocket(port: server.port, path: "/fanout/room-b")
            for (index, sender) in members.enumerated() {
                let text = "message \(index) from member \(index) " + String(repeating: "x", count: 180)
                try sender.sendFrame(.text, Array(text.utf8))
                for (reader, member) in members.enumerated() {
                    let frame = try member.readMessage()
                    #expect(frame.opcode == 0x1, "member \(reader): expected a text frame")
                    #expect(frame.text == text, "member \(reader): expected message \(index)")
                }
            }
            try members[0].sendFrame(.binary, [0, 1, 2, 255])
            for member in members {
                let frame = try member.readMessage()
                #expect(frame.opcode == 0x2)
                #expect(frame.payload == [0, 1, 2, 255])
            }
            // The other topic's member reads its own message first: none of room-a's reached it.
            try outsider.sendFrame(.text, Array("only room-b".utf8))
            #expect(try outsider.readMessage().text == "only room-b")
        }
    }

    @Test func theTopicGoesWithItsLastMember() async throws {
        try await withServer(options: { $0.benchFanout = true }) { server in
            let fanout = try #require(server.application.fanout)
            let stayer = try TestClient.webSocket(port: server.port, path: "/fanout/t")
            let leaver = try TestClient.webSocket(port: server.port, path: "/fanout/t")
            leaver.abort()
            try stayer.sendFrame(.text, Array("after".utf8))
            #expect(try stayer.readMessage().text == "after")
            stayer.abort()
            var waited = 0
            while fanout.topics.count > 0, waited < 500 {
                usleep(10_000)
                waited += 1
            }
            #expect(fanout.topics.count == 0, "the topic should go with its last member")
        }
    }

    @Test(arguments: [("/fanout/a", "a"), ("/fanout/room-7", "room-7"), ("/fanout/a/b", "a/b")])
    func theTopicIsThePathAfterFanout(path: String, name: String) {
        #expect(FanoutEndpoint.topicName(ofPath: path) == name)
    }

    @Test(arguments: ["/fanout/", "/fanout", "/echo", "/ws/fanout/a"])
    func otherPathsHaveNoTopic(path: String) {
        #expect(FanoutEndpoint.topicName(ofPath: path) == nil)
    }
}
