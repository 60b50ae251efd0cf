import JSON
import Runtime
import Transport
import WebSocket

/// What every bot in a room of the `play` and `churn` scenarios does, whatever its role: connect, get into the
/// room, follow its state through `welcome`, `patch` and `snapshot` with the sequence checked (`RoomReplica`),
/// and leave at the end. The roles are subclasses: `SpectatorBot` only watches, `PlayerBot` moves, `HostBot`
/// is the player who creates the room, and `ChurnerBot` is a player who drops, resumes and leaves in a loop.
///
/// Bots read the room's state from the room's `RoomStates`, which applies each patch once for all of them, and
/// decide from the state at their own seq only, as a person looking at the web client would; a churner, whose
/// resumes are the point, overrides the `follow` and `adopt` steps to rebuild its own.
///
/// Created and used on one event-loop thread only: its worker's. `@unchecked Sendable` because the transport
/// requires endpoints to be `Sendable`; the bot is never touched from another thread.
class RoomBot: WebSocketEndpoint, WakeableBot, LoadBot, @unchecked Sendable {
    enum Phase {
        /// Not connected, nothing under way.
        case idle
        case connecting
        /// `create` or `join` sent, waiting for `welcome`.
        case joining
        /// A join with token and seq sent (churners).
        case resuming
        case inRoom
        /// `leave` sent, waiting for `left` (churners).
        case leaving
        /// A churner dropped its connection on purpose and will resume.
        case dropped
        /// Done for the run.
        case finished
    }

    /// Unowned without the runtime check: the worker owns its bots and outlives them.
    unowned(unsafe) let worker: LoopWorker
    let room: RoomPlan
    let name: String
    let maxMessageBytes: Int

    let link = BotConnection()
    var phase = Phase.idle
    var replica = RoomReplica()
    /// The bot's member id and resume token, from its welcome.
    var you: String?
    var token: String?
    private var joinSentAt: UInt64 = 0
    var wakeAt: UInt64?

    init(worker: LoopWorker, room: RoomPlan, name: String) {
        self.worker = worker
        self.room = room
        self.name = name
        self.maxMessageBytes = worker.context.options.maxMessageBytes
    }

    /// The room's state as of the last message this bot read (possibly later: see `RoomStates`).
    var state: JSONValue { room.states.state }

    /// Whether the room's shared state is at another seq than the bot has read, so the state may show moves
    /// early or no longer show them.
    var readsBehindRoom: Bool { room.states.seq != replica.seq }

    /// A `resync` to check a resumed state is on its way (churners).
    var verifyingResume: Bool { false }

    // MARK: Lifecycle

    /// Opens the connection; the host creates the room, the others join it.
    func start() {
        guard worker.running else { return }
        phase = .connecting
        link.connect(self, on: worker)
    }

    /// Ends the bot's part in the run: closes its connection normally.
    func finish() {
        phase = .finished
        wakeAt = nil
        link.close()
    }

    func didOpen(_ connection: Connection, request: HTTPRequestHead) {
        let now = MonotonicClock.nanoseconds()
        link.opened(connection, on: worker)
        guard worker.running, phase == .connecting else {
            finish()
            return
        }
        joinSentAt = now
        if !enterRoom() { finish() }
    }

    /// Sends the message that puts the bot in the room on a fresh connection. Returns false when it cannot
    /// (no room code yet).
    func enterRoom() -> Bool {
        join(asSpectator: false)
    }

    /// Joins the room by its code as a new member.
    final func join(asSpectator spectator: Bool) -> Bool {
        guard let code = room.code else { return false }
        phase = .joining
        send(["type": "join", "code": .string(code), "name": .string(name), "spectator": .bool(spectator)])
        return true
    }

    func didReceiveBinary(_ data: UnsafeRawBufferPointer, on connection: Connection) {
        worker.stats.receivedBinary(bytes: data.count)
    }

