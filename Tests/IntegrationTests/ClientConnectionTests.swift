import Foundation
import Synchronization
import Testing
import Transport
import WebSocket

/// The client side of the transport (what the bots use) against the real server.
@Suite struct ClientConnectionTests {
    final class Recorder: WebSocketEndpoint, @unchecked Sendable {
        let maxMessageBytes = 1 << 20
        let events = Mutex<[String]>([])

        func didOpen(_ connection: Connection, request: HTTPRequestHead) {
            events.withLock { $0.append("open") }
            connection.sendText("hello")
        }
        func didReceiveText(_ text: UnsafeRawBufferPointer, on connection: Connection) {
            let string = String(decoding: text, as: UTF8.self)
            events.withLock { $0.append("text \(string)") }
        }
        func didReceiveBinary(_ data: UnsafeRawBufferPointer, on connection: Connection) {}
        func didClose(_ connection: Connection, code: CloseCode?) {
            events.withLock { $0.append("closed \(code?.rawValue ?? 1006)") }
        }
        func connectionFailed(reason: String) {
            events.withLock { $0.append("failed") }
        }
    }

    @Test func idleClientPingsAreMaskedSoTheServerKeepsTheConnection() async throws {
        try await withServer { server in
            var configuration = TransportConfiguration()
            configuration.pingIntervalSeconds = 1
            configuration.pongTimeoutSeconds = 5
            let group = try EventLoopGroup(clientThreads: 1, configuration: configuration)
            group.start()
            defer { group.shutdown() }
            let recorder = Recorder()
            group.next().connect(address: "127.0.0.1", port: server.port, path: "/echo", hostHeader: "localhost",
                                 endpoint: recorder)
            // Long enough for the client to ping the server twice; an unmasked ping would be closed with 1002.
            Thread.sleep(forTimeInterval: 3)
            #expect(recorder.events.withLock { $0 } == ["open", "text hello"])
        }
    }

    @Test func refusedConnectionsReportFailureNotClose() async throws {
        let group = try EventLoopGroup(clientThreads: 1)
        group.start()
        defer { group.shutdown() }
        let recorder = Recorder()
        // Nothing listens on port 1.
        group.next().connect(address: "127.0.0.1", port: 1, path: "/echo", hostHeader: "localhost", endpoint: recorder)
        try await Task.sleep(for: .milliseconds(500))
        #expect(recorder.events.withLock { $0 } == ["failed"])
    }
}
