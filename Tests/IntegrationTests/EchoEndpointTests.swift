#if canImport(Glibc)
import Glibc
#endif
import Testing
import WebSocket
@testable import Transport
@testable import WordRoomsServer

/// The `/echo` endpoint over real sockets: handshake, framing rules and close handshake as a client sees them.
@Suite struct EchoEndpointTests {
    @Test func handshakeReturnsTheRFCAcceptKey() async throws {
        try await withServer { server in
            let (_, head) = try TestClient.upgrade(port: server.port, path: "/echo", connection: "keep-alive, Upgrade")
            #expect(head.hasPrefix("HTTP/1.1 101"))
            #expect(head.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="))
        }
    }

    /// Sends one message to `/echo` on a fresh server and expects it back whole, under the same opcode.
    private func expectEchoed(_ opcode: WebSocketOpcode, _ payload: [UInt8], maxMessageBytes: Int = 64 * 1024,
                              sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await withServer(maxMessageBytes: maxMessageBytes) { server in
            let client = try TestClient.webSocket(port: server.port)
            try client.sendFrame(opcode, payload)
            let frame = try client.readMessage()
            #expect(frame.opcode == opcode.rawValue, sourceLocation: sourceLocation)
            #expect(frame.payload == payload, sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [0, 1, 125, 126, 65535, 65536])
    func echoesTextOfEverySizeUpToTheCap(size: Int) async throws {
        let text = String(repeating: "é", count: size / 2) + (size % 2 == 1 ? "x" : "")
        try await expectEchoed(.text, Array(text.utf8), maxMessageBytes: 65536)
    }

    /// `/echo` answers anyone who asks, as fast as they send: a benchmark's tool, not a public endpoint.
    @Test func isOffWithoutBenchEcho() async throws {
        try await withServer(options: { $0.benchEcho = false }) { server in
            #expect(throws: TestClient.Failure.self) { try TestClient.webSocket(port: server.port) }
            let client = try TestClient(port: server.port)
            try client.send("GET /echo HTTP/1.1\r\nHost: x\r\n\(HTTPExchange.upgrade)\(HTTPExchange.key)Sec-WebSocket-Version: 13\r\n\r\n")
            #expect(try client.readHTTPResponse().status == 404)
        }
    }

    @Test func echoesBinary() async throws {
        try await expectEchoed(.binary, (0..<3000).map { UInt8(truncatingIfNeeded: $0 * 7) })
    }

    @Test func reassemblesFragmentsWithAPingBetween() async throws {
        try await withServer { server in
            let client = try TestClient.webSocket(port: server.port)
            try client.sendFrame(.text, Array("Hel".utf8), fin: false)
            try client.sendFrame(.ping, Array("are you there".utf8))
            try client.sendFrame(.continuation, Array("lo, ".utf8), fin: false)
            try client.sendFrame(.continuation, Array("world".utf8))
            let pong = try client.readFrame()
            #expect(pong.opcode == 0xA)
            #expect(pong.text == "are you there")
            let message = try client.readFrame()
            #expect(message.opcode == 0x1)
            #expect(message.text == "Hello, world")
        }
    }

    @Test func answersCloseWithTheSameCodeAndClosesTCP() async throws {
        try await withServer { server in
            let client = try TestClient.webSocket(port: server.port)
            try client.send(FrameEncoder.encodeClose(code: .normalClosure, reason: "bye",
                                                     maskingKey: FrameEncoder.randomMaskingKey()))
            let reply = try client.readFrame()
            #expect(reply.opcode == 0x8)
            #expect(reply.closeCode == 1000)
            #expect(client.waitForEOF())
        }
    }

    @Test func rejectsUnmaskedClientFramesWith1002() async throws {
        try await withServer { server in
            let client = try TestClient.webSocket(port: server.port)
            // An unmasked "Hello" text frame, RFC 6455 §5.7: legal from a server, not from a client.
            try client.send([0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f])
            let reply = try client.readFrame()
            #expect(reply.opcode == 0x8)
            #expect(reply.closeCode == 1002)
            #expect(client.waitForEOF())
        }
    }

    @Test func closesOversizedMessagesWith1009() async throws {
        try await withServer(maxMessageBytes: 1000) { server in
            let client = try TestClient.webSocket(port: server.port)
            try client.sendFrame(.binary, [UInt8](repeating: 1, count: 1001))
            let reply = try client.readFrame()
            #expect(reply.closeCode == 1009)
        }
    }

    @Test func closesInvalidUTF8With1007() async throws {
        try await withServer { server in
            let client = try TestClient.webSocket(port: server.port)
            try client.sendFrame(.text, [0x48, 0xC0, 0xAF])  // an overlong encoding of "/"
            let reply = try client.readFrame()
            #expect(reply.closeCode == 1007)
        }
    }

    @Test func echoesOverIPv6() async throws {
        try await withServer(host: "::1") { server in
            let client = try TestClient.webSocket(port: server.port, host: "::1")
            try client.sendFrame(.text, Array("over v6".utf8))
            #expect(try client.readMessage().text == "over v6")
        }
    }

    @Test func dualStackListenerTakesIPv4Clients() async throws {
        try await withServer(host: "::") { server in
            let client = try TestClient.webSocket(port: server.port, host: "127.0.0.1")
            try client.sendFrame(.text, Array("v4 on a v6 socket".utf8))
            #expect(try client.readMessage().text == "v4 on a v6 socket")
        }
    }

    @Test func shutdownSendsGoingAwayToEveryClient() async throws {
        var options = loopbackServerOptions()
        options.benchEcho = true
        let server = try WordRoomsServer(options: options)
        try await onThread {
            let clients = try (0..<10).map { _ in try TestClient.webSocket(port: server.port) }
            server.shutdown()
            for client in clients {
                let frame = try client.readFrame()
                #expect(frame.opcode == 0x8)
                #expect(frame.closeCode == 1001)
            }
        }
    }

    @Test func thousandConcurrentClientsEachGetTheirOwnEcho() async throws {
        try await withServer { server in
            var clients: [TestClient] = []
            for _ in 0..<1000 {
                clients.append(try TestClient(port: server.port))
            }
            var keys: [String] = []
            for client in clients {
                let key = WebSocketHandshake.randomKey()
                keys.append(key)
                try client.send(WebSocketHandshake.clientRequest(host: "localhost", path: "/echo", key: key))
            }
            for (client, key) in zip(clients, keys) {
                let head = try client.readHTTPHead()
                #expect(head.contains(WebSocketHandshake.acceptValue(forKey: key)))
            }
            for (index, client) in clients.enumerated() {
                try client.sendFrame(.text, Array("client \(index)".utf8))
            }
            var wrong = 0
            for (index, client) in clients.enumerated() where try client.readMessage().text != "client \(index)" {
                wrong += 1
            }
            #expect(wrong == 0)
        }
    }
}