    func didClose(_ connection: Connection, code: CloseCode?) {
        let now = MonotonicClock.nanoseconds()
        let dropped = phase == .dropped
        connectionLost(dropped: dropped)
        switch link.closed(code: code, planned: dropped, on: worker) {
        case .neverOpened:
            // The TCP connection or the handshake failed (the transport reports a timeout or a close here).
            couldNotConnect()
        case .unexpected:
            phase = .finished
        case .expected:
            closedAsPlanned(now: now)
        }
    }

    func connectionFailed(reason: String) {
        link.failed(reason: reason, on: worker)
        couldNotConnect()
    }

    private func couldNotConnect() {
        entryFailed()
        phase = .finished
    }

    /// The connection ended; `dropped`: on purpose, without a close frame (players drop their pending moves).
    func connectionLost(dropped: Bool) {}

    /// The bot's own close (or drop) completed.
    func closedAsPlanned(now: UInt64) {
        phase = .finished
    }

    /// The bot could not get into the room: its connection failed or its `create` or `join` was refused.
    func entryFailed() {}

    // MARK: Messages from the server

    func didReceiveText(_ text: UnsafeRawBufferPointer, on connection: Connection) {
        let now = MonotonicClock.nanoseconds()
        worker.stats.received(bytes: text.count)
        if let shared = room.decodedPatch(matching: text) {
            receivedPatch(shared, now: now)
            return
        }
        let message: JSONValue
        do {
            message = try JSONParser().parse(text)
        } catch {
            worker.stats.protocolError("bad-json")
            return
        }
        switch message["type"]?.stringValue {
        case "patch":
            let decoded = DecodedPatch(bytes: Array(text), seq: message["seq"]?.intValue,
                                       operations: message["ops"].flatMap { try? JSONPatch(json: $0) })
            room.keep(decoded)
            receivedPatch(decoded, now: now)
        case "welcome":
            receivedWelcome(message, now: now)
        case "snapshot":
            receivedSnapshot(message, now: now)
        case "error":
            receivedError(message, now: now)
        case "left":
            receivedLeft()
        case "lobby":
            break
        case "private":
            // A player's own view in a game with private views (PROTOCOL.md, "Private views"): bots decide from
            // the public state, so it is not kept, but it is part of the protocol, not an error.
            break
        default:
            worker.stats.protocolError("unexpected-message")
        }
    }

    private func receivedWelcome(_ message: JSONValue, now: UInt64) {
        worker.stats.welcomes += 1
        guard let seq = message["seq"]?.intValue, let you = message["you"]?.stringValue,
              let token = message["token"]?.stringValue, let code = message["code"]?.stringValue else {
            worker.stats.protocolError("bad-welcome")
            return
        }
        switch phase {
        case .joining:
            worker.stats.joinLatency.record(fromNanoseconds: joinSentAt, to: now)
            guard let state = message["state"] else {
                worker.stats.protocolError("bad-welcome")
                return
            }
            adopt(welcome: state, seq: seq)
            self.you = you
            self.token = token
            phase = .inRoom
            joined(code: code, now: now)
        case .resuming:
            guard resumed(message, seq: seq, you: you) else { return }
        default:
            worker.stats.protocolError("unexpected-welcome")
            return
        }
        decide(now: now)
    }

    /// Takes the state of a welcome to a fresh join.
    func adopt(welcome state: JSONValue, seq: Int) {
        replica.start(seq: seq)
        if let problem = room.states.given(state, at: seq) { worker.stats.protocolError(problem.rawValue) }
    }

    /// The bot is in the room, welcomed as a new member of the room `code`.
    func joined(code: String, now: UInt64) {}

    /// A welcome answered a resume (only churners resume). Returns false when it was wrong, counted already.
    func resumed(_ welcome: JSONValue, seq: Int, you: String) -> Bool {
        worker.stats.protocolError("unexpected-welcome")
        return false
    }

    private func receivedPatch(_ patch: DecodedPatch, now: UInt64) {
        worker.stats.patches += 1
        switch follow(patch) {
        case .applied:
            room.patchRead(seq: replica.seq, at: now, delivery: &worker.stats.patchDelivery)
            read(patch, now: now)
        case .skipped:
            break
        case .sendResync(let problem):
            worker.stats.protocolError(problem.rawValue)
            requestResync()
        }
    }

