import JSON

/// The state of one room, built once for all of its bots.
///
/// The server sends every member of a room the same bytes, so two hundred spectators (or eight players) each
/// applying the same patch to their own copy of the same state would only measure the bots: each copy is cold
/// in the cache by the time its next patch comes, and applying patches took a third of the bots' time. Instead
/// each bot checks that its patches come in sequence (`RoomReplica.follow`) and reads the room's state here:
/// the first member to read a seq applies that patch, in place, and every later reading of the seq must be the
/// same bytes.
///
/// A member that reads a seq after others have read further (its connection is slower, or the room's patches
/// came in a burst) decides its moves from the newer state, which the server has already sent it too. To time
/// its own moves it does not look at that state, which may show a move early or no longer show it (a new round,
/// chat lines scrolled away), but at the patch it is reading (`PendingMoves.reveals`). Used on the room's event-loop
/// thread only.
struct RoomStates {
    /// What was wrong with a member's message.
    enum Problem: String {
        /// Another member read different bytes for the same seq.
        case differentBytes = "patch-differs"
        /// The patch did not apply to the state before it.
        case patchFailed = "patch-failed"
        /// A welcome or snapshot gave a state other than the one the patches built for the same seq.
        case differentState = "state-differs"
    }

    /// The newest state known; `.null` before the first welcome and after a patch that did not apply.
    private(set) var state: JSONValue = .null
    /// The seq of `state`; nil when there is none.
    private(set) var seq: Int?
    /// A patch that did not apply: every member reading it is told so, until a welcome or snapshot gives a state.
    private var failedSeq: Int?

    /// The bytes of recent patches, to compare later readings with the first.
    private var recent = [(seq: Int, bytes: [UInt8])?](repeating: nil, count: RoomStates.window)
    /// How many seqs back readings are compared.
    static let window = 64

    /// A member was given the whole state at `seq` (a welcome or a snapshot).
    ///
    /// - Returns: `.differentState` when the patches had built another state for that seq.
    mutating func given(_ state: JSONValue, at seq: Int) -> Problem? {
        if let known = self.seq, seq <= known {
            // Older than ours: nothing kept to compare it with.
            guard seq == known else { return nil }
            return state == self.state ? nil : .differentState
        }
        self.state = state
        self.seq = seq
        failedSeq = nil
        return nil
    }

    /// A member read `patch`, which passed its sequence check as `seq`.
    mutating func read(_ patch: DecodedPatch, seq: Int) -> Problem? {
        if seq == failedSeq { return .patchFailed }
        let slot = seq % Self.window
        if let first = recent[slot] {
            if first.seq == seq { return first.bytes == patch.bytes ? nil : .differentBytes }
            // Further back than the window: nothing kept to compare it with.
            if first.seq > seq { return nil }
        }
        recent[slot] = (seq, patch.bytes)
        // Patches up to `self.seq` are in the state already (a welcome named a later seq than its readers).
        guard let known = self.seq, seq == known + 1, let operations = patch.operations else { return nil }
        do {
            // In place: nothing else holds the state between messages.
            try operations.applyInPlace(to: &state)
        } catch {
            state = .null
            self.seq = nil
            failedSeq = seq
            return .patchFailed
        }
        self.seq = seq
        return nil
    }
}
