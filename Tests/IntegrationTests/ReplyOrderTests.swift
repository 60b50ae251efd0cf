import Foundation
import Synchronization
import Testing
@testable import Transport
import WebSocket
import Runtime

/// When one pass of the event loop finds many sockets readable (after a pause: a busy core, a descheduled VM),
/// the reply to each message must leave before the next socket is read, not once the whole batch is read. The
/// replies here come from work queued on the loop's executor, as a room's patches do: the endpoint only hands the
/// message over.
@Suite struct ReplyOrderTests {
    /// Replies "ok" to every message from a job on its loop's executor, and notes for each message how many earlier
    /// ones were still unanswered on the wire when it was read. Only its loop's thread touches `open` and `pending`.
    final class Replier: WebSocketEndpoint, HTTPApplication, @unchecked Sendable {
        let maxMessageBytes = 1024
        private var open: [Connection] = []
        private var pending: [Connection] = []
        let waiting = Mutex<[Int]>([])
        /// The loop's executor, set before the server starts.
        var executor: ThreadExecutor?

        func replyToPending() {
            let due = pending
            pending.removeAll()
            for connection in due where connection.isOpen { connection.sendText("ok") }
        }

        func webSocketEndpoint(for path: String) -> (any WebSocketEndpoint)? { self }
        func respond(to request: HTTPRequestHead, from peer: SocketAddress) -> HTTPReply {
            .now(HTTPResponse(status: 404))
        }

        func didOpen(_ connection: Connection, request: HTTPRequestHead) { open.append(connection) }
        func didReceiveText(_ text: UnsafeRawBufferPointer, on connection: Connection) {
            // Earlier messages whose reply has not reached the socket yet: still to be made, or made and queued.
            let unanswered = pending.count + open.filter { $0 !== connection && $0.outbound.count > 0 }.count
            waiting.withLock { $0.append(unanswered) }
            pending.append(connection)
            executor?.execute { self.replyToPending() }
        }
        func didReceiveBinary(_ data: UnsafeRawBufferPointer, on connection: Connection) {}
        func didClose(_ connection: Connection, code: CloseCode?) { open.removeAll { $0 === connection } }
    }

    @Test func eachReplyLeavesBeforeTheNextSocketIsRead() async throws {
        let configuration = loopbackTransport(threads: 1)
        let replier = Replier()
        let server = try SocketServer(configuration: configuration, application: replier)
        replier.executor = server.eventLoops[0].executor
        server.start()
        defer { server.shutdown() }
        try await onThread {
            let clients = try (0..<4).map { _ in try TestClient.webSocket(port: server.port, path: "/") }
            // Hold the loop while every client sends, so that one pass finds all four sockets readable.
            server.eventLoops[0].execute { _ in usleep(300_000) }
            Thread.sleep(forTimeInterval: 0.05)
            for client in clients { try client.sendFrame(.text, Array("move".utf8)) }
            for client in clients {
                let reply = try client.readMessage()
                #expect(String(decoding: reply.payload, as: UTF8.self) == "ok")
            }
        }
        #expect(replier.waiting.withLock { $0 } == [0, 0, 0, 0])
    }
}
