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

    /// Connects from `localAddress` to a listening socket of the test's own (to see where the connection comes
    /// from), then runs `body` with the listener and what the client side heard.
    private func connect(from localAddress: String,
                         _ body: (_ listener: Int32, _ recorder: Recorder) async throws -> Void) async throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
        }
        try #require(bound == 0 && listen(listener, 8) == 0)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        let group = try EventLoopGroup(clientThreads: 1)
        group.start()
        defer { group.shutdown() }
        let recorder = Recorder()
        group.next().connect(address: "127.0.0.1", port: Int(UInt16(bigEndian: address.sin_port)), path: "/echo",
                             hostHeader: "localhost", endpoint: recorder, localAddress: localAddress)
        try await body(listener, recorder)
    }

    @Test func aConnectionComesFromTheLocalAddressAsked() async throws {
        try await connect(from: "127.128.0.7") { listener, _ in
            var peer = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let accepted = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &length) }
            }
            try #require(accepted >= 0)
            defer { close(accepted) }
            #expect(String(cString: inet_ntoa(peer.sin_addr)) == "127.128.0.7")
            #expect(UInt16(bigEndian: peer.sin_port) != 0, "the kernel chose the port at connect")
        }
    }

    @Test func aLocalAddressOfAnotherFamilyFailsTheConnection() async throws {
        try await connect(from: "::1") { listener, recorder in
            try await Task.sleep(for: .milliseconds(300))
            #expect(recorder.events.withLock { $0 } == ["failed"])
            _ = fcntl(listener, F_SETFL, O_NONBLOCK)
            #expect(accept(listener, nil, nil) == -1, "no connection was attempted")
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
