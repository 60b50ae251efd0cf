import JSON
import Runtime
import Transport
import WebSocket

/// The client side of one bot's WebSocket connection, shared by every kind of bot: opening it through the
/// worker's loop (TCP connect and opening handshake), the counts and timings of opening and closing, messages
/// out, and closing it normally or dropping it. A bot that reconnects (a churner resuming) opens it again.
///
/// A class, not a value inside its bot: closing or dropping a connection can call the bot's `didClose`, and so
/// `closed`, before `close` returns, which a mutating method of a struct would turn into overlapping accesses.
/// Used on the worker's loop thread only.
final class BotConnection {
    /// How a connection ended, for the bot to decide what comes next.
    enum Ending {
        /// The TCP connection or the opening handshake failed (counted as a failed connection).
        case neverOpened
        /// Closed by the peer or the network, not by the bot.
        case unexpected
        /// Closed or dropped by the bot itself.
        case expected
    }

    /// The open connection, nil before the handshake completed and after the close.
    private(set) var connection: Connection?
    /// The handshake of the current connection completed.
    private var opened = false
    /// The bot closed (or dropped) the current connection itself.
    private var closeExpected = false
    /// Monotonic nanoseconds when the current connection was started.
    private var startedAt: UInt64 = 0

    /// Whether messages can be sent now.
    var isOpen: Bool { connection?.isOpen == true }

    /// Starts a connection for `endpoint` on the worker's loop; `didOpen` or `connectionFailed` follows.
    ///
    /// - Parameter path: The request path, when not the run's (`BotOptions.path`): a fanout room's.
    func connect(_ endpoint: any WebSocketEndpoint, on worker: LoopWorker, path: String? = nil,
                 at now: UInt64 = MonotonicClock.nanoseconds()) {
        startedAt = now
        worker.connect(endpoint, path: path)
    }

    /// The opening handshake completed (the endpoint's `didOpen`).
    func opened(_ connection: Connection, on worker: LoopWorker) {
        self.connection = connection
        opened = true
        closeExpected = false
        worker.recordOpen(startedAt: startedAt)
    }

    /// Closes the connection normally (1000), if there is one.
    func close() {
        guard let connection else { return }
        closeExpected = true
        connection.close(code: .normalClosure)
    }

    /// Ends the TCP connection without a close frame, as a dropped network does.
    func drop() {
        connection?.abort()
    }

    /// The connection is gone (the endpoint's `didClose`): counts the close and says how it ended.
    ///
    /// - Parameter planned: The bot ended it on purpose some other way than `close()` (a drop).
    @discardableResult
    func closed(code: CloseCode?, planned: Bool = false, on worker: LoopWorker) -> Ending {
        connection = nil
        let expected = closeExpected || planned
        worker.recordClose(opened: opened, expected: expected, code: code)
        guard opened else { return .neverOpened }
        opened = false
        return expected ? .expected : .unexpected
    }

    /// The connection could not be opened (the endpoint's `connectionFailed`).
    func failed(reason: String, on worker: LoopWorker) {
        worker.stats.connectFailures[reason, default: 0] += 1
    }

    /// Serializes `message` and sends it as one text frame, if the connection is open.
    ///
    /// - Returns: whether it was sent.
    @discardableResult
    func send(_ message: JSONValue, on worker: LoopWorker) -> Bool {
        guard let connection, connection.isOpen else { return false }
        worker.send(message, on: connection)
        return true
    }
}
