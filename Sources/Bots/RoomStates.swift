import JSON

/// The states of one room, by seq, built once for all of its bots.
///
/// The server sends every member of a room the same bytes, so two hundred spectators (or eight players) each
/// applying the same patch to their own copy of the same state would only measure the bots: each bot's copy is
/// cold in the cache by the time its next patch comes, and applying patches took a third of the bots' time.
/// Instead each bot checks that its patches come in sequence (`RoomReplica.follow`) and reads the room's state
/// *at its own seq* here: the first member to read a seq applies that patch to the state before it, once, and
/// every later reading must be the same bytes. A bot therefore sees exactly the state its own messages give,
/// even when other members have read further.
///
/// Recent states share their unchanged parts (copy on write), so keeping a window of them costs only what each
/// patch changed. Used on the room's event-loop thread only.
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

    private struct Slot {
        var seq: Int
        var state: JSONValue?
        /// The bytes of the patch that led to `state`, when it came from a patch.
        var patch: [UInt8]?
    }

    /// States further back than this many seqs are forgotten; a member that far behind reads the newest.
    static let window = 64
    private var slots = [Slot?](repeating: nil, count: RoomStates.window)
    /// The highest seq with a known state.
    private(set) var newest = 0

    /// The state at `seq`, if it is known and within the window.
    func state(at seq: Int) -> JSONValue? {
        slot(seq)?.state
    }

    /// The state at `seq`, or else the newest one known (for a member further behind than the window).
    func state(near seq: Int) -> JSONValue {
        state(at: seq) ?? state(at: newest) ?? .null
    }

    /// A member was given the whole state at `seq` (a welcome or a snapshot).
    ///
    /// - Returns: `.differentState` when the patches had built another state for that seq.
    mutating func given(_ state: JSONValue, at seq: Int) -> Problem? {
        if let known = slot(seq)?.state {
            return known == state ? nil : .differentState
        }
        store(Slot(seq: seq, state: state, patch: nil))
        return nil
    }

    /// A member read `patch`, which passed its sequence check as `seq`: the state at `seq` is now known (applied
    /// from the state before, if this is the first reading).
    mutating func read(_ patch: DecodedPatch, seq: Int) -> Problem? {
        if let known = slot(seq) {
            if let bytes = known.patch {
                return bytes == patch.bytes ? nil : .differentBytes
            }
            // Known from a welcome: keep the bytes for later readers.
            store(Slot(seq: seq, state: known.state, patch: patch.bytes))
            return nil
        }
        // The state before is known to anyone who passed the sequence check, unless it left the window.
        guard var state = state(at: seq - 1), let operations = patch.operations else { return nil }
        do {
            // Shares storage with the state before, so only what the patch changes is copied.
            try operations.applyInPlace(to: &state)
        } catch {
            return .patchFailed
        }
        store(Slot(seq: seq, state: state, patch: patch.bytes))
        return nil
    }

    private func slot(_ seq: Int) -> Slot? {
        guard seq >= 0, let slot = slots[seq % Self.window], slot.seq == seq else { return nil }
        return slot
    }

    private mutating func store(_ slot: Slot) {
        // A late welcome or snapshot may name a seq long past: never let it evict a newer state.
        let index = slot.seq % Self.window
        if let current = slots[index], current.seq > slot.seq { return }
        slots[index] = slot
        newest = max(newest, slot.seq)
    }
}
