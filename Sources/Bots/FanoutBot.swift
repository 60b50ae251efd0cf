import Runtime
import Transport
import WebSocket

/// One client of the `fanout` scenario: a member of room `room`, connected to `/fanout/room-N`, that sends one
/// `--size`-byte text message per `1 / --rate` seconds, at a random point of each interval (room-mates are not
/// synchronized), and reads every message of its room, its own included.
///
/// It times its own messages from sending to their coming back (`FanoutLedger`), and checks that every other
/// message came from a member of its room (`FanoutPayload` names the sender).
///
/// Used on its worker's event-loop thread only (see `RoomBot` for why it is `@unchecked Sendable`).
final class FanoutBot: ConnectionBot, WakeableBot, @unchecked Sendable {
    /// Unowned without the runtime check: the worker owns its bots and outlives them, and the check costs a
    /// reference-count operation on every message.
    unowned(unsafe) let worker: LoopWorker
    let maxMessageBytes: Int
    let link = BotConnection()
    /// Unique in the run: `room * --room-size + seat`.
    let id: Int
    let room: Int
    private let path: String
    private let roomSize: Int
    var wakeAt: UInt64?
    private var ledger = FanoutLedger()
    private var payload: [UInt8]
    /// Monotonic nanoseconds when the first interval began (the connection opened).
    private var intervalsFrom: UInt64 = 0
    /// The interval of the next message.
    private var nextInterval = 0

    init(worker: LoopWorker, room: Int, seat: Int) {
        let options = worker.context.options
        self.worker = worker
        self.room = room
        self.roomSize = options.roomSize
        self.id = room * options.roomSize + seat
        self.path = options.fanoutPath(ofRoom: room)
        self.maxMessageBytes = max(options.maxMessageBytes, options.size)
        self.payload = FanoutPayload.template(size: options.size)
    }

    func start() {
        guard worker.running else { return }
        link.connect(self, on: worker, path: path)
    }

    func didOpen(_ connection: Connection, request: HTTPRequestHead) {
        let now = MonotonicClock.nanoseconds()
        guard openedWhileRunning(connection) else { return }
        intervalsFrom = now
        scheduleNext()
    }

    func wake(now: UInt64) {
        guard worker.running, let connection = link.connection, connection.isOpen else { return }
        FanoutPayload(sender: id, sequence: ledger.numberNext(), sentAt: MonotonicClock.nanoseconds())
            .write(into: &payload)
        payload.withUnsafeBytes { connection.sendText($0) }
        worker.stats.sent(bytes: payload.count)
        worker.stats.fanoutSent += 1
        worker.stats.fanoutInFlight += 1
        scheduleNext()
    }

    private func scheduleNext() {
        let at = FanoutLedger.sendTime(ofInterval: nextInterval, from: intervalsFrom,
                                       interval: worker.context.moveInterval, unit: worker.random.unit())
        nextInterval += 1
        worker.schedule(self, at: at)
    }

    func didReceiveText(_ text: UnsafeRawBufferPointer, on connection: Connection) {
        let now = MonotonicClock.nanoseconds()
        worker.stats.received(bytes: text.count)
        guard text.count == payload.count, let message = FanoutPayload(parsing: text) else {
            worker.stats.protocolError("fanout-malformed")
            return
        }
        guard message.sender == id else {
            if message.sender / roomSize == room {
                worker.stats.fanoutFromRoomMates += 1
            } else {
                worker.stats.protocolError("fanout-other-room")
            }
            return
        }
        switch ledger.record(message, now: now, timingFrom: worker.timingFrom) {
        case .inOrder(let latency):
            returned(latency: latency, missing: 0)
        case .afterGap(let missing, let latency):
            returned(latency: latency, missing: missing)
            worker.stats.protocolError("fanout-lost")
        case .unexpected:
            worker.stats.protocolError("fanout-unexpected")
        }
    }

    private func returned(latency: UInt64?, missing: Int) {
        worker.stats.fanoutReturned += 1
        worker.stats.fanoutLost += missing
        worker.stats.fanoutInFlight -= 1 + missing
        if let latency { worker.stats.fanoutRoundTrip.record(fromNanoseconds: 0, to: latency) }
    }

    func didReceiveBinary(_ data: UnsafeRawBufferPointer, on connection: Connection) {
        worker.stats.receivedBinary(bytes: data.count)
    }

    func didClose(_ connection: Connection, code: CloseCode?) {
        wakeAt = nil
        // What was in flight stays unreturned (`BotReport.failures` counts it).
        worker.stats.fanoutInFlight -= ledger.connectionClosed()
        link.closed(code: code, on: worker)
    }

    func finish() {
        wakeAt = nil
        link.close()
    }
}
