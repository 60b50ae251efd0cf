import Transport
import WebSocket

/// One connection of the `idle` scenario: opens, sends nothing and stays. Pings are answered by the transport's
/// WebSocket session (RFC 6455 §5.5.2), so a connection that stays open has answered every ping in time.
///
/// Used on its worker's event-loop thread only (see `RoomBot` for why it is `@unchecked Sendable`).
final class IdleBot: ConnectionBot, @unchecked Sendable {
    unowned let worker: LoopWorker
    let maxMessageBytes: Int
    let link = BotConnection()

    init(worker: LoopWorker) {
        self.worker = worker
        self.maxMessageBytes = worker.context.options.maxMessageBytes
    }

    func didOpen(_ connection: Connection, request: HTTPRequestHead) {
        _ = openedWhileRunning(connection)
    }

    func didReceiveText(_ text: UnsafeRawBufferPointer, on connection: Connection) {
        // The game endpoint sends nothing unasked; count what comes all the same.
        worker.stats.received(bytes: text.count)
    }

    func didReceiveBinary(_ data: UnsafeRawBufferPointer, on connection: Connection) {
        worker.stats.received(bytes: data.count)
    }

    func didClose(_ connection: Connection, code: CloseCode?) {
        link.closed(code: code, on: worker)
    }
}
