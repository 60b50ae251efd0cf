import Foundation
import Synchronization
import Testing
@testable import Transport
import WebSocket

/// Connections that arrive while the server restores its rooms are accepted at once (so that the kernel's
/// backlog never overflows and drops SYNs) and served, in full and within the connection budget, only once the
/// server says so.
@Suite struct ConnectionHoldTests {
    /// Answers every request with 200 "served" and counts them.
    final class Counter: HTTPApplication, @unchecked Sendable {
        let served = Atomic<Int>(0)
        func webSocketEndpoint(for path: String) -> (any WebSocketEndpoint)? { nil }
        func respond(to request: HTTPRequestHead, from peer: SocketAddress) -> HTTPReply {
            served.add(1, ordering: .relaxed)
            return .now(.text("served"))
        }
    }

    private func server(maxConnections: Int = 0) throws -> (SocketServer, Counter) {
        var configuration = loopbackTransport(threads: 2)
        configuration.maxConnections = maxConnections
        let counter = Counter()
        return (try SocketServer(configuration: configuration, application: counter), counter)
    }

    /// Waits (up to 10 s) until `server` holds `count` connections.
    private func waitUntilHolding(_ count: Int, _ server: SocketServer) {
        for _ in 0..<1000 where server.heldConnections < count { usleep(10_000) }
    }

    /// `count` clients that each sent `GET /`, once `server` holds them all (or after 10 s).
    private func heldRequests(_ count: Int, on server: SocketServer) throws -> [TestClient] {
        let clients = try (0..<count).map { _ in try TestClient(port: server.port) }
        for client in clients { try client.send(Self.request) }
        waitUntilHolding(count, server)
        return clients
    }

    private static let request = "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n"

    @Test func heldConnectionsAreAcceptedAtOnceAndAnsweredOnlyWhenServed() async throws {
        let (server, counter) = try server()
        server.start(holdingConnections: true)
        defer { server.shutdown() }
        try await onThread {
            let clients = try heldRequests(24, on: server)
            #expect(server.heldConnections == clients.count, "accepted out of the backlog while held")
            // Nothing reads them yet: no request has reached the application, and no byte came back.
            var quiet = pollfd(fd: clients[0].fd, events: Int16(POLLIN), revents: 0)
            #expect(poll(&quiet, 1, 100) == 0)
            #expect(counter.served.load(ordering: .relaxed) == 0)

            #expect(server.serveHeldConnections() == clients.count)
            #expect(server.heldConnections == 0)
            for client in clients {
                let response = try client.readHTTPResponse()
                #expect(response.status == 200)
                #expect(String(decoding: response.body, as: UTF8.self) == "served")
            }
            // From now on the loops accept themselves.
            let late = try TestClient(port: server.port)
            try late.send(Self.request)
            #expect(try late.readHTTPResponse().status == 200)
        }
        #expect(counter.served.load(ordering: .relaxed) == 25)
    }

    @Test func heldConnectionsPastTheBudgetAreRefusedWith503WhenServed() async throws {
        let (server, counter) = try server(maxConnections: 5)
        server.start(holdingConnections: true)
        defer { server.shutdown() }
        try await onThread {
            let clients = try heldRequests(8, on: server)
            #expect(server.serveHeldConnections() == clients.count)
            let statuses = try clients.map { try $0.readHTTPResponse().status }
            // Five fit the budget; the others hear why they are turned away.
            #expect(statuses.filter { $0 == 200 }.count == 5)
            #expect(statuses.filter { $0 == 503 }.count == 3)
        }
        #expect(counter.served.load(ordering: .relaxed) == 5)
    }

    @Test func connectionsStillHeldAtShutdownAreClosed() async throws {
        let (server, counter) = try server()
        server.start(holdingConnections: true)
        let client = try TestClient(port: server.port)
        waitUntilHolding(1, server)
        server.shutdown()
        #expect(client.waitForEOF())
        #expect(counter.served.load(ordering: .relaxed) == 0)
    }

    @Test func aServerStartedWithoutHoldingServesAtOnce() async throws {
        let (server, counter) = try server()
        server.start()
        defer { server.shutdown() }
        #expect(server.serveHeldConnections() == 0)
        try await onThread {
            let client = try TestClient(port: server.port)
            try client.send(Self.request)
            #expect(try client.readHTTPResponse().status == 200)
        }
        #expect(counter.served.load(ordering: .relaxed) == 1)
    }
}