    /// Checks `patch` against the sequence and brings the bot's view of the state up to it.
    func follow(_ patch: DecodedPatch) -> RoomReplica.PatchResult {
        let result = replica.follow(seq: patch.seq, valid: patch.operations != nil)
        guard result == .applied, let problem = room.states.read(patch, seq: replica.seq) else { return result }
        // As with a replica of its own: a patch that did not apply waits for a snapshot of the server's state.
        if problem == .patchFailed { return .sendResync(.patchFailed) }
        worker.stats.protocolError(problem.rawValue)
        return .applied
    }

    /// The bot's view is now at `patch`'s seq.
    func read(_ patch: DecodedPatch, now: UInt64) {}

    /// Asks for a snapshot after a gap or a patch that did not apply (unless one is on its way already for a
    /// resumed churner's check).
    final func requestResync() {
        replica.awaitSnapshot()
        guard !verifyingResume else { return }
        worker.stats.resyncs += 1
        send(["type": "resync"])
    }

    private func receivedSnapshot(_ message: JSONValue, now: UInt64) {
        worker.stats.snapshots += 1
        guard let seq = message["seq"]?.intValue, let state = message["state"] else {
            worker.stats.protocolError("bad-snapshot")
            return
        }
        let recovering = replica.awaitingSnapshot
        let matched = adopt(snapshot: state, seq: seq, recovering: recovering)
        readSnapshot(matched: matched, recovering: recovering, now: now)
        decide(now: now)
    }

    /// Takes the state of a snapshot. Returns whether the bot's view before it was the same state at the same
    /// seq.
    func adopt(snapshot state: JSONValue, seq: Int, recovering: Bool) -> Bool {
        // `given` compares the snapshot with the state built for its seq, when there is one.
        let comparable = !recovering && seq == replica.seq && room.states.seq == seq
        let problem = room.states.given(state, at: seq)
        if let problem { worker.stats.protocolError(problem.rawValue) }
        replica.start(seq: seq)
        return comparable && problem == nil
    }

    /// The bot's view is now the snapshot's; `recovering`: it had asked for it after a gap.
    func readSnapshot(matched: Bool, recovering: Bool, now: UInt64) {}

    private func receivedError(_ message: JSONValue, now: UInt64) {
        let code = message["code"]?.stringValue ?? "no-code"
        switch message["move"]?.stringValue {
        case let move? where move == "chat" || room.moveTypes.contains(move):
            guard moveRefused(code: code, now: now) else {
                worker.stats.protocolError("error:\(code)")
                return
            }
        case "create", "join":
            worker.stats.protocolError("error:\(code)")
            entryFailed()
            finish()
        default:
            if code == "rate-limited" { rateLimited() }
            worker.stats.protocolError("error:\(code)")
        }
        decide(now: now)
    }

    /// The room refused a move with `code`. Returns false when the bot has no move waiting (counted as a
    /// protocol error).
    func moveRefused(code: String, now: UInt64) -> Bool { false }

    /// The connection's rate limit refused a message before it reached the room.
    func rateLimited() {}

    private func receivedLeft() {
        guard phase == .leaving, link.connection != nil else {
            worker.stats.protocolError("unexpected-left")
            return
        }
        worker.stats.leaves += 1
        link.close()
    }

    // MARK: Deciding

    func wake(now: UInt64) {
        act(now: now)
        decide(now: now)
    }

    /// Does what is due at `now`.
    func act(now: UInt64) {}

    /// Works out when the bot next has something to do and asks its loop to wake it then.
    final func decide(now: UInt64) {
        if let next = nextWakeUp(now: now) { worker.schedule(self, at: next) }
    }

    /// When the bot next has something to do, if anything.
    func nextWakeUp(now: UInt64) -> UInt64? { nil }

    // MARK: Sending

    final func send(_ message: JSONValue) {
        link.send(message, on: worker)
    }
}
