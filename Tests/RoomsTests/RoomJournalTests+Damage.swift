import Foundation
import Synchronization
import Testing
@testable import Rooms
import RoomsTestSupport

/// One bad byte costs at most the record it is in: the rooms around it come back, the damaged file is set aside
/// before anything new is written, and the next run's rooms are saved as usual.
extension RoomJournalTests {
    /// A journal of one record per room (codes `Self.code(0..<count)`), as a crash leaves it, and where each
    /// record starts.
    static func journalOfRooms(_ count: Int) throws -> (bytes: [UInt8], starts: [Int]) {
        var bytes = RecordFile.header
        var starts: [Int] = []
        for index in 0..<count {
            starts.append(bytes.count)
            bytes += RecordFile.frame(try Self.entry(Self.code(index), version: 1).payload)
        }
        return (bytes, starts)
    }

    /// Opens `journal` as the data directory's only file and returns the codes restored, what the start
    /// reported, the lines logged and the directory (removed by the caller).
    static func open(journal: [UInt8]) throws
        -> (codes: [String], report: RestoreReport, lines: [String], directory: String, opened: RoomJournal) {
        let directory = try Self.dataDirectory(with: [])
        try Data(journal).write(to: URL(fileURLWithPath: directory + "/rooms.journal"))
        let lines = Mutex<[String]>([])
        let opened = try RoomJournal(directory: directory) { line in lines.withLock { $0.append(line) } }
        let codes = opened.loadForRestore().map(\.code)
        return (codes, opened.restoreReport, lines.withLock { $0 }, directory, opened)
    }

    /// The files set aside in `directory`.
    static func setAside(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(".bad-") }.sorted()
    }

    @Test func aFlippedBitInTheFirstRecordLosesOnlyThatRoom() throws {
        var (bytes, starts) = try Self.journalOfRooms(20)
        bytes[starts[0] + 30] ^= 0x08
        let (codes, report, lines, directory, opened) = try Self.open(journal: bytes)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(codes == (1..<20).map(Self.code).sorted())
        #expect(report.skippedRecords == 1)
        #expect(report.skippedBytes == starts[1] - starts[0])
        #expect(try Self.setAside(in: directory).map { $0.hasPrefix("rooms.journal.bad-") } == [true])
        #expect(lines.contains { $0.hasPrefix("rooms.journal (\(bytes.count) bytes) skipped 1 damaged record") })
        #expect(lines.contains { $0.hasPrefix("rooms.journal is damaged: set it aside as \(directory)/rooms.journal.bad-") })
        opened.stop()
        // The rooms read are in the new snapshot; the new journal is whole and empty.
        let again = try RoomJournal(directory: directory, log: { Issue.record("logged: \($0)") })
        defer { again.stop() }
        #expect(again.load().map(\.code) == (1..<20).map(Self.code).sorted())
        #expect(again.restoreReport == RestoreReport())
    }

    @Test func aTornFirstRecordLosesOnlyThatRoom() throws {
        let (whole, starts) = try Self.journalOfRooms(5)
        let torn = Array(whole[..<(starts[0] + 100)]) + whole[starts[1]...]
        let (codes, report, _, directory, opened) = try Self.open(journal: torn)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        opened.stop()
        #expect(codes == (1..<5).map(Self.code).sorted())
        #expect(report.skippedRecords == 1 && report.setAside.count == 1)
    }

    @Test func aDamagedHeaderLosesNoRoom() throws {
        var (bytes, _) = try Self.journalOfRooms(20)
        bytes.replaceSubrange(0..<8, with: Array("WRJ\u{0}URN1".utf8))
        let (codes, report, _, directory, opened) = try Self.open(journal: bytes)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        opened.stop()
        #expect(codes == (0..<20).map(Self.code).sorted())
        #expect(report.setAside.count == 1 && report.skippedRecords == 0)
    }

    /// A file that is nothing but garbage is set aside; the rooms of the next run are written to a new journal
    /// and come back after a crash (a stop without a snapshot leaves only the journal, as `kill -9` does).
    @Test func aGarbageJournalIsSetAsideAndTheNextRunsRoomsAreSaved() async throws {
        var generator = SystemRandomNumberGenerator()
        let garbage = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let (codes, report, _, directory, journal) = try Self.open(journal: garbage)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(codes.isEmpty)
        #expect(report.setAside.count == 1)
        let aside = try #require(try Self.setAside(in: directory).first)
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/" + aside)) == Data(garbage), "kept as it was")
        let registry = RoomRegistry(lists: RoomTests.lists, seed: 5, journal: journal, clock: { 1_764_600_010 })
        var rooms: [Room] = []
        for index in 0..<10 {
            let link = MemoryLink()
            let room = try await registry.create(.snowman, isPublic: true, settings: [:], creator: link, name: "P\(index)")
            room.receive(.chat("saved"), from: link.id)
            rooms.append(room)
        }
        for room in rooms { await room.settled() }
        journal.stop()
        let again = try RoomJournal(directory: directory, log: { Issue.record("logged: \($0)") })
        defer { again.stop() }
        let restored = again.load()
        #expect(restored.map(\.code) == rooms.map(\.code.rawValue).sorted())
        for room in rooms {
            let seq = await room.snapshot().seq
            #expect(restored.first { $0.code == room.code.rawValue }?.seq == seq)
        }
    }

    /// A record torn by a crash at the end of the journal is cut off: the next records follow whole ones, and
    /// nothing is set aside.
    @Test func aTornTailIsCutOffBeforeTheNextRecord() throws {
        let (whole, starts) = try Self.journalOfRooms(3)
        let torn = Array(whole[..<(starts[2] + 50)])
        let (codes, report, _, directory, opened) = try Self.open(journal: torn)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        opened.stop()
        #expect(codes == [0, 1].map(Self.code).sorted())
        #expect(report.skippedRecords == 1 && report.setAside.isEmpty)
        #expect(try Self.setAside(in: directory).isEmpty)
    }

    /// A damaged snapshot is written again from what was read, and a copy of it kept.
    @Test func aDamagedSnapshotIsWrittenAgainAndACopyKept() throws {
        var (bytes, starts) = try Self.journalOfRooms(4)
        bytes[starts[2] + 40] ^= 0x01
        let directory = try Self.dataDirectory(with: [])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data(bytes).write(to: URL(fileURLWithPath: directory + "/rooms.snapshot"))
        let opened = try RoomJournal(directory: directory, log: { _ in })
        #expect(opened.restoreReport.setAside.map { $0.hasPrefix(directory + "/rooms.snapshot.bad-") } == [true])
        opened.stop()
        let again = try RoomJournal(directory: directory, log: { Issue.record("logged: \($0)") })
        defer { again.stop() }
        #expect(again.load().map(\.code) == [0, 1, 3].map(Self.code).sorted())
    }
}
