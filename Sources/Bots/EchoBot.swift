import Transport
import WebSocket
import Runtime

/// One connection of the `echo` scenario: keeps `--depth` text messages of `--size` bytes in flight (or sends
/// at a fixed `--rate`) and times each one's round trip.
///
/// Every message starts with its sequence number in decimal, the rest is `x`: an echo that comes back out of
/// order, cut or changed is a protocol error. The endpoint echoes in order, so send times are a FIFO.
///
/// Used on its worker's event-loop thread only (see `RoomBot` for why it is `@unchecked Sendable`).
final class EchoBot: ConnectionBot, @unchecked Sendable {
    /// Unowned without the runtime check: the worker owns its bots and outlives them, and the check costs a
    /// reference-count operation on every message.
    unowned(unsafe) let worker: LoopWorker
    let maxMessageBytes: Int
    private let depth: Int
    let link = BotConnection()
    /// Monotonic nanoseconds when the fixed-rate schedule started (the connection opened).
    private var rateStartedAt: UInt64 = 0
    /// Messages the fixed-rate schedule has called for so far.
    private var scheduled = 0
    private var payload: [UInt8]
    /// Send times of the messages in flight, oldest at `head`.
    private var sendTimes: [UInt64]
    private var head = 0
    private(set) var inFlight = 0
    private var sentCount = 0
    private var receivedCount = 0

    init(worker: LoopWorker) {
        let options = worker.context.options
        self.worker = worker
        self.maxMessageBytes = max(options.maxMessageBytes, options.size)
        self.depth = options.depth
        self.payload = [UInt8](repeating: UInt8(ascii: "x"), count: options.size)
        self.sendTimes = [UInt64](repeating: 0, count: options.depth)
    }

    func didOpen(_ connection: Connection, request: HTTPRequestHead) {
        let now = MonotonicClock.nanoseconds()
        link.opened(connection, on: worker)
        guard worker.running else {
            finish()
            return
        }
        rateStartedAt = now
        if worker.context.options.effectiveRate == nil {
            while inFlight < depth { sendOne(connection) }
        }
    }

    /// Fixed-rate mode: sends what the schedule calls for by `now`, as far as the window allows.
    func sendDue(now: UInt64) {
        guard let connection = link.connection, worker.running, let rate = worker.context.options.effectiveRate else { return }
        let due = Int(Double(now &- rateStartedAt) / 1e9 * rate) - scheduled
        guard due > 0 else { return }
        scheduled += due
        let allowed = min(due, depth - inFlight)
        for _ in 0..<allowed { sendOne(connection) }
        worker.stats.echoSkipped += due - allowed
    }

    func didReceiveText(_ text: UnsafeRawBufferPointer, on connection: Connection) {
        let now = MonotonicClock.nanoseconds()
        worker.stats.received(bytes: text.count)
        guard inFlight > 0 else {
            worker.stats.protocolError("echo-unsolicited")
            return
        }
        if sendTimes[head] >= worker.timingFrom {
            worker.stats.echoRoundTrip.record(fromNanoseconds: sendTimes[head], to: now)
        }
        head = (head + 1) % depth
        inFlight -= 1
        worker.stats.echoInFlight -= 1
        worker.stats.echoReceived += 1
        if !Self.matches(text, sequence: receivedCount, size: payload.count) {
            worker.stats.protocolError("echo-mismatch")
        }
        receivedCount += 1
        if worker.running, worker.context.options.effectiveRate == nil {
            sendOne(connection, now: now)
        }
    }

    func didReceiveBinary(_ data: UnsafeRawBufferPointer, on connection: Connection) {
        worker.stats.receivedBinary(bytes: data.count)
    }

    func didClose(_ connection: Connection, code: CloseCode?) {
        worker.stats.echoInFlight -= inFlight
        inFlight = 0
        link.closed(code: code, on: worker)
    }

    /// Sends the next message; `now` is a clock reading just taken, if any (one reading serves a receive and
    /// the send it triggers).
    private func sendOne(_ connection: Connection, now: UInt64? = nil) {
        Self.stamp(sequence: sentCount, into: &payload)
        sendTimes[(head + inFlight) % depth] = now ?? MonotonicClock.nanoseconds()
        payload.withUnsafeBytes { connection.sendText($0) }
        sentCount += 1
        inFlight += 1
        worker.stats.echoInFlight += 1
        worker.stats.echoSent += 1
        worker.stats.sent(bytes: payload.count)
    }

    /// Digits of the sequence number at the start of each payload (fewer if the payload is shorter): enough for
    /// a trillion messages per connection.
    static let sequenceDigits = 12

    /// Writes `sequence` in decimal at the start of the payload (as many low digits as fit).
    static func stamp(sequence: Int, into payload: inout [UInt8]) {
        payload.withUnsafeMutableBytes { bytes in
            var value = sequence
            var index = min(bytes.count, sequenceDigits) - 1
            while index >= 0 {
                bytes[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
                value /= 10
                index -= 1
            }
        }
    }

    /// Whether an echo is the message with this sequence number.
    static func matches(_ text: UnsafeRawBufferPointer, sequence: Int, size: Int) -> Bool {
        guard text.count == size else { return false }
        var value = sequence
        var index = min(size, sequenceDigits) - 1
        while index >= 0 {
            guard text[index] == UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10) else { return false }
            value /= 10
            index -= 1
        }
        return size <= sequenceDigits || text[size - 1] == UInt8(ascii: "x")
    }
}
