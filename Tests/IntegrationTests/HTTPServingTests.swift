#if canImport(Glibc)
import Glibc
#endif
import Foundation
import JSON
import Rooms
import Testing
import WordRoomsServer
import WebSocket
@testable import Transport
@testable import WordRoomsServer

/// A request whose answer is checked by its status and, if given, a line of its head.
struct HTTPExchange: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let request: String
    let status: Int
    var headLine: String?

    /// The upgrade headers of a WebSocket handshake (RFC 6455 §4.1) without the key and the version.
    static let upgrade = "Upgrade: websocket\r\nConnection: Upgrade\r\n"
    /// The key of RFC 6455 §1.3's example handshake.
    static let key = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"

    static let all: [HTTPExchange] = [
        HTTPExchange(testDescription: "room links load the same page",
                     request: "GET /r/ABCD HTTP/1.1\r\nHost: x\r\n\r\n", status: 200, headLine: "text/html"),
        HTTPExchange(testDescription: "other methods get 405 with the allowed ones",
                     request: "DELETE / HTTP/1.1\r\nHost: x\r\n\r\n", status: 405, headLine: "Allow: GET, HEAD"),
        HTTPExchange(testDescription: "a malformed request gets 400",
                     request: "GET / HTTP/1.1\r\nThis line has no colon\r\n\r\n", status: 400),
        HTTPExchange(testDescription: "an oversized head gets 431",
                     request: "GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 10_000))\r\n\r\n",
                     status: 431),
        HTTPExchange(testDescription: "a wrong WebSocket version gets 426 with the supported version",
                     request: "GET /echo HTTP/1.1\r\nHost: x\r\n\(upgrade)\(key)Sec-WebSocket-Version: 8\r\n\r\n",
                     status: 426, headLine: "Sec-WebSocket-Version: 13"),
        HTTPExchange(testDescription: "an upgrade without a key gets 400",
                     request: "GET /echo HTTP/1.1\r\nHost: x\r\n\(upgrade)Sec-WebSocket-Version: 13\r\n\r\n", status: 400),
        HTTPExchange(testDescription: "an upgrade on an unknown path gets 404",
                     request: "GET /nowhere HTTP/1.1\r\nHost: x\r\n\(upgrade)\(key)Sec-WebSocket-Version: 13\r\n\r\n",
                     status: 404),
    ]
}

/// Plain HTTP on the WebSocket port: static files, health, errors, keep-alive and bad handshakes.
@Suite struct HTTPServingTests {
    private func request(_ port: Int, _ text: String) throws -> (status: Int, head: String, body: [UInt8]) {
        let client = try TestClient(port: port)
        try client.send(text)
        return try client.readHTTPResponse()
    }

    @Test(arguments: HTTPExchange.all)
    func answersWithTheStatusAndHeadLine(_ exchange: HTTPExchange) async throws {
        try await withServer { server in
            let response = try request(server.port, exchange.request)
            #expect(response.status == exchange.status)
            if let line = exchange.headLine {
                #expect(response.head.contains(line))
            }
        }
    }

