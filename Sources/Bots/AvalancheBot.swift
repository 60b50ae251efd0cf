import JSON
import Runtime
import Transport
import WebSocket

/// A player of the `avalanche` scenario: it plays like any `PlayerBot` (its room's creator like a `HostBot`),
/// and when its connection ends, because it dropped it itself (`--drop clients`) or the server went away
/// (`--drop server`), it reconnects with jittered exponential backoff (`AvalancheBackoff`) and resumes its seat
/// with its token and last seq. At the end it compares its state with a fresh snapshot.
///
/// Like a `ChurnerBot` it rebuilds the room's state itself (`RoomReplica`) instead of reading the room's shared
/// one: what the server sends a resuming member is what is being checked. Room-mates holding the same version
/// of the state share the work of applying a patch (`AvalancheReplicaPool`). Used on its loop's thread only.
final class AvalancheBot: PlayerBot, @unchecked Sendable {
    /// Unowned without the runtime check: the crew owns its bots and outlives them.
    unowned(unsafe) let crew: AvalancheCrew
    /// The bot creates the room (its first player); the others join it by code.
    let creates: Bool

    /// Welcomed into its seat at least once: from then on every loss of the connection is resumed.
    private(set) var seated = false
    /// Monotonic nanoseconds when the connection was lost; nil while in the seat.
    private(set) var lostAt: UInt64?
    /// The connection was lost at least once after the bot was seated.
    private(set) var everLost = false
    /// The server refused the resume (`error` to the join): the seat is gone.
    private(set) var refused = false
    /// Connection attempts since the loss.
    private var attempts = 0
    private var reconnectAt: UInt64?
    /// When a resume `join` still unanswered is given up on (the connection dropped and tried again), as the web
    /// client gives up on a socket silent for 15 s.
    private var resumeDeadline: UInt64?
    static let resumeTimeout: UInt64 = 15_000_000_000
    /// A `resync` for the final check is on its way.
    private var verifying = false
    /// The final check: whether the bot's state equalled the snapshot; nil before it.
    private(set) var verdict: Bool?
    /// The id of the replica's version in the room's `AvalancheReplicaPool`; 0 while it has none to share.
    private var version = 0

    init(worker: LoopWorker, crew: AvalancheCrew, room: RoomPlan, name: String, creates: Bool) {
        self.crew = crew
        self.creates = creates
        super.init(worker: worker, room: room, name: name)
    }

    override var state: JSONValue { replica.state }
    override var readsBehindRoom: Bool { false }

    /// In the seat now: seated and not lost since.
    var inSeat: Bool { seated && lostAt == nil && !refused && phase == .inRoom }

    // MARK: Entering the room

    override func enterRoom() -> Bool {
        if seated, let token, let code = room.code {
            phase = .resuming
            send(["type": "join", "code": .string(code), "token": .string(token), "seq": JSONValue(replica.seq)])
            let now = MonotonicClock.nanoseconds()
            resumeDeadline = now + Self.resumeTimeout
            decide(now: now)
            return true
        }
        guard creates else { return super.enterRoom() }
        phase = .joining
        send(room.game.createMessage(name: name))
        return true
    }

    override func adopt(welcome state: JSONValue, seq: Int) {
        adoptShared(state, seq: seq)
    }

    /// Takes a whole state (welcome or snapshot) as the version of it the room's pool knows, if any.
    private func adoptShared(_ state: JSONValue, seq: Int) {
        let shared = crew.pools[room.index, default: AvalancheReplicaPool()].given(state, seq: seq)
        version = shared.id
        _ = replica.welcome(seq: seq, state: shared.state)
    }

    override func joined(code: String, now: UInt64) {
        seated = true
        guard creates else { return }
        worker.stats.roomsCreated += 1
        room.code = code
        room.createdAt = now
        crew.roomReady(room)
    }

    override func entryFailed() {
        if seated {
            refused = true
        } else if creates, room.code == nil {
            worker.stats.roomsFailed += 1
        }
    }

    override func resumed(_ welcome: JSONValue, seq: Int, you: String) -> Bool {
        let now = MonotonicClock.nanoseconds()
        worker.stats.resumes += 1
        if welcome["resumed"]?.boolValue == true {
            crew.figures.resumedWithPatches += 1
            if !replica.welcome(seq: seq, state: nil) { worker.stats.protocolError("resume-seq-mismatch") }
        } else {
            guard let state = welcome["state"] else {
                worker.stats.protocolError("bad-welcome")
                return false
            }
            crew.figures.resumedWithState += 1
            adoptShared(state, seq: seq)
        }
        guard you == self.you else {
            worker.stats.protocolError("resume-other-member")
            return false
        }
        phase = .inRoom
        resumeDeadline = nil
        if let lostAt { crew.figures.resumeLatency.record(fromNanoseconds: lostAt, to: now) }
        crew.back(at: now)
        crew.figures.mostAttempts = max(crew.figures.mostAttempts, attempts)
        lostAt = nil
        attempts = 0
        // A resync in flight died with the old connection: ask again, or the replica would wait for ever.
        if replica.awaitingSnapshot { requestResync() }
        return true
    }

