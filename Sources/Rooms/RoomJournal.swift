#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import JSON
import Synchronization
import Runtime

/// Keeps every room on disk so that neither a restart nor a crash loses a game.
///
/// - A **snapshot** (`rooms.snapshot`) holds every room; it is written to a temporary file that is fsynced and
///   renamed over the old one: on a graceful stop from a record of every room, and whenever the journal grows
///   past `compactionBytes` from each room's newest record in the files (`compactFromFiles`).
/// - The **journal** (`rooms.journal`) is append-only: every `flushSeconds` (100 ms) the latest state of each
///   room that changed is appended and the file is fsynced. A crash (kill -9, power loss) therefore loses at
///   most the changes of the last interval plus the fsync in flight: about 200 ms.
/// - **Under load** (more than `promptRooms` rooms changed since the last flush) a room is written at most once
///   every `busyRoomSeconds` (1 s): a whole record per room ten times a second was most of the server's work
///   with 5,000 players (user CPU per move 2.9 times that of the same load without `--data`). A crash then
///   loses at most about 1.2 s of a busy room's play; a room's first change after a quiet second still goes
///   out with the next flush.
/// - Writing happens on the journal's own thread; rooms only hand over their records (encoded on their own
///   thread), so no event loop ever waits on the disk.
/// - **When writing fails** (a full disk, EIO) a record cut short is cut off the file again, so that no torn
///   record hides the records after it; its room stays marked as changed and a whole record of it is written
///   once writing works again (tried every `retrySeconds`). A failed fsync cuts the journal back to what the
///   last good fsync covered and writes those rooms again. Meanwhile `health` says why saving fails (`/readyz`
///   answers 503), failures are counted, and each cause is logged once, then as a count (`LogCoalescer`).
///
/// On start (`init`) the snapshot and the journal are mapped and each room's newest record picked (the highest
/// version, the journal's of equal versions), without parsing any: the registry runs a room from its record
/// when it is first needed (`DormantRoom`). Damaged records are skipped and reading goes on after them
/// (`RecordFile.scan`); a damaged file is set aside (`rooms.journal.bad-<time>`) before anything new is
/// written, and a torn tail of the journal is cut off (see `RoomJournal+Opening.swift`).
public final class RoomJournal: Sendable {
    public static let flushSeconds = 0.1
    /// Up to this many changed rooms, every flush writes each of them.
    static let promptRooms = 64
    /// Beyond `promptRooms`, the shortest time between two records of a room.
    static let busyRoomSeconds = 1.0
    /// While writing fails, how often it is tried again.
    static let retrySeconds = 1.0
    /// How long `stop` waits for the rooms' threads to hand over their last records.
    static let stopWaitSeconds = 1.0
    public static let compactionBytes = 32 << 20
    /// How much of a snapshot is buffered between writes.
    static let snapshotChunkBytes = 256 << 10
    /// What the parser allows in a record: as large as a record may be, as deep as a room's state goes.
    static let recordLimits = JSONParser.Limits(maxDepth: 64, maxBytes: RecordFile.maxRecordBytes,
                                                maxStringLength: RecordFile.maxRecordBytes,
                                                maxElements: RecordFile.maxRecordBytes)

    public let directory: String
    let worker = ThreadExecutor(name: "journal")
    let disk: any JournalDisk
    /// Rooms changed since their last record (or whose last record could not be written), and when each
    /// room's last record was taken (monotonic seconds).
    let dirty = Mutex<(rooms: [RoomCode: Room], written: [RoomCode: Double])>(([:], [:]))
    let state = Mutex<WriterState>(WriterState())
    /// What the start read: each room's newest record until the registry takes them, and what was skipped.
    let opened = Mutex<(rooms: [DormantRoom]?, journalRecords: Int, report: RestoreReport)>((nil, 0, RestoreReport()))
    /// Rooms whose record a flush asked for and has not received yet, and the same as a group to wait on: the
    /// stop waits for the handovers of an earlier periodic flush too, which under load could arrive after the
    /// writer stopped.
    private let awaited = Mutex<Set<RoomCode>>([])
    private let handingOver = DispatchGroup()
    let log: @Sendable (String) -> Void

    var snapshotPath: String { directory + "/rooms.snapshot" }
    var journalPath: String { directory + "/rooms.journal" }

