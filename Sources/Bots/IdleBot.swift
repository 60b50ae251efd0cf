import Transport
import WebSocket
import Runtime

/// One connection of the `idle` scenario: opens, sends nothing and stays. Pings are answered by the transport's
/// WebSocket session (RFC 6455 §5.5.2), so a connection that stays open has answered every ping in time.
///
/// Used on its worker's event-loop thread only (see `GameBot` for why it is `@unchecked Sendable`).
final class IdleBot: WebSocketEndpoint, @unchecked Sendable {
    unowned let worker: LoopWorker
    let maxMessageBytes: Int
    private var connection: Connection?
    private var opened = false
    private var closeExpected = false
    private var connectStartedAt: UInt64 = 0

    init(worker: LoopWorker) {
        self.worker = worker
        self.maxMessageBytes = worker.context.options.maxMessageBytes
    }

    func start() {
        guard worker.running else { return }
        connectStartedAt = MonotonicClock.nanoseconds()
        worker.connect(self)
    }

    func finish() {
        if let connection {
            closeExpected = true
            connection.close(code: .normalClosure)
        }
    }

    func didOpen(_ connection: Connection, request: HTTPRequestHead) {
        self.connection = connection
        opened = true
        worker.recordOpen(startedAt: connectStartedAt)
        if !worker.running { finish() }
    }

    func didReceiveText(_ text: UnsafeRawBufferPointer, on connection: Connection) {
        // The game endpoint sends nothing unasked; count what comes all the same.
        worker.stats.messagesIn += 1
        worker.stats.bytesIn += text.count
    }

    func didReceiveBinary(_ data: UnsafeRawBufferPointer, on connection: Connection) {
        worker.stats.messagesIn += 1
        worker.stats.bytesIn += data.count
    }

    func didClose(_ connection: Connection, code: CloseCode?) {
        self.connection = nil
        worker.recordClose(opened: opened, expected: closeExpected, code: code)
        opened = false
    }

    func connectionFailed(reason: String) {
        worker.stats.connectFailures[reason, default: 0] += 1
    }
}
