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
///
/// On start, the snapshot and the journal are mapped and each room's newest record picked (the highest version,
/// the journal's of equal versions), without parsing any: the registry runs a room from its record when it is
/// first needed (`DormantRoom`). A torn or corrupt tail is skipped with a log line.
public final class RoomJournal: Sendable {
    public static let flushSeconds = 0.1
    /// Up to this many changed rooms, every flush writes each of them.
    static let promptRooms = 64
    /// Beyond `promptRooms`, the shortest time between two records of a room.
    static let busyRoomSeconds = 1.0
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
    private let worker = ThreadExecutor(name: "journal")
    /// Rooms changed since their last record, and when each room's last record was taken (monotonic seconds).
    private let dirty = Mutex<(rooms: [RoomCode: Room], written: [RoomCode: Double])>(([:], [:]))
    private let journalFD: Int32
    private let state = Mutex<(appendedBytes: Int, unsynced: Bool, stopped: Bool)>((0, false, false))
    private let log: @Sendable (String) -> Void

    private var snapshotPath: String { directory + "/rooms.snapshot" }
    private var journalPath: String { directory + "/rooms.journal" }

    /// Opens (creating if needed) the data directory and its journal.
    public init(directory: String, log: @escaping @Sendable (String) -> Void) throws(JournalError) {
        self.directory = directory
        self.log = log
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw JournalError(description: "cannot create the data directory '\(directory)': \(String(cString: strerror(errno)))")
        }
        let fd = open(directory + "/rooms.journal", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw JournalError(description: "cannot open '\(directory)/rooms.journal': \(String(cString: strerror(errno)))")
        }
        journalFD = fd
        var info = stat()
        fstat(fd, &info)
        if info.st_size == 0 {
            _ = RecordFile.writeAll(fd, RecordFile.header)
        }
        state.withLock { $0.appendedBytes = Int(info.st_size) }
        scheduleFlush()
    }

    public struct JournalError: Error, CustomStringConvertible {
        public let description: String
    }

    // MARK: Loading

    /// The saved rooms, parsed: the snapshot, then the journal on top (see `loadForRestore`). Problems are
    /// logged, never fatal; a room whose newest record cannot be read is left out.
    func load() -> [RoomRecord] {
        read().rooms.compactMap { room in
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
        let (rooms, journalRecords) = read()
        guard journalRecords > 0 else { return rooms }
        worker.execute { [self] in
            replaceSnapshot { write in
                for room in rooms { write(room.payload) }
            }
        }
        return rooms
    }

    /// Each room's newest record in the snapshot and the journal (mapped, not read: only the winners are
    /// copied), sorted by code, and how many records the journal held.
    private func read() -> (rooms: [DormantRoom], journalRecords: Int) {
        RecordFile.withMapped(snapshotPath) { snapshot in
            RecordFile.withMapped(journalPath) { journal in
                let files = [snapshot, journal]
                let newest = Self.newestRecords(in: files, names: ["rooms.snapshot", "rooms.journal"])
                for problem in newest.problems { log(problem) }
                var rooms: [DormantRoom] = []
                rooms.reserveCapacity(newest.picks.count)
                for (code, pick) in newest.picks where !pick.removal {
                    let payload = files[pick.file][(pick.framed.lowerBound + 8)..<pick.framed.upperBound]
                    rooms.append(DormantRoom(code: code, version: pick.version, payload: Array(payload)))
                }
                return (rooms.sorted { $0.code < $1.code }, newest.records[1])
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
    /// - Returns: the picks by room code (removals included), how many intact records each file held, and the
    ///   lines to log: torn or corrupt tails, and records that are not a record of any room this version reads
    ///   (of a newer format, say), which are skipped.
    static func newestRecords(in files: [UnsafeRawBufferPointer], names: [String])
        -> (picks: [String: NewestRecord], records: [Int], problems: [String]) {
        var picks: [String: NewestRecord] = [:]
        var records: [Int] = []
        var problems: [String] = []
        var unreadable: [(name: String, count: Int)] = []
        for (file, bytes) in files.enumerated() {
            let scanned = RecordFile.scan(bytes, name: names[file])
            if let problem = scanned.problem { problems.append(problem) }
            records.append(scanned.framed.count)
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
        return (picks, records, problems)
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
        append(JournalEntry(code: code.rawValue, version: version, room: nil))
    }

    private func scheduleFlush() {
        worker.schedule(after: RoomJournal.flushSeconds) { [weak self] in
            guard let self, !self.state.withLock({ $0.stopped }) else { return }
            self.flush()
            self.scheduleFlush()
        }
    }

    /// Collects the records of the rooms that changed and appends them; fsyncs what the previous flush wrote.
    ///
    /// - Parameter waiting: Wait (up to `stopWaitSeconds`) for every room to hand its record over, on `stop`, so
    ///   that the last changes are in the journal before it closes. Bounded: at shutdown the rooms' threads may
    ///   have stopped already (the server saved a snapshot of every room just before). The periodic flush does
    ///   not wait.
    private func flush(waiting: Bool = false) {
        let now = MonotonicClock.seconds()
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
        let handedOver = DispatchGroup()
        for room in rooms.values {
            handedOver.enter()
            room.executor.execute { [self] in
                let entry = room.assumeIsolated { room in room.journalEntry() }
                append(entry)
                handedOver.leave()
            }
        }
        if waiting { _ = handedOver.wait(timeout: .now() + RoomJournal.stopWaitSeconds) }
        worker.execute { [self] in
            let unsynced = state.withLock { state in
                let value = state.unsynced
                state.unsynced = false
                return value
            }
            if unsynced { fsync(journalFD) }
        }
    }

    /// Which of the `changed` rooms a flush at `now` writes: all of them when few changed (or at `stop`), else
    /// those whose last record (`written`) is at least `busyRoomSeconds` old.
    static func due(_ changed: [RoomCode], written: [RoomCode: Double], now: Double, waiting: Bool) -> [RoomCode] {
        guard !waiting, changed.count > promptRooms else { return changed }
        return changed.filter { now - (written[$0] ?? -.infinity) >= busyRoomSeconds }
    }

    private nonisolated func append(_ entry: JournalEntry) {
        let framed = RecordFile.frame(entry.payload)
        worker.execute { [self] in
            guard RecordFile.writeAll(journalFD, framed) else {
                log("journal: write failed: \(String(cString: strerror(errno)))")
                return
            }
            let size = state.withLock { state in
                state.appendedBytes += framed.count
                state.unsynced = true
                return state.appendedBytes
            }
            if size > RoomJournal.compactionBytes { compactFromFiles() }
        }
    }

    // MARK: Snapshots

    /// Writes every room to the snapshot and empties the journal. Blocks until done; call off the event loops.
    /// `dormant` are rooms restored at start that nobody has needed since: their records go in as they were read.
    public func writeSnapshot(of rooms: [Room], dormant: [DormantRoom] = []) {
        let done = DispatchSemaphore(value: 0)
        worker.execute { [self] in
            compact(rooms: rooms, dormant: dormant)
            done.signal()
        }
        done.wait()
    }

    /// On the worker thread: gathers a record from every room (each on its own thread) into a new snapshot.
    ///
    /// A room is no longer waiting for the next flush once it handed its record over: the snapshot holds that
    /// change, and a change after it marks the room again (on the same thread, so never in between). A stop
    /// wrote every room that changed in its last second twice, once here and once more to the journal.
    private func compact(rooms: [Room], dormant: [DormantRoom]) {
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
        replaceSnapshot { write in
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
                replaceSnapshot(framed: { write in
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
    private func replaceSnapshot(_ produce: ((_ payload: [UInt8]) -> Void) -> Void) {
        replaceSnapshot(framed: { write in
            withoutActuallyEscaping(write) { write in
                produce { payload in RecordFile.frame(payload).withUnsafeBytes(write) }
            }
        })
    }

    /// `replaceSnapshot`, given records already framed (`RecordFile.frame`).
    private func replaceSnapshot(framed produce: ((_ record: UnsafeRawBufferPointer) -> Void) -> Void) {
        let temporary = snapshotPath + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        var chunk = RecordFile.header
        chunk.reserveCapacity(Self.snapshotChunkBytes + RecordFile.header.count)
        var written = fd >= 0
        produce { record in
            chunk.append(contentsOf: record)
            if written, chunk.count >= Self.snapshotChunkBytes {
                written = RecordFile.writeAll(fd, chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        guard written, RecordFile.writeAll(fd, chunk), fsync(fd) == 0 else {
            log("snapshot: cannot write '\(temporary)': \(String(cString: strerror(errno)))")
            if fd >= 0 { close(fd) }
            return
        }
        close(fd)
        guard rename(temporary, snapshotPath) == 0 else {
            log("snapshot: cannot rename it into place: \(String(cString: strerror(errno)))")
            return
        }
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            fsync(directoryFD)
            close(directoryFD)
        }
        // Every record now in the journal is older than (or equal to) the snapshot's.
        ftruncate(journalFD, 0)
        _ = RecordFile.writeAll(journalFD, RecordFile.header)
        fsync(journalFD)
        state.withLock { $0.appendedBytes = RecordFile.header.count; $0.unsynced = false }
    }

    /// Flushes what is pending and stops the writer.
    public func stop() {
        flush(waiting: true)
        let done = DispatchSemaphore(value: 0)
        // Every record is queued on the worker by now: once this runs, they are written.
        worker.execute { done.signal() }
        done.wait()
        worker.execute { [self] in fsync(journalFD) }
        state.withLock { $0.stopped = true }
        worker.stop()
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
        persistedVersion += 1
        return JournalEntry(code: code.rawValue, version: persistedVersion,
                            room: disposed ? nil : record(version: persistedVersion))
    }
}
