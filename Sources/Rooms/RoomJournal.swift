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
    let awaited = Mutex<Set<RoomCode>>([])
    let handingOver = DispatchGroup()
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
    func takeOpened() -> (rooms: [DormantRoom], journalRecords: Int) {
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
}
