import JSON

/// The patches of one room as its spectator bots read them, applied once to a shared replica.
///
/// The server sends every member of a room the same bytes, so two hundred spectators each applying the same
/// patch to a copy of the same state would only measure the bots. Instead each spectator checks that its
/// patches come in sequence (`RoomReplica.follow`) and that each one is, byte for byte, the patch of that seq
/// which this shared replica applied. Used on the room's event-loop thread only.
struct SpectatorStream {
    /// What was wrong with a spectator's patch.
    enum Problem: String {
        /// Another spectator read different bytes for the same seq.
        case differentBytes = "spectator-patch-differs"
        /// The shared replica could not apply the patch.
        case patchFailed = "patch-failed"
    }

    private var replica = RoomReplica()
    private var started = false
    private var failed = false
    /// Patches by seq: waiting to be applied in order, or applied lately and kept to compare later readings.
    private var patches: [Int: DecodedPatch] = [:]
    /// Applied patches further back than this are forgotten; a spectator that far behind is not compared.
    private static let window = 256

    /// A spectator's welcome: the first one seeds the shared replica.
    mutating func welcome(seq: Int, state: JSONValue) {
        guard !started else { return }
        started = true
        _ = replica.welcome(seq: seq, state: state)
    }

    /// A spectator read `patch` (which has passed its own sequence check).
    mutating func read(_ patch: DecodedPatch, seq: Int) -> Problem? {
        if let known = patches[seq] {
            return known.bytes == patch.bytes ? nil : .differentBytes
        }
        guard started, !failed, seq > replica.seq else { return nil }
        patches[seq] = patch
        while let next = patches[replica.seq + 1] {
            guard replica.patch(seq: next.seq, operations: next.operations) == .applied else {
                failed = true
                return .patchFailed
            }
        }
        if patches.count > 2 * Self.window {
            let oldest = replica.seq - Self.window
            patches = patches.filter { $0.key >= oldest }
            // Patches waiting for one nobody read: give up comparing rather than grow without bound.
            if patches.count > 2 * Self.window {
                patches = [:]
                failed = true
            }
        }
        return nil
    }
}