    // MARK: Following the room with its own replica

    override func follow(_ patch: DecodedPatch) -> RoomReplica.PatchResult {
        let parent = version
        if parent != 0, !replica.awaitingSnapshot, let seq = patch.seq, seq == replica.seq + 1,
           patch.operations != nil,
           let known = crew.pools[room.index]?.patched(from: parent, seq: seq, patch: patch.bytes) {
            // A room-mate of the same version applied these bytes already: the same result.
            _ = replica.welcome(seq: seq, state: known.state)
            version = known.id
            return .applied
        }
        let result = replica.patch(seq: patch.seq, operations: patch.operations)
        if result == .applied, parent != 0 {
            version = crew.pools[room.index, default: AvalancheReplicaPool()]
                .record(patched: replica.state, seq: replica.seq, from: parent, patch: patch.bytes)
        } else if result != .applied {
            // Waiting for a snapshot: nothing to share until it comes.
            version = 0
        }
        return result
    }

    override func adopt(snapshot state: JSONValue, seq: Int, recovering: Bool) -> Bool {
        let matched = replica.snapshot(seq: seq, state: state)
        adoptShared(state, seq: seq)
        return matched
    }

    override func readSnapshot(matched: Bool, recovering: Bool, now: UInt64) {
        if verifying {
            // A replica that had to recover (a gap, a patch that did not apply) was not exact either.
            verifying = false
            verdict = matched && !recovering
            crew.checked(self, matched: matched && !recovering)
        }
        super.readSnapshot(matched: matched, recovering: recovering, now: now)
    }

    // MARK: Losing the connection and coming back

    /// `--drop clients`: ends the TCP connection without a close frame, as a dropped network does.
    func drop(now: UInt64) {
        guard inSeat, link.connection != nil else { return }
        lostAt = now
        everLost = true
        phase = .dropped
        link.drop()
    }

    override func didClose(_ connection: Connection, code: CloseCode?) {
        let now = MonotonicClock.nanoseconds()
        connectionLost(dropped: true)
        // Every loss is the scenario's own, whoever caused it: counted here, not as an unexpected close.
        let ending = link.closed(code: code, planned: true, on: worker)
        guard phase != .finished else { return }
        if ending == .neverOpened, seated { crew.figures.reconnectFailures += 1 }
        connectionEnded(now: now)
    }

    override func connectionFailed(reason: String) {
        link.failed(reason: reason, on: worker)
        guard phase != .finished else { return }
        if seated { crew.figures.reconnectFailures += 1 }
        connectionEnded(now: MonotonicClock.nanoseconds())
    }

    /// The connection ended, or an attempt to open one failed: try again after the backoff's delay.
    private func connectionEnded(now: UInt64) {
        guard seated, !refused else {
            // Never in the room (or refused its seat): as every other bot, out of the run.
            if !seated { entryFailed() }
            phase = .finished
            return
        }
        if lostAt == nil {
            lostAt = now
            everLost = true
        }
        crew.lost(at: lostAt!)
        phase = .dropped
        guard worker.running else {
            phase = .finished
            return
        }
        reconnectAt = now + crew.backoff.delay(attempt: attempts, unit: worker.random.unit())
        decide(now: now)
    }

    override func wake(now: UInt64) {
        if let deadline = resumeDeadline, deadline <= now {
            resumeDeadline = nil
            if phase == .resuming, link.connection != nil {
                crew.figures.resumeTimeouts += 1
                link.drop()
                return
            }
        }
        if let at = reconnectAt, at <= now {
            reconnectAt = nil
            if phase == .dropped, link.connection == nil, worker.running {
                attempts += 1
                crew.figures.reconnectAttempts += 1
                phase = .connecting
                link.connect(self, on: worker, at: now)
                return
            }
        }
        super.wake(now: now)
    }

    override func nextWakeUp(now: UInt64) -> UInt64? {
        let due = [super.nextWakeUp(now: now), reconnectAt, resumeDeadline].compactMap { $0 }
        return due.min()
    }

    // MARK: The final check

    /// Asks for a snapshot to compare the replica with. Returns false when the bot is not in its seat.
    func verify() -> Bool {
        guard inSeat, link.isOpen else { return false }
        verifying = true
        send(["type": "resync"])
        return true
    }

    override func finish() {
        reconnectAt = nil
        resumeDeadline = nil
        super.finish()
    }
}