    @Test func servesTheIndexPageAsHTML() async throws {
        try await withServer { server in
            let response = try request(server.port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(response.status == 200)
            #expect(response.head.contains("Content-Type: text/html; charset=utf-8"))
            #expect(String(decoding: response.body, as: UTF8.self).contains("<title>WordRooms</title>"))
        }
    }

    /// The game page, a room link, the dashboard and the 404 page carry the page policies; the policy names
    /// only this origin (a page from elsewhere cannot frame it or load scripts into it).
    @Test(arguments: ["/", "/r/ABCD", "/admin", "/no-such-page"])
    func pagesSendAContentSecurityPolicyAndAReferrerPolicy(path: String) async throws {
        try await withServer { server in
            let response = try request(server.port, "GET \(path) HTTP/1.1\r\nHost: x\r\nAccept: text/html\r\n\r\n")
            #expect(response.head.contains("Content-Type: text/html"))
            #expect(response.head.contains(
                "Content-Security-Policy: default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'\r\n"))
            #expect(response.head.contains("Referrer-Policy: no-referrer\r\n"))
            // Nothing inline that the policy would block.
            let page = String(decoding: response.body, as: UTF8.self)
            #expect(!page.contains("<script>") && !page.contains("<style") && !page.contains(" style=\""))
        }
    }

    @Test func healthCheckSaysOK() async throws {
        try await withServer { server in
            let response = try request(server.port, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == "ok\n")
        }
    }

    @Test func headHasNoBodyButTheLength() async throws {
        try await withServer { server in
            let client = try TestClient(port: server.port)
            try client.send("HEAD /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try client.readHTTPHead()
            #expect(head.contains("Content-Length: 3"))
            // The next response follows at once: the HEAD response carried no body bytes.
            let next = try client.readHTTPResponse()
            #expect(next.status == 200)
            #expect(next.body == Array("ok\n".utf8))
        }
    }

    @Test func keepAliveServesPipelinedRequestsInOrder() async throws {
        try await withServer { server in
            let client = try TestClient(port: server.port)
            try client.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /missing.txt HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try client.readHTTPResponse().status == 200)
            #expect(try client.readHTTPResponse().status == 404)
            try client.send("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let last = try client.readHTTPResponse()
            #expect(last.status == 200)
            #expect(last.head.contains("Connection: close"))
            #expect(client.waitForEOF())
        }
    }

    /// A request smuggled in the body of another (RFC 9112 §6.3): the first `Content-Length` said 0, so the
    /// old server answered the bytes after the head as a second request.
    @Test func twoContentLengthsGet400AndNoSecondResponse() async throws {
        try await withServer { server in
            let client = try TestClient(port: server.port)
            let smuggled = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
            try client.send("GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n"
                            + "Content-Length: \(smuggled.utf8.count)\r\n\r\n" + smuggled)
            let response = try client.readHTTPResponse()
            #expect(response.status == 400)
            #expect(String(decoding: response.body, as: UTF8.self).contains("Content-Length"))
            let rest = try #require(client.readUntilEOF())
            #expect(rest.isEmpty, "a second response followed: \(String(decoding: rest, as: UTF8.self))")
        }
    }

    @Test(arguments: [
        "/../Package.swift", "/%2e%2e/Package.swift", "/%2E%2E%2FPackage.swift", "/..%2fPackage.swift",
        "/.git/config", "/web/../../etc/passwd", "/%00index.html", "/%zz",
    ])
    func refusesPathsOutsideTheWebRoot(path: String) async throws {
        try await withServer { server in
            let response = try request(server.port, "GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(response.status == 400 || response.status == 404)
            #expect(!String(decoding: response.body, as: UTF8.self).contains("swift-tools-version"))
        }
    }

    @Test func halfSentRequestIsDroppedAfterTheTimeout() async throws {
        try await withServer(configure: { $0.requestTimeoutSeconds = 1 }) { server in
            let client = try TestClient(port: server.port)
            try client.send("GET / HTTP/1.1\r\nHost: x\r\n")
            let response = try client.readHTTPResponse()
            #expect(response.status == 408)
            #expect(client.waitForEOF())
        }
    }

    /// Runs `body` with a WebSocket client of a server that pings after a second of silence and waits a second
    /// for the pong.
    private func withPingedClient(_ body: @escaping @Sendable (TestClient) throws -> Void) async throws {
        try await withServer(configure: { $0.pingIntervalSeconds = 1; $0.pongTimeoutSeconds = 1 }) { server in
            try body(TestClient.webSocket(port: server.port))
        }
    }

    @Test func silentWebSocketPeerIsPingedThenDropped() async throws {
        try await withPingedClient { client in
            let ping = try client.readFrame()
            #expect(ping.opcode == 0x9)
            // Not answering the ping: the server gives up on us.
            #expect(client.waitForEOF())
        }
    }

    @Test func peerAnsweringPingsStaysConnected() async throws {
        try await withPingedClient { client in
            for _ in 0..<3 {
                let ping = try client.readFrame()
                #expect(ping.opcode == 0x9)
                try client.sendFrame(.pong, ping.payload)
            }
            try client.sendFrame(.text, Array("still here".utf8))
            #expect(try client.readMessage().text == "still here")
        }
    }

    @Test func echoAppliesBackpressureInsteadOfDroppingAFastSender() async throws {
        try await withServer(maxMessageBytes: 1 << 20) { server in
            let client = try TestClient.webSocket(port: server.port)
            let payload = [UInt8](repeating: 7, count: 60_000)
            let frames = 300  // 18 MB: far more than the kernel buffers and the server's pause threshold hold
            let shared = Unchecked(value: client)
            let writer = Thread {
                for _ in 0..<frames {
                    try? shared.value.sendFrame(.binary, payload)
                }
            }
            writer.start()
            // Read nothing for a while: the server must stop reading from us rather than drop us.
            Thread.sleep(forTimeInterval: 1)
            var echoed = 0
            for _ in 0..<frames {
                let frame = try client.readMessage()
                if frame.payload.count == payload.count { echoed += 1 }
            }
            #expect(echoed == frames)
            let counters = waitFor { await server.transport.counters() }
            #expect(counters.slowConsumers == 0)
        }
    }

    @Test func aBurstRepliedInOnePassIsNotASlowConsumer() async throws {
        // 400 echoes of 1 KB arrive in one write and are answered in one pass: 400 KB queued at once, far over a
        // 64 KiB allowance, but the socket takes it as fast as the client reads, so nobody is cut off.
        try await withServer(configure: { $0.maxOutboundBytes = 64 * 1024 }) { server in
            let client = try TestClient.webSocket(port: server.port)
            let payload = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
            var burst: [UInt8] = []
            for _ in 0..<400 {
                burst += FrameEncoder.encode(.text, payload: payload, maskingKey: FrameEncoder.randomMaskingKey())
            }
            let shared = Unchecked(value: client)
            let bytes = burst
            let writer = Thread { try? shared.value.send(bytes) }
            writer.start()
            for _ in 0..<400 {
                let message = try client.readMessage()
                #expect(message.payload.count == payload.count)
            }
            let counters = waitFor { await server.transport.counters() }
            #expect(counters.slowConsumers == 0)
        }
    }

    @Test func broadcastToAClientThatNeverReadsIsCutOff() async throws {
        // The room's chat budget is another test's: on a fast machine this flood outruns it, and a refused line
        // never becomes the patch the host waits for.
        var rooms = RoomConfiguration()
        rooms.chatBudgetBytesPerSecond = 1 << 40
        // A generous close timeout: the lurker reads megabytes through a 4 KiB window before the close frame.
        try await withServer(rooms: rooms, limits: .messages(perSecond: 1_000_000, burst: 1_000_000),
                             configure: { $0.maxOutboundBytes = 64 * 1024; $0.closeTimeoutSeconds = 60 }) { server in
            let host = try GameClient.create(port: server.port, game: "snowman", name: "Host")
            // A spectator with a tiny receive window that never reads.
            let lurker = try TestClient(port: server.port, receiveBuffer: 4096)
            try lurker.send(WebSocketHandshake.clientRequest(host: "x", path: "/ws", key: WebSocketHandshake.randomKey()))
            _ = try lurker.readHTTPHead()
            try lurker.sendFrame(.text, Array(#"{"type":"join","code":"\#(host.code!)","name":"Lurker","spectator":true}"#.utf8))
            try host.receive { _ in host.state["members"]?.arrayValue?.count == 2 }
            let chat = String(repeating: "x", count: 190)
            var cutOff = false
            for index in 0..<40_000 where !cutOff {
                try host.send(["type": "chat", "text": JSONValue("\(index) \(chat)")])
                if index % 500 == 499 {
                    while host.seq < index { try host.receive() }
                    cutOff = host.state["members"]?[1]?["connected"]?.boolValue == false
                }
            }
            #expect(cutOff)
            let counters = waitFor { await server.transport.counters() }
            #expect(counters.slowConsumers == 1)
            // Reading at last, the lurker gets whole frames, then a close frame saying why.
            var closeCode: UInt16?
            while closeCode == nil {
                let frame = try lurker.readFrame()
                #expect(frame.opcode == 0x1 || frame.opcode == 0x8)
                if frame.opcode == 0x8 { closeCode = frame.closeCode }
            }
            #expect(closeCode == 1008)
        }
    }
}
