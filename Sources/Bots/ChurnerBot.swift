import JSON

/// A player of the `churn` scenario that tests resuming, in a loop: in the room for a while, it drops its TCP
/// connection without a close frame, reconnects and resumes its seat with token and seq, checks the resumed
/// state against a fresh snapshot (`resync`), leaves, and joins again as a new member.
///
/// Unlike the other members it rebuilds the room's state itself (`RoomReplica`) rather than reading the room's
/// shared one: what the server sends a resuming member is the point.
final class ChurnerBot: PlayerBot, @unchecked Sendable {
    /// Where the churner is in its cycle, and what it does when its churn timer fires.
    private enum Step {
        case none
        /// In the room with a fresh seat: drop the connection next.
        case drop
        /// Dropped: reconnect and resume next.
        case resume
        /// Resumed and verified: leave next.
        case leave
        /// Left: join again (a fresh seat) next.
        case rejoin
    }

    /// Time in the room before dropping or leaving, and away before resuming (nanoseconds).
    private static let hold: ClosedRange<UInt64> = 300_000_000...1_000_000_000
    private static let away: ClosedRange<UInt64> = 50_000_000...300_000_000

    private var step = Step.none
    private var churnAt: UInt64?
    /// A `resync` was sent to compare the resumed state with a snapshot.
    private var verifying = false

    override var state: JSONValue { replica.state }
    override var readsBehindRoom: Bool { false }
    override var verifyingResume: Bool { verifying }

    override func finish() {
        churnAt = nil
        super.finish()
    }

    // MARK: Entering and following the room with its own replica

    override func enterRoom() -> Bool {
        guard step == .resume, let token, let code = room.code else { return super.enterRoom() }
        phase = .resuming
        send(["type": "join", "code": .string(code), "token": .string(token), "seq": JSONValue(replica.seq)])
        return true
    }

    override func adopt(welcome state: JSONValue, seq: Int) {
        _ = replica.welcome(seq: seq, state: state)
    }

    override func joined(code: String, now: UInt64) {
        step = .drop
        churnAt = now + worker.randomNanoseconds(in: Self.hold)
    }

    override func resumed(_ welcome: JSONValue, seq: Int, you: String) -> Bool {
        worker.stats.resumes += 1
        if welcome["resumed"]?.boolValue == true {
            worker.stats.resumedWithPatches += 1
            if !replica.welcome(seq: seq, state: nil) {
                worker.stats.protocolError("resume-seq-mismatch")
            }
        } else {
            guard let state = welcome["state"] else {
                worker.stats.protocolError("bad-welcome")
                return false
            }
            worker.stats.resumedWithState += 1
            _ = replica.welcome(seq: seq, state: state)
        }
        guard you == self.you else {
            worker.stats.protocolError("resume-other-member")
            return false
        }
        phase = .inRoom
        // The missed patches follow the welcome; the snapshot comes after them, at the seq they reach.
        verifying = true
        send(["type": "resync"])
        return true
    }

    override func follow(_ patch: DecodedPatch) -> RoomReplica.PatchResult {
        replica.patch(seq: patch.seq, operations: patch.operations)
    }

    override func adopt(snapshot state: JSONValue, seq: Int, recovering: Bool) -> Bool {
        replica.snapshot(seq: seq, state: state)
    }

    override func readSnapshot(matched: Bool, recovering: Bool, now: UInt64) {
        if verifying {
            verifying = false
            if matched {
                worker.stats.resumesVerified += 1
            } else if !recovering {
                // A gap was already counted when recovering; otherwise the resumed state itself was wrong.
                worker.stats.protocolError("resume-mismatch")
            }
            step = .leave
            churnAt = now + worker.randomNanoseconds(in: Self.hold)
        }
        super.readSnapshot(matched: matched, recovering: recovering, now: now)
    }

    override func closedAsPlanned(now: UInt64) {
        switch phase {
        case .dropped:
            churnAt = now + worker.randomNanoseconds(in: Self.away)
            decide(now: now)
        case .leaving:
            worker.stats.churnCycles += 1
            phase = .idle
            token = nil
            you = nil
            replica = RoomReplica()
            step = .rejoin
            churnAt = now + worker.randomNanoseconds(in: Self.away)
            decide(now: now)
        default:
            phase = .finished
        }
    }

    // MARK: The cycle

    override func wake(now: UInt64) {
        if let at = churnAt, at <= now {
            churnAt = nil
            if churn(now: now) { return }
        }
        super.wake(now: now)
    }

    /// Takes the next step of the cycle. Returns true when the step replaced the connection.
    private func churn(now: UInt64) -> Bool {
        guard worker.running else { return false }
        switch step {
        case .drop where phase == .inRoom && !verifying:
            worker.stats.drops += 1
            step = .resume
            phase = .dropped
            link.drop()
            return true
        case .resume where phase == .dropped && link.connection == nil:
            phase = .connecting
            link.connect(self, on: worker, at: now)
            return true
        case .leave where phase == .inRoom:
            phase = .leaving
            send(["type": "leave"])
            return true
        case .rejoin where phase == .idle:
            step = .none
            start()
            return true
        default:
            return false
        }
    }

    override func nextWakeUp(now: UInt64) -> UInt64? {
        let move = super.nextWakeUp(now: now)
        guard let churnAt else { return move }
        return min(move ?? churnAt, churnAt)
    }
}