    /// The journal's writing state; the file offsets and descriptor change on the worker thread only.
    struct WriterState {
        var fd: Int32 = -1
        /// Where the last whole record ends: a failed write is cut back to here.
        var goodBytes = 0
        /// Up to here the journal is fsynced.
        var syncedBytes = 0
        /// Records written since the last fsync: written again when the fsync fails.
        var unsynced: [String: Unsaved] = [:]
        /// Records that could not be written and are not a running room's (removals, records read at start):
        /// written as they are when writing works again. A running room's goes back to `dirty` instead.
        var unsavedRecords: [String: [UInt8]] = [:]
        /// A failed write left bytes after `goodBytes` that the file could not be cut back to yet.
        var cutPending = false
        /// The rooms whose last write or fsync failed: a failure ends with the fsync after the last of them is
        /// written (a record that fitted is no recovery while the others did not).
        var failedCodes: Set<String> = []
        var appendFailure: Failure?
        var snapshotFailure: Failure?
        /// Writes, fsyncs and snapshots that failed since the start.
        var failures = 0
        /// While failing, when the next flush tries again (monotonic seconds).
        var retryAt = 0.0
        var stopped = false
        var lines = LogCoalescer()
    }

    /// Why saving fails, and since when.
    struct Failure {
        var cause: String
        var since: Double
    }

    /// A record written but not yet known to be on the disk, or not written: what writes it again.
    enum Unsaved {
        /// A running room: a new whole record is taken from it.
        case room(Room)
        /// A record that is written again as it is (framed).
        case record([UInt8])
    }

