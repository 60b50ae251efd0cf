import Deflate
import Foundation
import Synchronization
import Testing
@testable import Transport
import WebSocket

/// One connection flooding its event loop with small compressed messages that inflate large (a deflate bomb
/// within the limits) gets a bounded share of each pass: another connection on the same loop is answered while
/// the flood is still being handled, and none of the flood is lost for being left to a later turn.
@Suite struct LoopFairnessTests {
    /// What a flooding message inflates to: 11,000 bytes of one letter, about 30 bytes compressed.
    static let bomb = [UInt8](repeating: UInt8(ascii: "a"), count: 11_000)
    static let floodCount = 4_000

    /// Notes, in the order the loop delivered them, the first byte of each message ("a" for the flood), and
    /// answers every short message with itself, uncompressed.
    final class Recorder: WebSocketEndpoint, HTTPApplication, @unchecked Sendable {
        let maxMessageBytes = 64 * 1024
        let compression = WebSocketCompression.perConnection
        let order = Mutex<[UInt8]>([])

        func webSocketEndpoint(for path: String) -> (any WebSocketEndpoint)? { self }
        func respond(to request: HTTPRequestHead, from peer: SocketAddress) -> HTTPReply {
            .now(HTTPResponse(status: 404))
        }

        func didOpen(_ connection: Connection, request: HTTPRequestHead) {}
        func didReceiveText(_ text: UnsafeRawBufferPointer, on connection: Connection) {
            order.withLock { $0.append(text.first ?? 0) }
            if text.count < 100 { connection.send(frame: FrameEncoder.encode(.text, payload: text)) }
        }
        func didReceiveBinary(_ data: UnsafeRawBufferPointer, on connection: Connection) {}
        func didClose(_ connection: Connection, code: CloseCode?) {}
    }

    /// A raw client that offers permessage-deflate and compresses with its own zlib stream.
    private static func deflateClient(port: Int) throws -> TestClient {
        let client = try TestClient(port: port)
        let key = WebSocketHandshake.randomKey()
        try client.send(WebSocketHandshake.clientRequest(host: "localhost:\(port)", path: "/", key: key,
                                                         extraHeaders: [("Sec-WebSocket-Extensions",
                                                                         "permessage-deflate")]))
        let head = try client.readHTTPHead()
        guard head.hasPrefix("HTTP/1.1 101"), head.contains("permessage-deflate") else {
            throw TestClient.Failure(description: "no permessage-deflate agreement: \(head)")
        }
        return client
    }

    @Test func aDeflateFloodDoesNotHoldAnotherConnectionOnItsLoop() async throws {
        let configuration = loopbackTransport(threads: 1)
        let recorder = Recorder()
        let server = try SocketServer(configuration: configuration, application: recorder)
        server.start()
        defer { server.shutdown() }
        try await onThread {
            let attacker = try Self.deflateClient(port: server.port)
            let player = try TestClient.webSocket(port: server.port, path: "/")
            // Every flood message compressed on its own (the window is not needed), RSV1 on its one frame.
            let compressed = try Deflater().compress(Self.bomb)
            var flood: [UInt8] = []
            for _ in 0..<Self.floodCount {
                flood += FrameEncoder.encode(.text, payload: compressed, compressed: true,
                                             maskingKey: FrameEncoder.randomMaskingKey())
            }
            // Hold the loop while the flood and then the player's message arrive, so that a pass finds the flood
            // first. (A flood larger than the socket buffers is taken in as the loop reads: the player's message
            // then comes later, and must still not wait for the rest.)
            server.eventLoops[0].execute { _ in usleep(300_000) }
            Thread.sleep(forTimeInterval: 0.05)
            try attacker.send(flood + FrameEncoder.encode(.text, payload: Array("done".utf8),
                                                          maskingKey: FrameEncoder.randomMaskingKey()))
            try player.sendFrame(.text, Array("hello".utf8))
            #expect(try player.readMessage().text == "hello")
            #expect(try attacker.readMessage().text == "done")
        }
        let order = recorder.order.withLock { $0 }
        let floodBeforeHello = order.prefix { $0 != UInt8(ascii: "h") }.count
        // Under a few turns of the flood (about 24 of these messages a turn), not a read's worth (thousands).
        #expect(floodBeforeHello < Self.floodCount / 10, "the player waited for \(floodBeforeHello) flood messages")
        // Nothing of the flood was lost for being left to later turns, and it kept its order.
        #expect(order.filter { $0 == UInt8(ascii: "a") }.count == Self.floodCount)
        #expect(order.last == UInt8(ascii: "d"))
    }
}
