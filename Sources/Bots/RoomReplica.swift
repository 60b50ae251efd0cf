import JSON

/// A bot's copy of its room's state, rebuilt from `welcome`, `patch` and `snapshot` as the web client does,
/// with the protocol's sequence rule checked: every patch must be the one after the last (`seq + 1`).
///
/// Pure: the bot hands it messages and does what the result says (send `resync` after a gap).
struct RoomReplica {
    /// The state at `seq`; `.null` before the first welcome.
    private(set) var state: JSONValue = .null
    private(set) var seq = 0
    /// A `resync` was sent and its snapshot has not come: patches until then are dropped.
    private(set) var awaitingSnapshot = false

    /// What the bot should do after a patch.
    enum PatchResult: Equatable {
        /// Applied; the state is at the patch's seq.
        case applied
        /// Dropped while a snapshot is awaited.
        case skipped
        /// The patch was not the next one or did not apply: count a protocol error and send `resync`.
        case sendResync(ProblemKind)
    }

    /// Why a patch could not be applied.
    enum ProblemKind: String, Equatable {
        /// Its seq was not ours + 1.
        case seqGap = "seq-gap"
        /// Its operations did not apply to our state.
        case patchFailed = "patch-failed"
        /// It had no seq, or `ops` that are not a JSON Patch.
        case badPatch = "bad-patch"
    }

    /// A `welcome`: a full state, or (after a resume with `resumed: true`) none, the missed patches following.
    ///
    /// - Returns: false when a resumed welcome names a seq other than ours (the server should echo it).
    mutating func welcome(seq: Int, state: JSONValue?) -> Bool {
        if let state {
            self.state = state
            self.seq = seq
            awaitingSnapshot = false
            return true
        }
        return seq == self.seq
    }

    /// Drops patches until the next snapshot (the bot found something wrong and asked for one).
    mutating func awaitSnapshot() {
        awaitingSnapshot = true
    }

    /// Starts following the room at `seq` without keeping its state (a welcome or snapshot for a bot that reads
    /// its room's states from `RoomStates`).
    mutating func start(seq: Int) {
        self.seq = seq
        awaitingSnapshot = false
    }

    /// Follows a patch without applying it: only the sequence rule is checked (for bots whose room's patches
    /// are applied once for all of them, see `RoomStates`).
    mutating func follow(seq: Int?, valid: Bool) -> PatchResult {
        if awaitingSnapshot { return .skipped }
        guard let seq, valid else {
            awaitingSnapshot = true
            return .sendResync(.badPatch)
        }
        guard seq == self.seq + 1 else {
            awaitingSnapshot = true
            return .sendResync(.seqGap)
        }
        self.seq = seq
        return .applied
    }

    /// Applies a patch if it is the next one.
    ///
    /// - Parameters:
    ///   - seq: The patch's `seq`.
    ///   - operations: Its `ops`, decoded; nil when they are missing or not a JSON Patch.
    mutating func patch(seq: Int?, operations: JSONPatch?) -> PatchResult {
        if awaitingSnapshot { return .skipped }
        guard let seq, let operations else {
            awaitingSnapshot = true
            return .sendResync(.badPatch)
        }
        guard seq == self.seq + 1 else {
            awaitingSnapshot = true
            return .sendResync(.seqGap)
        }
        do {
            // In place: a failed patch leaves the replica waiting for a snapshot, which replaces the state anyway.
            try operations.applyInPlace(to: &state)
        } catch {
            awaitingSnapshot = true
            return .sendResync(.patchFailed)
        }
        self.seq = seq
        return .applied
    }

    /// A `snapshot`: replaces the state.
    ///
    /// - Returns: whether the state rebuilt so far was identical to the snapshot at the same seq.
    @discardableResult
    mutating func snapshot(seq: Int, state: JSONValue) -> Bool {
        let matched = !awaitingSnapshot && seq == self.seq && state == self.state
        self.state = state
        self.seq = seq
        awaitingSnapshot = false
        return matched
    }
}