    /// Opens (creating if needed) the data directory and its journal, and reads the rooms saved in it (see
    /// `loadForRestore`). Damage is logged and worked around, never fatal.
    ///
    /// - Parameter disk: the calls that write the files (a test's fails like a full disk).
    /// - Throws: `JournalError` when the directory cannot be created or the journal not opened.
    public init(directory: String, disk: any JournalDisk = SystemDisk(),
                log: @escaping @Sendable (String) -> Void) throws(JournalError) {
        self.directory = directory
        self.disk = disk
        self.log = log
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw JournalError(description: "cannot create the data directory '\(directory)': \(String(cString: strerror(errno)))")
        }
        try openFiles()
        scheduleFlush()
    }

    public struct JournalError: Error, CustomStringConvertible {
        public let description: String
    }

    // MARK: Loading

    /// The saved rooms, parsed: the snapshot, then the journal on top (see `loadForRestore`). Problems are
    /// logged, never fatal; a room whose newest record cannot be read is left out.
    func load() -> [RoomRecord] {
        takeOpened().rooms.compactMap { room in
            do {
                return try room.record()
            } catch {
                log("room \(room.code) was not restored: its newest record cannot be read (\(error))")
                return nil
            }
        }
    }

    /// Each saved room's newest record, unparsed, for a server about to run them (see `DormantRoom`); removed
    /// rooms are left out. When the journal held records (after `kill -9`, up to `compactionBytes` of them), the
    /// newest of each room are written as the new snapshot and the journal is emptied, on the journal's thread:
    /// left as it was, the journal passed `compactionBytes` with the first records of the restarted rooms, and
    /// a compaction ran in the middle of the reconnect storm.
    func loadForRestore() -> [DormantRoom] {
        let (rooms, journalRecords) = takeOpened()
        guard journalRecords > 0 else { return rooms }
        worker.execute { [self] in
            _ = replaceSnapshot { write in
                for room in rooms { write(room.payload) }
            }
        }
        return rooms
    }

    /// What the start read, handed over once (the records are not kept twice); read again after that.
    private func takeOpened() -> (rooms: [DormantRoom], journalRecords: Int) {
        let taken = opened.withLock { opened in
            let taken = (opened.rooms, opened.journalRecords)
            opened.rooms = nil
            opened.journalRecords = 0
            return taken
        }
        if let rooms = taken.0 { return (rooms, taken.1) }
        let read = read()
        return (read.rooms, read.scans[1].framed.count)
    }

    /// What the start found in the data directory: rooms, records skipped, files set aside.
    public var restoreReport: RestoreReport {
        opened.withLock { $0.report }
    }

    /// Each room's newest record in the snapshot and the journal (mapped, not read: only the winners are
    /// copied), sorted by code; what the scans of the two files found; the lines to log.
    func read() -> (rooms: [DormantRoom], scans: [RecordFile.Scan], problems: [String], unreadable: Int) {
        RecordFile.withMapped(snapshotPath) { snapshot in
            RecordFile.withMapped(journalPath) { journal in
                let files = [snapshot, journal]
                let newest = Self.newestRecords(in: files, names: ["rooms.snapshot", "rooms.journal"])
                var rooms: [DormantRoom] = []
                rooms.reserveCapacity(newest.picks.count)
                for (code, pick) in newest.picks where !pick.removal {
                    let payload = files[pick.file][(pick.framed.lowerBound + 8)..<pick.framed.upperBound]
                    rooms.append(DormantRoom(code: code, version: pick.version, payload: Array(payload)))
                }
                return (rooms.sorted { $0.code < $1.code }, newest.scans, newest.problems, newest.unreadable)
            }
        }
    }

    /// Where each room's newest record lies in `files` (whole files as on disk, the later file winning ties).
    struct NewestRecord {
        var version: Int
        /// Index into the files.
        var file: Int
        /// The record with its length and checksum.
        var framed: Range<Int>
        /// The room's removal rather than its state.
        var removal: Bool
    }

    /// Each room's newest record in `files`, as a start and a compaction pick it: records are told apart by the
    /// code and version at the front of their payload (`JournalEntry.peek`; a shape it does not read is parsed in
    /// full), and of equal versions the later file's (the journal over the snapshot) wins. After `kill -9` the
    /// journal holds many records of each room and only one of each matters, so none is parsed here.
    ///
    /// - Returns: the picks by room code (removals included), each file's scan, the lines to log (damaged
    ///   stretches and torn tails, and records that are not a record of any room this version reads, of a
    ///   newer format, say, which are skipped) and how many such unreadable records there were.
    static func newestRecords(in files: [UnsafeRawBufferPointer], names: [String])
        -> (picks: [String: NewestRecord], scans: [RecordFile.Scan], problems: [String], unreadable: Int) {
        var picks: [String: NewestRecord] = [:]
        var scans: [RecordFile.Scan] = []
        var problems: [String] = []
        var unreadable: [(name: String, count: Int)] = []
        for (file, bytes) in files.enumerated() {
            let scanned = RecordFile.scan(bytes)
            if let problem = scanned.problem(name: names[file], fileBytes: bytes.count) { problems.append(problem) }
            scans.append(scanned)
            var skipped = 0
            for framed in scanned.framed {
                let payload = UnsafeRawBufferPointer(rebasing: bytes[(framed.lowerBound + 8)..<framed.upperBound])
                    .bindMemory(to: UInt8.self)
                let key: (code: String, version: Int, removal: Bool)
                if let (code, version) = JournalEntry.peek(payload) {
                    key = (code, version, JournalEntry.isRemoval(payload))
                } else if let entry = try? JournalEntry(payload: Array(payload)) {
                    key = (entry.code, entry.version, entry.room == nil)
                } else {
                    skipped += 1
                    continue
                }
                if let kept = picks[key.code], kept.version > key.version { continue }
                picks[key.code] = NewestRecord(version: key.version, file: file, framed: framed, removal: key.removal)
            }
            if skipped > 0 { unreadable.append((names[file], skipped)) }
        }
        for (name, count) in unreadable.sorted(by: { $0.name > $1.name }) {
            problems.append("\(name): skipped \(count) records that could not be read")
        }
        return (picks, scans, problems, unreadable.reduce(0) { $0 + $1.count })
    }

    // MARK: Recording changes

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

    private func scheduleFlush() {
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
    private func flush(waiting: Bool = false) {
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

    private nonisolated func append(_ entry: JournalEntry, of room: Room?) {
        let framed = RecordFile.frame(entry.payload)
        worker.execute { [self] in
            write(framed, code: entry.code, source: room.map { .room($0) } ?? .record(framed))
        }
    }

    /// On the worker thread: appends one framed record. A failure cuts the file back to where the record
    /// began (a torn record must not stay in front of the records written after it) and keeps the record's
    /// room or bytes to be written again (`keepUnsaved`).
    private func write(_ framed: [UInt8], code: String, source: Unsaved) {
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
    private func sync() {
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
    private func keepUnsaved(_ code: String, _ source: Unsaved) {
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
    private func logCounts(now: Double) {
        let lines = state.withLock { $0.lines.due(now: now) }
        for line in lines { log(line) }
    }

    // MARK: Snapshots

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
    private func compact(rooms: [Room], dormant: [DormantRoom]) -> Bool {
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

/// One journal or snapshot record: a room's latest state, or its removal (`room` nil).
///
/// The payload is `{"format":3,"code":...,"version":...,"room":{...}|null}`. Records of format 2 (with the
/// state) and those without `format`, written by the Codable journal of earlier versions, are still read (see
/// `RoomRecord.init(saved:format:)`).
struct JournalEntry: Sendable {
    var code: String
    var version: Int
    var room: RoomRecord?

    /// The `format` of the records this version writes.
    static let format = 3

    init(code: String, version: Int, room: RoomRecord?) {
        self.code = code
        self.version = version
        self.room = room
    }

    /// The record's payload, encoded.
    var payload: [UInt8] {
        JSONWriter().serialize([
            "format": JSONValue(Self.format), "code": JSONValue(code), "version": JSONValue(version),
            "room": room?.json ?? .null,
        ])
    }

    /// The code and version of a record of this version, read from the front of its payload without parsing
    /// the room (`{"format":3,"code":"QHTW","version":12,"room":...`, as `payload` writes it, or format 2);
    /// nil for any other shape, which the full parse then reads.
    static func peek(_ payload: [UInt8]) -> (code: String, version: Int)? {
        payload.withUnsafeBufferPointer { peek($0) }
    }

    /// `peek` on bytes in place (a record of a mapped file).
    static func peek(_ payload: UnsafeBufferPointer<UInt8>) -> (code: String, version: Int)? {
        let formatKey = Array(#"{"format":"#.utf8)
        let codeKey = Array(#","code":""#.utf8)
        let versionKey = Array(#"","version":"#.utf8)
        let roomKey = Array(#","room":"#.utf8)
        let opening = formatKey.count + 1 + codeKey.count
        guard payload.count > opening, payload[..<formatKey.count].elementsEqual(formatKey),
              (UInt8(ascii: "2")...UInt8(ascii: "3")).contains(payload[formatKey.count]),
              payload[(formatKey.count + 1)..<opening].elementsEqual(codeKey) else { return nil }
        var index = opening
        let codeStart = index
        // Room codes are a few letters and digits: anything needing an escape is left to the parser.
        while index < payload.count, index - codeStart <= 16, payload[index] != UInt8(ascii: "\""),
              payload[index] != UInt8(ascii: "\\") {
            index += 1
        }
        guard index < payload.count, payload[index] == UInt8(ascii: "\""), index > codeStart,
              payload.count - index > versionKey.count,
              payload[index..<(index + versionKey.count)].elementsEqual(versionKey) else { return nil }
        let code = String(decoding: payload[codeStart..<index], as: UTF8.self)
        index += versionKey.count
        var version = 0
        let digitsStart = index
        while index < payload.count, index - digitsStart < 18, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(payload[index]) {
            version = version * 10 + Int(payload[index] - UInt8(ascii: "0"))
            index += 1
        }
        guard index > digitsStart, payload.count - index >= roomKey.count,
              payload[index..<(index + roomKey.count)].elementsEqual(roomKey) else { return nil }
        return (code, version)
    }

    /// Whether a payload that `peek` reads is a room's removal (`room` null, the last member `payload` writes).
    static func isRemoval(_ payload: UnsafeBufferPointer<UInt8>) -> Bool {
        let ending = #","room":null}"#.utf8
        return payload.count >= ending.count && payload.suffix(ending.count).elementsEqual(ending)
    }

    /// Reads a payload of this version or of the Codable journal.
    ///
    /// - Throws: `SavedObject.Unreadable`, or the parser's error, for a payload that is not a record.
    init(payload: [UInt8]) throws {
        let saved = try SavedObject(JSONParser(limits: RoomJournal.recordLimits).parse(payload), "journal record")
        let format = try saved.optionalInt("format") ?? 1
        guard format <= Self.format else {
            throw SavedObject.Unreadable("the record is of format \(format), newer than this server's")
        }
        code = try saved.string("code")
        version = try saved.int("version")
        room = try saved.optional("room").map { (room) throws(SavedObject.Unreadable) in
            try RoomRecord(saved: room, format: format)
        }
    }
}

extension Room {
    /// A journal entry with this room's current state and the next version number.
    func journalEntry() -> JournalEntry {
        // The record's state at `seq` is rebuilt from its parts on restore: a change still waiting for its
        // publish would be in the parts but not in what clients at `seq` have.
        publishIfQueued()
        machine.publication.persistedVersion += 1
        let version = machine.publication.persistedVersion
        return JournalEntry(code: code.rawValue, version: version,
                            room: machine.disposed ? nil : machine.record(version: version))
    }
}
