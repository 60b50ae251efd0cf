#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import JSON
import Synchronization
import Runtime

/// Snapshots: every room written to a new snapshot file that replaces the old one and empties the journal, and
/// the last save on stop.
extension RoomJournal {
    /// Writes every room to the snapshot and empties the journal. Blocks until done; call off the event loops.
    /// `dormant` are rooms restored at start that nobody has needed since: their records go in as they were read.
    ///
    /// - Returns: whether the snapshot was written. When it was not, the rooms stay marked changed, so that the
    ///   next flush (the stop's) appends them to the journal.
    @discardableResult
    public func writeSnapshot(of rooms: [Room], dormant: [DormantRoom] = []) -> Bool {
        let done = DispatchSemaphore(value: 0)
        let written = Mutex(false)
        worker.execute { [self] in
            let ok = compact(rooms: rooms, dormant: dormant)
            written.withLock { $0 = ok }
            done.signal()
        }
        done.wait()
        return written.withLock { $0 }
    }

    /// On the worker thread: gathers a record from every room (each on its own thread) into a new snapshot.
    ///
    /// A room is no longer waiting for the next flush once it handed its record over: the snapshot holds that
    /// change, and a change after it marks the room again (on the same thread, so never in between). A stop
    /// wrote every room that changed in its last second twice, once here and once more to the journal. When the
    /// snapshot cannot be written, every room is marked again: a stop that logged `cannot write` then lost what
    /// 29 of 30 rooms played since their last record.
    func compact(rooms: [Room], dormant: [DormantRoom]) -> Bool {
        let handedOver = Mutex<[JournalEntry]>([])
        let gathered = DispatchSemaphore(value: 0)
        for room in rooms {
            room.executor.execute { [self] in
                let entry = room.assumeIsolated { $0.journalEntry() }
                dirty.withLock { _ = $0.rooms.removeValue(forKey: room.code) }
                handedOver.withLock { $0.append(entry) }
                gathered.signal()
            }
        }
        let written = replaceSnapshot { write in
            for room in dormant { write(room.payload) }
            for _ in rooms {
                gathered.wait()
                let entries = handedOver.withLock { entries in
                    let taken = entries
                    entries.removeAll(keepingCapacity: true)
                    return taken
                }
                for entry in entries { write(entry.payload) }
            }
        }
        if !written {
            dirty.withLock { dirty in
                for room in rooms where dirty.rooms[room.code] == nil {
                    dirty.rooms[room.code] = room
                    dirty.written[room.code] = nil
                }
            }
        }
        return written
    }

    /// On the worker thread, when the journal's records pass `compactionBytes`: each room's newest record, read
    /// back from the snapshot and the journal as they are on disk, becomes the new snapshot, and the journal is
    /// emptied. No room is asked for anything: a compaction used to take a record of every room on the rooms'
    /// threads, 1,250 records made back to back between two I/O events of an event loop every few seconds, and
    /// every move that waited behind them showed it (10,000 bots at half a move a second with `--data`:
    /// move-to-patch p99 130-146 ms, against 43 ms with compaction turned off and 4.8 ms without `--data`). The
    /// rooms that changed since their last record are still waiting for the next flush, as before. The files are
    /// mapped, not read, and records are copied framed as they are (their checksums were just checked): the
    /// server's heap does not grow by the journal's size each time. Call on the worker thread (internal for tests).
    func compactFromFiles() {
        RecordFile.withMapped(snapshotPath) { snapshot in
            RecordFile.withMapped(journalPath) { journal in
                let files = [snapshot, journal]
                // Torn tails and unreadable records are left out, as on start; the start that reads the files
                // logs them.
                let newest = Self.newestRecords(in: files, names: ["rooms.snapshot", "rooms.journal"])
                _ = replaceSnapshot(framed: { write in
                    for kept in newest.picks.values where !kept.removal {
                        write(UnsafeRawBufferPointer(rebasing: files[kept.file][kept.framed]))
                    }
                })
            }
        }
    }

    /// On the worker thread: writes the payloads `produce` hands to its argument as the snapshot, atomically (a
    /// temporary file, fsynced and renamed over the old one), then truncates the journal.
    ///
    /// Records are written as they come, through a buffer of `snapshotChunkBytes`, rather than gathered into
    /// one array first: with 10,000 players the gathered records and the whole file were two copies of 19 MB at
    /// once, every few seconds.
    func replaceSnapshot(emptyingJournal: Bool = true, _ produce: ((_ payload: [UInt8]) -> Void) -> Void) -> Bool {
        replaceSnapshot(emptyingJournal: emptyingJournal, framed: { write in
            withoutActuallyEscaping(write) { write in
                produce { payload in RecordFile.frame(payload).withUnsafeBytes(write) }
            }
        })
    }

