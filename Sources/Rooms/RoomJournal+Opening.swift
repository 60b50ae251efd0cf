#if canImport(Glibc)
import Glibc
#endif

/// The start: reading what the data directory holds, and making sure nothing new is written after damage.
///
/// A server that could not read its journal used to keep appending to it, so the rooms of the next run were
/// lost as well (0 of 10 after `kill -9`). Now a damaged file is read around its damage (`RecordFile.scan`),
/// the rooms read from it are written as a new snapshot, and the file is set aside under a name of its own
/// before the journal is opened for writing.
extension RoomJournal {
    /// Reads both files, logs what was skipped, sets damaged files aside and opens the journal for appending.
    func openFiles() throws(JournalError) {
        let found = read()
        for problem in found.problems { log(problem) }
        let (snapshotScan, journalScan) = (found.scans[0], found.scans[1])
        var report = RestoreReport()
        for scan in found.scans {
            report.skippedRecords += scan.damaged.count + (scan.tail == nil ? 0 : 1)
            report.skippedBytes += scan.damagedBytes + (scan.tail?.count ?? 0)
        }
        report.unreadableRecords = found.unreadable
        // A snapshot is renamed into place whole: a torn tail in it is damage too.
        let snapshotDamaged = snapshotScan.isDamaged || snapshotScan.tail != nil
        let journalDamaged = journalScan.isDamaged
        var journalRecords = journalScan.framed.count
        if snapshotDamaged, let kept = keepCopy(of: snapshotPath) {
            report.setAside.append(kept)
            log("rooms.snapshot is damaged: kept a copy as \(kept); writing it again from the records read")
        }
        if journalDamaged {
            let written = replaceSnapshot(emptyingJournal: false) { write in
                for room in found.rooms { write(room.payload) }
            }
            guard let moved = setAside(journalPath) else {
                throw JournalError(description: "cannot set the damaged '\(journalPath)' aside: "
                                   + SystemErrorText.describe(errno) + "; move it away by hand and start again")
            }
            report.setAside.append(moved)
            log("rooms.journal is damaged: set it aside as \(moved); "
                + (written ? "its rooms are in the snapshot" : "its rooms are kept in memory until they can be written"))
            if !written {
                state.withLock { state in
                    for room in found.rooms { state.unsavedRecords[room.code] = RecordFile.frame(room.payload) }
                }
            }
            journalRecords = 0
        }
        let fd = open(journalPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw JournalError(description: "cannot open '\(journalPath)': \(SystemErrorText.describe(errno))")
        }
        var info = stat()
        fstat(fd, &info)
        var size = Int(info.st_size)
        if size == 0 {
            // Without it (a full disk) the first record that can be written brings its header.
            if disk.writeAll(fd, RecordFile.header) == nil, disk.fsync(fd) == 0 { size = RecordFile.header.count }
            Self.syncDirectory(directory)
        } else if !journalDamaged, journalScan.tail != nil, ftruncate(fd, off_t(journalScan.goodLength)) == 0 {
            // A record torn by a crash: cut off before the next is appended behind it.
            size = journalScan.goodLength
        }
        state.withLock { state in
            state.fd = fd
            state.goodBytes = size
            state.syncedBytes = size
            state.cutPending = false
        }
        if snapshotDamaged, !journalDamaged {
            let written = replaceSnapshot { write in
                for room in found.rooms { write(room.payload) }
            }
            if written { journalRecords = 0 }
        }
        opened.withLock { $0 = (found.rooms, journalRecords, report) }
    }

    /// Renames `path` to `path.bad-<UTC time>`; nil (errno set) when that fails.
    private func setAside(_ path: String) -> String? {
        let target = Self.asideName(for: path)
        guard rename(path, target) == 0 else { return nil }
        Self.syncDirectory(directory)
        return target
    }

    /// Links `path` as `path.bad-<UTC time>` (the file itself is replaced next); nil when that fails.
    private func keepCopy(of path: String) -> String? {
        let target = Self.asideName(for: path)
        guard link(path, target) == 0 else {
            log("cannot keep a copy of the damaged '\(path)': \(SystemErrorText.describe(errno))")
            return nil
        }
        return target
    }

    /// A name next to `path` that no file has: `path.bad-20261207T134501Z`, then `-2`, `-3`...
    static func asideName(for path: String) -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let stamp = "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
        var candidate = "\(path).bad-\(stamp)"
        var number = 2
        var info = stat()
        while lstat(candidate, &info) == 0 {
            candidate = "\(path).bad-\(stamp)-\(number)"
            number += 1
        }
        return candidate
    }
}

/// What a start found in the data directory besides whole records, for its start line.
public struct RestoreReport: Sendable, Equatable {
    /// Damaged stretches and torn tails (each at least one record) skipped in the files.
    public var skippedRecords = 0
    public var skippedBytes = 0
    /// Whole records of no shape this version reads (a newer format).
    public var unreadableRecords = 0
    /// The paths damaged files were set aside as.
    public var setAside: [String] = []

    public init() {}

    /// Clauses for the start line: `skipped 1 damaged record (2431 bytes)`, `set aside DIR/rooms.journal.bad-...`.
    public var clauses: [String] {
        var clauses: [String] = []
        if skippedRecords > 0 {
            let records = skippedRecords == 1 ? "1 damaged record" : "\(skippedRecords) damaged records"
            clauses.append("skipped \(records) (\(skippedBytes) bytes)")
        }
        if unreadableRecords > 0 {
            clauses.append("skipped \(unreadableRecords) unreadable record\(unreadableRecords == 1 ? "" : "s")")
        }
        if !setAside.isEmpty {
            clauses.append("set aside " + setAside.joined(separator: ", "))
        }
        return clauses
    }
}
