import Dispatch
import Synchronization
import Transport
import WebSocket

/// One connection to the fuzzingserver, from connecting to its close: echoes every message back unchanged (what
/// the fuzzingserver expects of a client under test), keeps the first text message (`/getCaseCount` answers with
/// the count as text), and lets the driver thread wait for the end.
///
/// The endpoint methods run on the event loop's thread; `waitForEnd` and `abort` are for the driver's thread.
/// What both sides touch is behind one lock.
final class FuzzingConnection: WebSocketEndpoint {
    /// How the connection ended.
    enum Outcome: Equatable {
        /// The WebSocket opened and then closed, with the close code the loop reports (nil: no close frame).
        case closed(CloseCode?)
        /// The TCP connection or the opening handshake failed.
        case failed(String)
    }

    private struct State {
        var handle: ConnectionHandle?
        var firstText: String?
        var outcome: Outcome?
    }

    let maxMessageBytes: Int
    private let state = Mutex(State())
    private let ended = DispatchSemaphore(value: 0)

    init(maxMessageBytes: Int) {
        self.maxMessageBytes = maxMessageBytes
    }

    /// The first text message received, if any.
    var firstText: String? {
        state.withLock { $0.firstText }
    }

    func didOpen(_ connection: Connection, request: HTTPRequestHead) {
        let handle = connection.handle
        state.withLock { $0.handle = handle }
    }

    func didReceiveText(_ text: UnsafeRawBufferPointer, on connection: Connection) {
        connection.sendText(text)
        state.withLock { state in
            if state.firstText == nil { state.firstText = String(decoding: text, as: UTF8.self) }
        }
    }

    func didReceiveBinary(_ data: UnsafeRawBufferPointer, on connection: Connection) {
        connection.sendBinary(data)
    }

    func didClose(_ connection: Connection, code: CloseCode?) {
        end(.closed(code))
    }

    func connectionFailed(reason: String) {
        end(.failed(reason))
    }

    /// Blocks the calling thread until the connection ends or `seconds` pass.
    ///
    /// - Returns: How it ended, or nil on timeout.
    func waitForEnd(seconds: Double) -> Outcome? {
        guard ended.wait(timeout: .now() + seconds) == .success else { return nil }
        return state.withLock { $0.outcome }
    }

    /// Drops the TCP connection without a close frame (a case that never ends), if it opened; the loop then
    /// reports the end as usual.
    func abort() {
        state.withLock { $0.handle }?.execute { connection in connection?.abort() }
    }

    private func end(_ outcome: Outcome) {
        let first = state.withLock { state in
            guard state.outcome == nil else { return false }
            state.outcome = outcome
            return true
        }
        if first { ended.signal() }
    }
}
