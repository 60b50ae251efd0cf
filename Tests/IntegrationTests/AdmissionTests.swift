#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import WordRoomsServer

/// Connections that never upgrade must not take every slot: a cap per address on connections not yet upgraded,
/// and, at `--max-connections`, a newcomer from another address takes the place of the largest holder's oldest
/// idle connection. The other client address is 127.0.0.2: all of 127.0.0.0/8 is loopback on Linux.
@Suite struct AdmissionTests {
    private static let other = "127.0.0.2"

    /// Opens `count` idle TCP connections from `source` (nothing sent) and waits until the server holds them.
    private func idleConnections(_ count: Int, from source: String, to server: WordRoomsServer) throws -> [TestClient] {
        let clients = try (0..<count).map { _ in try TestClient(port: server.port, source: source) }
        let deadline = Date().addingTimeInterval(10)
        while waitFor({ await server.transport.counters().accepted }) < count, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        return clients
    }

    /// Sends `GET /healthz` on a new connection and returns the status, and the connection (kept open, so that
    /// its slot stays taken).
    private func health(_ port: Int, from source: String? = nil) throws -> (status: Int, client: TestClient) {
        let client = try TestClient(port: port, source: source)
        try client.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        return (try client.readHTTPResponse().status, client)
    }

    /// Whether the server has closed `client`'s connection, without waiting.
    private func isClosed(_ client: TestClient) -> Bool {
        var byte: UInt8 = 0
        let n = recv(client.fd, &byte, 1, Int32(MSG_DONTWAIT | MSG_PEEK))
        return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// Before: one address holding `--max-connections` idle sockets made every other client get 503.
    @Test func idleSocketsOfOneAddressLeaveRoomForAnother() async throws {
        // Idle sockets would be dropped after the request timeout (408) on a loaded machine: not under test here.
        try await withServer(options: { $0.maxConnections = 40 }, configure: { $0.requestTimeoutSeconds = 600 }) { server in
            let idle = try idleConnections(40, from: Self.other, to: server)
            // The full server refuses the holder itself: it cannot evict its own sockets for new ones.
            #expect(try health(server.port, from: Self.other).status == 503)
            // Another address gets in, twice, each time in place of one of the holder's idle sockets.
            let first = try health(server.port)
            let second = try health(server.port)
            #expect(first.status == 200 && second.status == 200)
            Thread.sleep(forTimeInterval: 0.2)
            #expect(idle.filter(isClosed).count == 2, "two idle sockets made room")
            #expect(waitFor { await server.transport.counters().connectionsEvicted } == 2)
        }
    }

    /// Before: no cap; an address could hold as many unfinished connections as the server would take.
    @Test func anAddressBeyondItsPendingCapGets429() async throws {
        try await withServer(options: { $0.maxPendingPerIP = 5 }, configure: {
            $0.isExemptFromPendingCap = { _ in false }
            $0.requestTimeoutSeconds = 600
        }) { server in
            var idle = try idleConnections(5, from: Self.other, to: server)
            let refused = try TestClient(port: server.port, source: Self.other)
            let response = try refused.readHTTPResponse()
            #expect(response.status == 429)
            #expect(String(decoding: response.body, as: UTF8.self).contains("your address"))
            // The cap is per address, and an upgrade or a close frees a place.
            #expect(try health(server.port).status == 200)
            idle.removeLast().abort()
            Thread.sleep(forTimeInterval: 0.2)
            #expect(try health(server.port, from: Self.other).status == 200)
        }
    }

    /// WebSockets that are open are not pending: the cap never closes a player.
    @Test func openWebSocketsDoNotCountAgainstThePendingCap() async throws {
        try await withServer(options: { $0.maxPendingPerIP = 2 },
                             configure: { $0.isExemptFromPendingCap = { _ in false } }) { server in
            let sockets = try (0..<4).map { _ in try TestClient.webSocket(port: server.port) }
            #expect(sockets.count == 4)
            #expect(try health(server.port).status == 200)
        }
    }
}
