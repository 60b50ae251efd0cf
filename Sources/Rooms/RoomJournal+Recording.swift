#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import JSON
import Synchronization
import Runtime

/// Recording changes: rooms mark themselves dirty, the worker flushes their records to the journal file and
/// fsyncs them, and failures are kept, retried and logged.
extension RoomJournal {
    /// The room changed; its record is written with the next flush.
    nonisolated func roomChanged(_ room: Room) {
        dirty.withLock { $0.rooms[room.code] = room }
    }

    /// The room was just restored from its record: what it holds follows from that record, which is on disk
    /// (everyone shown away, and the deadlines that passed while the server was down, both of which the next
    /// start works out again), so it waits for its next change; under load that change waits `busyRoomSeconds`
    /// like any room's second record. Otherwise every room, back at once, was written again within 100 ms: in
    /// the first second of the reconnect storm. A client ahead of the record after another crash gets the
    /// whole state (`restoredSeq`).
    nonisolated func roomRestored(_ room: Room) {
        let now = MonotonicClock.seconds()
        dirty.withLock { dirty in
            dirty.rooms[room.code] = nil
            dirty.written[room.code] = now
        }
    }

    /// The room is gone for good.
    nonisolated func roomRemoved(_ code: RoomCode, version: Int) {
        dirty.withLock { dirty in
            dirty.rooms[code] = nil
            dirty.written[code] = nil
        }
        append(JournalEntry(code: code.rawValue, version: version, room: nil), of: nil)
    }

    func scheduleFlush() {
        worker.schedule(after: RoomJournal.flushSeconds) { [weak self] in
            guard let self, !self.state.withLock({ $0.stopped }) else { return }
            self.flush()
            self.scheduleFlush()
        }
    }

    /// Collects the records of the rooms that changed and appends them; fsyncs what the previous flush wrote.
    /// While writing fails, only every `retrySeconds`: the rooms stay marked meanwhile.
    ///
    /// - Parameter waiting: Wait (up to `stopWaitSeconds`) for every room to hand its record over, on `stop`, so
    ///   that the last changes are in the journal before it closes. Bounded: at shutdown the rooms' threads may
    ///   have stopped already (the server saved a snapshot of every room just before). The periodic flush does
    ///   not wait.
    func flush(waiting: Bool = false) {
        let now = MonotonicClock.seconds()
        // While appending fails, rooms are asked for records only when it is tried again; a failed snapshot
        // alone (a compaction) does not hold up the journal.
        let retry = state.withLock { state -> (records: [String: [UInt8]], compaction: Bool)? in
            guard state.appendFailure != nil || state.snapshotFailure != nil else { return ([:], false) }
            guard waiting || now >= state.retryAt else {
                return state.appendFailure == nil ? ([:], false) : nil
            }
            state.retryAt = now + Self.retrySeconds
            let records = state.unsavedRecords
            state.unsavedRecords.removeAll()
            return (records, state.snapshotFailure != nil)
        }
        logCounts(now: now)
        guard let retry else { return }
        if !retry.records.isEmpty {
            worker.execute { [self] in
                for (code, framed) in retry.records.sorted(by: { $0.key < $1.key }) {
                    write(framed, code: code, source: .record(framed))
                }
            }
        }
        if retry.compaction, !waiting {
            worker.execute { [self] in compactFromFiles() }
        }
        let rooms = dirty.withLock { dirty in
            var taken: [RoomCode: Room] = [:]
            for code in Self.due(Array(dirty.rooms.keys), written: dirty.written, now: now, waiting: waiting) {
                taken[code] = dirty.rooms.removeValue(forKey: code)
                dirty.written[code] = now
            }
            // Forget rooms quiet for longer than the interval: their next change is written at once anyway.
            if dirty.written.count > 2 * max(dirty.rooms.count, Self.promptRooms) {
                dirty.written = dirty.written.filter { now - $0.value < Self.busyRoomSeconds }
            }
            return taken
        }
        if !rooms.isEmpty { awaited.withLock { $0.formUnion(rooms.keys) } }
        for room in rooms.values {
            handingOver.enter()
            room.executor.execute { [self] in
                let entry = room.assumeIsolated { room in room.journalEntry() }
                append(entry, of: room)
                awaited.withLock { _ = $0.remove(room.code) }
                handingOver.leave()
            }
        }
        if waiting { _ = handingOver.wait(timeout: .now() + RoomJournal.stopWaitSeconds) }
        worker.execute { [self] in sync() }
    }

    /// Flushes every changed room at once, trying again whatever failed, and returns once the records are
    /// written and fsynced (tests).
    func flushNow() {
        flush(waiting: true)
        let done = DispatchSemaphore(value: 0)
        worker.execute { done.signal() }
        done.wait()
    }

    /// Which of the `changed` rooms a flush at `now` writes: all of them when few changed (or at `stop`), else
    /// those whose last record (`written`) is at least `busyRoomSeconds` old.
    static func due(_ changed: [RoomCode], written: [RoomCode: Double], now: Double, waiting: Bool) -> [RoomCode] {
        guard !waiting, changed.count > promptRooms else { return changed }
        return changed.filter { now - (written[$0] ?? -.infinity) >= busyRoomSeconds }
    }

