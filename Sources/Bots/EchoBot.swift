#if canImport(Glibc)
import Glibc
#endif
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
    /// `--rate` was given: messages leave on a schedule, not as each echo comes back. Kept here because reading
    /// the options on every message copies them (a retain and release for each of their strings).
    private let fixedRate: Bool
    let link = BotConnection()
    /// Monotonic nanoseconds when the fixed-rate schedule started (the connection opened).
    private var rateStartedAt: UInt64 = 0
    /// Messages the fixed-rate schedule has called for so far.
    private var scheduled = 0
    /// The next message to send (`size` bytes: its sequence number in decimal, then `x`s, see `stamp`), then
    /// the echo expected next, the same way. Both count up in place (`increment`): writing a number's 12 digits
    /// afresh for every message took a tenth of the bots' time in the pipelined echo. Raw memory, like
    /// `sendTimes`, because each use of an array kept in a class is a retain or a uniqueness check, and these
    /// are used for every message.
    private let messages: UnsafeMutableRawBufferPointer
    private let size: Int
    /// Send times of the messages in flight (`depth` of them), oldest at `head`.
    private let sendTimes: UnsafeMutablePointer<UInt64>
    private var head = 0
    private(set) var inFlight = 0

    init(worker: LoopWorker) {
        let options = worker.context.options
        self.worker = worker
        self.maxMessageBytes = max(options.maxMessageBytes, options.size)
        self.depth = options.depth
        self.fixedRate = options.effectiveRate != nil
        self.size = options.size
        self.messages = .allocate(byteCount: 2 * options.size, alignment: 8)
        messages.initializeMemory(as: UInt8.self, repeating: UInt8(ascii: "x"))
        self.sendTimes = .allocate(capacity: max(1, options.depth))
        sendTimes.initialize(repeating: 0, count: max(1, options.depth))
        Self.stamp(sequence: 0, into: payload)
        Self.stamp(sequence: 0, into: expected)
    }

    deinit {
        messages.deallocate()
        sendTimes.deallocate()
    }

    private var payload: UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(rebasing: messages[..<size])
    }

    private var expected: UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(rebasing: messages[size...])
    }

    func didOpen(_ connection: Connection, request: HTTPRequestHead) {
        let now = MonotonicClock.nanoseconds()
        guard openedWhileRunning(connection) else { return }
        rateStartedAt = now
        if !fixedRate {
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
        // Borrowed, not retained: each read of an `unowned(unsafe)` property is a retain and a release, and
        // this runs once per echoed message, millions of times a second.
        Unmanaged.passUnretained(worker)._withUnsafeGuaranteedRef { worker in
            // When the read that brought the echo returned (`timesReads`, which the load test's loops set): the
            // echoes of one read came together.
            let read = worker.loop.readNanoseconds
            let now = read != 0 ? read : MonotonicClock.nanoseconds()
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
            if !Self.matches(text, UnsafeRawBufferPointer(expected)) {
                worker.stats.protocolError("echo-mismatch")
            }
            Self.increment(expected)
            if worker.running, !fixedRate {
                sendOne(connection, now: now, worker: worker)
            }
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
        Unmanaged.passUnretained(worker)._withUnsafeGuaranteedRef { sendOne(connection, now: now, worker: $0) }
    }

    private func sendOne(_ connection: Connection, now: UInt64?, worker: LoopWorker) {
        sendTimes[(head + inFlight) % depth] = now ?? MonotonicClock.nanoseconds()
        connection.sendText(UnsafeRawBufferPointer(payload))
        Self.increment(payload)
        inFlight += 1
        worker.stats.echoInFlight += 1
        worker.stats.echoSent += 1
        worker.stats.sent(bytes: payload.count)
    }

    /// Digits of the sequence number at the start of each payload (fewer if the payload is shorter): enough for
    /// a trillion messages per connection.
    static let sequenceDigits = 12

    /// Writes `sequence` in decimal at the start of the payload (as many low digits as fit).
    static func stamp(sequence: Int, into bytes: UnsafeMutableRawBufferPointer) {
        var value = sequence
        var index = min(bytes.count, sequenceDigits) - 1
        while index >= 0 {
            bytes[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
            value /= 10
            index -= 1
        }
    }

    /// Makes a stamped payload the next sequence number's: the last digit goes up, carrying into the ones before
    /// it (after all nines come all zeros, as `stamp` keeps only the low digits).
    static func increment(_ bytes: UnsafeMutableRawBufferPointer) {
        var index = min(bytes.count, sequenceDigits) - 1
        while index >= 0 {
            if bytes[index] != UInt8(ascii: "9") {
                bytes[index] &+= 1
                return
            }
            bytes[index] = UInt8(ascii: "0")
            index -= 1
        }
    }

    /// Whether an echo is exactly the message expected: its sequence number and every byte after it.
    static func matches(_ text: UnsafeRawBufferPointer, _ expected: UnsafeRawBufferPointer) -> Bool {
        guard text.count == expected.count else { return false }
        guard let base = text.baseAddress, let other = expected.baseAddress else { return true }
        return memcmp(base, other, text.count) == 0
    }
}
