import Runtime

/// What the journal tells the rest of the server about saving: `/readyz`, `/metrics` and the stop line.
extension RoomJournal {
    /// Whether saving works now.
    public struct Health: Sendable, Equatable {
        /// Why saving fails (`No space left on device (ENOSPC) for 14 s; 29 rooms not saved`); nil while it works.
        public var failure: String?
        /// Writes, fsyncs and snapshots that failed since the start.
        public var writeFailures: Int
        /// While saving fails, the rooms whose last changes are not on the disk.
        public var unsavedRooms: Int
    }

    public var health: Health {
        let now = MonotonicClock.seconds()
        let (failure, failures, records) = state.withLock { state in
            (state.appendFailure ?? state.snapshotFailure, state.failures, state.unsavedRecords.count)
        }
        guard let failure else { return Health(failure: nil, writeFailures: failures, unsavedRooms: 0) }
        let rooms = dirty.withLock { $0.rooms.count } + records
        let seconds = Int((now - failure.since).rounded())
        let text = "\(failure.cause) for \(seconds) s; \(rooms) room\(rooms == 1 ? "" : "s") not saved"
        return Health(failure: text, writeFailures: failures, unsavedRooms: rooms)
    }

    /// What a stop could not save.
    public struct SaveOutcome: Sendable, Equatable {
        /// Rooms whose last changes are not on the disk.
        public var unsaved: Int
        /// Why, when a write failed (`No space left on device (ENOSPC)`).
        public var cause: String?
    }
}