    /// `replaceSnapshot`, given records already framed (`RecordFile.frame`).
    ///
    /// - Returns: whether the snapshot is on the disk. When it is not, the temporary file is removed (on a full
    ///   disk it held the space the journal needs) and the journal is left as it was.
    func replaceSnapshot(emptyingJournal: Bool = true,
                         framed produce: ((_ record: UnsafeRawBufferPointer) -> Void) -> Void) -> Bool {
        let temporary = snapshotPath + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        var failure: Int32? = fd >= 0 ? nil : errno
        var chunk = RecordFile.header
        chunk.reserveCapacity(Self.snapshotChunkBytes + RecordFile.header.count)
        produce { record in
            chunk.append(contentsOf: record)
            if failure == nil, chunk.count >= Self.snapshotChunkBytes {
                failure = disk.writeAll(fd, chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        if failure == nil { failure = disk.writeAll(fd, chunk) }
        if failure == nil, disk.fsync(fd) != 0 { failure = errno }
        if fd >= 0 { close(fd) }
        if failure == nil, rename(temporary, snapshotPath) != 0 { failure = errno }
        if let failure {
            unlink(temporary)
            failed(.snapshot, failure, "snapshot: cannot write '\(snapshotPath)'")
            return false
        }
        // Until the rename is on the disk, the journal's records are the only copy of what the snapshot adds.
        guard Self.syncDirectory(directory) else {
            failed(.snapshot, errno, "snapshot: cannot fsync the directory '\(directory)'")
            return false
        }
        if emptyingJournal {
            // Every record now in the journal is older than (or equal to) the snapshot's.
            let journalFD = state.withLock { $0.fd }
            ftruncate(journalFD, 0)
            let headerWritten = disk.writeAll(journalFD, RecordFile.header) == nil && disk.fsync(journalFD) == 0
            if !headerWritten { ftruncate(journalFD, 0) }
            state.withLock { state in
                // Without its header the next append writes it first.
                state.goodBytes = headerWritten ? RecordFile.header.count : 0
                state.syncedBytes = state.goodBytes
                state.cutPending = false
                state.unsynced.removeAll()
            }
        }
        let recovered = state.withLock { state -> Failure? in
            let recovered = state.snapshotFailure
            state.snapshotFailure = nil
            return recovered
        }
        if let recovered { logRecovery(from: recovered, what: "snapshot: written again") }
        return true
    }

    /// fsyncs a directory, so that a rename or a new file in it survives a power loss.
    ///
    /// - Returns: whether it worked (errno set when not).
    @discardableResult
    static func syncDirectory(_ path: String) -> Bool {
        let directoryFD = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryFD >= 0 else { return false }
        defer { close(directoryFD) }
        return fsync(directoryFD) == 0
    }

    /// Flushes what is pending (trying once more whatever could not be written) and stops the writer.
    ///
    /// - Returns: what could not be saved: the rooms whose last changes are not on the disk, and why.
    @discardableResult
    public func stop() -> SaveOutcome {
        flush(waiting: true)
        let done = DispatchSemaphore(value: 0)
        // Every record is queued on the worker by now: once this runs, they are written.
        worker.execute { done.signal() }
        done.wait()
        let synced = DispatchSemaphore(value: 0)
        worker.execute { [self] in
            sync()
            synced.signal()
        }
        synced.wait()
        let outcome = state.withLock { state in
            state.stopped = true
            let cause = state.appendFailure?.cause ?? state.snapshotFailure?.cause
            return (records: Set(state.unsavedRecords.keys), cause: cause)
        }
        let rooms = dirty.withLock { Set($0.rooms.keys.map(\.rawValue)) }
            .union(awaited.withLock { Set($0.map(\.rawValue)) })
        let lines = state.withLock { $0.lines.drain(now: MonotonicClock.seconds()) }
        for line in lines { log(line) }
        worker.stop()
        let unsaved = rooms.union(outcome.records)
        return SaveOutcome(unsaved: unsaved.count, cause: unsaved.isEmpty ? nil : outcome.cause)
    }
}
