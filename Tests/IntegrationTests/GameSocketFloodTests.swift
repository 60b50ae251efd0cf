import Deflate
import Foundation
import JSON
import Testing
import WebSocket
@testable import WordRoomsServer

/// A game socket that floods: its rate limit's close takes effect at once, and a compressed message is bounded by
/// its inflate ratio as well as by the 16 KiB cap.
@Suite struct GameSocketFloodTests {
    /// Reads server frames until the close frame, and returns the messages before it and its code.
    private func messagesUntilClose(_ client: TestClient) throws -> (messages: [JSONValue], code: UInt16?) {
        var messages: [JSONValue] = []
        while true {
            let frame = try client.readFrame()
            switch frame.opcode {
            case 0x8: return (messages, frame.closeCode)
            case 0x1: messages.append(try JSONParser().parse(frame.payload))
            default: continue
            }
        }
    }

    @Test func aRateLimitedConnectionIsClosedAtOnceWithNothingMoreHandled() async throws {
        try await withServer(limits: .messages(perSecond: 1, burst: 10, strikesBeforeClose: 20)) { server in
            let client = try TestClient.webSocket(port: server.port, path: "/ws")
            // 500 pings in one write: the server reads most of them at once, long after the limit closed it.
            var flood: [UInt8] = []
            for id in 0..<500 {
                flood += FrameEncoder.encode(.text, payload: Array(#"{"type":"ping","id":\#(id)}"#.utf8),
                                             maskingKey: FrameEncoder.randomMaskingKey())
            }
            try client.send(flood)
            let (messages, code) = try messagesUntilClose(client)
            #expect(code == 1008)
            // The burst is answered, then each refused message gets an error until the last strike closes.
            #expect(messages.filter { $0["type"]?.stringValue == "pong" }.count == 10)
            #expect(messages.filter { $0["code"]?.stringValue == "rate-limited" }.count == 19)
            // The server does not wait for our close frame: the connection ends without one from us.
            #expect(client.waitForEOF())
            let counters = waitFor { await server.transport.counters() }
            #expect(counters.messagesIn == 30, "the server handled \(counters.messagesIn) messages")
        }
    }

    @Test func aGameSocketRefusesAMessageInflatingPastTheRatioGuard() async throws {
        try await withServer { server in
            let client = try TestClient(port: server.port)
            let key = WebSocketHandshake.randomKey()
            try client.send(WebSocketHandshake.clientRequest(
                host: "localhost:\(server.port)", path: "/ws", key: key,
                extraHeaders: [("Sec-WebSocket-Extensions", "permessage-deflate; client_max_window_bits")]))
            let head = try client.readHTTPHead()
            try #require(head.hasPrefix("HTTP/1.1 101") && head.contains("permessage-deflate"))
            // 16,325 bytes, under the 16 KiB cap, from 61 compressed: 268:1, past the ratio of 256.
            let chat = Array(#"{"type":"chat","text":""#.utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 16_300)
                + Array(#""}"#.utf8)
            let compressed = try Deflater(resetsContext: true).compress(chat)
            try #require(chat.count > compressed.count * 256 && chat.count <= 16 * 1024)
            try client.send(FrameEncoder.encode(.text, payload: compressed, compressed: true,
                                                maskingKey: FrameEncoder.randomMaskingKey()))
            let (messages, code) = try messagesUntilClose(client)
            #expect(messages.isEmpty, "the message reached the game socket: \(messages)")
            #expect(code == 1009)
        }
    }
}