    nonisolated func append(_ entry: JournalEntry, of room: Room?) {
        let framed = RecordFile.frame(entry.payload)
        worker.execute { [self] in
            write(framed, code: entry.code, source: room.map { .room($0) } ?? .record(framed))
        }
    }

    /// On the worker thread: appends one framed record. A failure cuts the file back to where the record
    /// began (a torn record must not stay in front of the records written after it) and keeps the record's
    /// room or bytes to be written again (`keepUnsaved`).
    func write(_ framed: [UInt8], code: String, source: Unsaved) {
        let (fd, good, cutPending) = state.withLock { ($0.fd, $0.goodBytes, $0.cutPending) }
        var failure: Int32?
        if cutPending, ftruncate(fd, off_t(good)) != 0 { failure = errno }
        // The journal was emptied but its header could not be written then.
        var header: [UInt8] = []
        if failure == nil, good < RecordFile.header.count {
            header = RecordFile.header
            if let error = disk.writeAll(fd, header) { failure = error }
        }
        if failure == nil, let error = disk.writeAll(fd, framed) { failure = error }
        if let failure {
            let cut = ftruncate(fd, off_t(good)) == 0
            state.withLock { $0.cutPending = !cut }
            failed(.append, failure, "journal: write failed")
            keepUnsaved(code, source)
            return
        }
        state.withLock { state in
            state.cutPending = false
            state.goodBytes = max(good, header.count) + framed.count
            state.unsynced[code] = source
            state.unsavedRecords[code] = nil
            state.failedCodes.remove(code)
        }
        if max(good, header.count) + framed.count > RoomJournal.compactionBytes,
           state.withLock({ $0.snapshotFailure == nil }) {
            compactFromFiles()
        }
    }

    /// On the worker thread: fsyncs what was appended since the last fsync. When that fails, what it covered
    /// may not be on the disk (the kernel may have dropped those pages): the journal is cut back to the last
    /// good fsync and those rooms are written again. A failure of the journal ends here, once what was written
    /// is known to be on the disk (a write that works followed by an fsync that fails is no recovery).
    func sync() {
        let (fd, unsynced) = state.withLock { state in
            let taken = state.unsynced
            state.unsynced.removeAll()
            return (state.fd, taken)
        }
        guard !unsynced.isEmpty else { return }
        guard disk.fsync(fd) != 0 else {
            let recovered = state.withLock { state -> Failure? in
                state.syncedBytes = state.goodBytes
                guard state.failedCodes.isEmpty else { return nil }
                let recovered = state.appendFailure
                state.appendFailure = nil
                return recovered
            }
            if let recovered { logRecovery(from: recovered, what: "journal: writing again") }
            return
        }
        let error = errno
        let synced = state.withLock { state in
            state.goodBytes = state.syncedBytes
            return state.syncedBytes
        }
        let cut = ftruncate(fd, off_t(synced)) == 0
        state.withLock { $0.cutPending = !cut }
        failed(.append, error, "journal: fsync failed")
        for (code, source) in unsynced { keepUnsaved(code, source) }
    }

    /// Keeps what could not be written: a running room is marked changed (and due at once), so that the flush
    /// that finds writing working again takes a whole record of it; other records wait as they are.
    func keepUnsaved(_ code: String, _ source: Unsaved) {
        state.withLock { _ = $0.failedCodes.insert(code) }
        switch source {
        case .room(let room):
            dirty.withLock { dirty in
                if dirty.rooms[room.code] == nil { dirty.rooms[room.code] = room }
                dirty.written[room.code] = nil
            }
        case .record(let framed):
            state.withLock { $0.unsavedRecords[code] = framed }
        }
    }

    enum Operation {
        case append
        case snapshot
    }

    /// Notes a failed write, fsync or snapshot: counted, `health` set, and its line logged unless it repeats.
    func failed(_ operation: Operation, _ error: Int32, _ what: String) {
        let now = MonotonicClock.seconds()
        let cause = SystemErrorText.describe(error)
        let line = state.withLock { state -> String? in
            state.failures += 1
            state.retryAt = now + Self.retrySeconds
            switch operation {
            case .append:
                if state.appendFailure == nil { state.appendFailure = Failure(cause: cause, since: now) }
                state.appendFailure?.cause = cause
            case .snapshot:
                if state.snapshotFailure == nil { state.snapshotFailure = Failure(cause: cause, since: now) }
                state.snapshotFailure?.cause = cause
            }
            return state.lines.note("\(what): \(cause)", now: now)
        }
        if let line { log(line) }
    }

    /// Logs the end of a failure: the repeats not yet counted in the log, then how long it lasted.
    func logRecovery(from failure: Failure, what: String) {
        let now = MonotonicClock.seconds()
        let lines = state.withLock { $0.lines.drain(now: now) }
        for line in lines { log(line) }
        let seconds = Int((now - failure.since).rounded())
        log("\(what) after \(seconds) s of \(failure.cause)")
    }

    /// Logs the counts of repeated failures whose window has passed.
    func logCounts(now: Double) {
        let lines = state.withLock { $0.lines.due(now: now) }
        for line in lines { log(line) }
    }
}
