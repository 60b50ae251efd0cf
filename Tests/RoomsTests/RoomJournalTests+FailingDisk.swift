#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Runtime
import Synchronization
import Testing
@testable import Rooms
import RoomsTestSupport

/// A full or failing disk: nothing is reported saved that is not, no torn record is left in front of later
/// ones, the failure is visible (`health`) and logged once per cause, and the rooms are written when writing
/// works again.
extension RoomJournalTests {
    /// A journal on `disk` in a fresh directory, its registry, and `count` rooms with a player each.
    final class DiskFixture {
        final class Lines: Sendable {
            let value = Mutex<[String]>([])
        }

        let directory: String
        let disk = FailingDisk()
        let lines = Lines()
        let journal: RoomJournal
        let registry: RoomRegistry
        var rooms: [(room: Room, player: MemoryLink)] = []

        init(rooms count: Int) async throws {
            directory = try RoomJournalTests.dataDirectory(with: [])
            let lines = lines
            journal = try RoomJournal(directory: directory, disk: disk) { line in lines.value.withLock { $0.append(line) } }
            registry = RoomRegistry(lists: RoomTests.lists, seed: 5, journal: journal, clock: { 1_764_600_010 })
            for index in 0..<count {
                let link = MemoryLink()
                let room = try await registry.create(.snowman, isPublic: true, settings: [:], creator: link,
                                                     name: "P\(index)")
                rooms.append((room, link))
            }
            try await chat("first")
            journal.flushNow()
        }

        /// A chat line in every room, applied.
        func chat(_ text: String) async throws {
            for (room, player) in rooms { room.receive(.chat(text), from: player.id) }
            for (room, _) in rooms { await room.settled() }
        }

        var journalBytes: [UInt8] {
            get throws { Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/rooms.journal"))) }
        }

        func logged(_ prefix: String) -> [String] {
            lines.value.withLock { $0.filter { $0.hasPrefix(prefix) } }
        }

        /// Each room's seq as the rooms have it now, by code.
        func seqs() async -> [String: Int] {
            var seqs: [String: Int] = [:]
            for (room, _) in rooms { seqs[room.code.rawValue] = await room.snapshot().seq }
            return seqs
        }

        /// Each room's seq as a new start reads it from the directory (on a working disk).
        func savedSeqs() throws -> [String: Int] {
            let reopened = try RoomJournal(directory: directory, log: { _ in })
            defer { reopened.stop() }
            return Dictionary(uniqueKeysWithValues: reopened.load().map { ($0.code, $0.seq) })
        }
    }

    @Test func aFullDiskLeavesNoTornRecordAndTheRoomsAreWrittenWhenSpaceComesBack() async throws {
        let fixture = try await DiskFixture(rooms: 2)
        defer { try? FileManager.default.removeItem(atPath: fixture.directory) }
        let before = try fixture.journalBytes
        #expect(fixture.journal.health == RoomJournal.Health(failure: nil, writeFailures: 0, unsavedRooms: 0))
        fixture.disk.failWrites(ENOSPC, shortWrites: true)
        for line in ["second", "third", "fourth"] {
            try await fixture.chat(line)
            fixture.journal.flushNow()
        }
        // Every record cut short was cut off again.
        #expect(try fixture.journalBytes == before)
        let health = fixture.journal.health
        #expect(health.failure?.hasPrefix("No space left on device (ENOSPC) for ") == true)
        #expect(health.failure?.hasSuffix("; 2 rooms not saved") == true)
        // Two rooms, three flushes (and a periodic flush may have tried as well).
        let failures = health.writeFailures
        #expect(failures >= 6)
        #expect(health.unsavedRooms == 2)
        #expect(fixture.logged("journal: write failed") == ["journal: write failed: No space left on device (ENOSPC)"],
                "one line per cause")

        fixture.disk.heal()
        fixture.journal.flushNow()
        #expect(fixture.journal.health.failure == nil)
        #expect(fixture.journal.health.writeFailures == failures)
        let recovery = fixture.logged("journal: writing again after")
        #expect(recovery.count == 1)
        #expect(recovery.first?.hasSuffix(" s of No space left on device (ENOSPC)") == true, "\(recovery)")
        #expect(fixture.logged("journal: write failed: No space left on device (ENOSPC) ×\(failures - 1) in the last").count == 1,
                "the repeats are counted when the failure ends")
        let scanned = try fixture.journalBytes.withUnsafeBytes { RecordFile.scan($0) }
        #expect(!scanned.isDamaged && scanned.tail == nil)
        #expect(fixture.journal.stop() == RoomJournal.SaveOutcome(unsaved: 0, cause: nil))
        #expect(try fixture.savedSeqs() == (await fixture.seqs()), "the seq the players saw")
    }

    /// A failed fsync may have lost what it covered: the journal is cut back to the last good fsync and those
    /// rooms are written again once fsync works.
    @Test func aFailedFsyncWritesItsRecordsAgain() async throws {
        let fixture = try await DiskFixture(rooms: 2)
        defer { try? FileManager.default.removeItem(atPath: fixture.directory) }
        let before = try fixture.journalBytes
        fixture.disk.failSyncs(EIO)
        try await fixture.chat("second")
        fixture.journal.flushNow()
        #expect(try fixture.journalBytes == before)
        #expect(fixture.journal.health.failure?.hasPrefix("Input/output error (EIO) for ") == true)
        #expect(fixture.logged("journal: fsync failed") == ["journal: fsync failed: Input/output error (EIO)"])
        fixture.disk.heal()
        fixture.journal.flushNow()
        #expect(fixture.journal.health.failure == nil)
        fixture.journal.stop()
        #expect(try fixture.savedSeqs() == (await fixture.seqs()))
    }

    /// The stop's snapshot fails and so does the journal: the stop says how many rooms were not saved and why,
    /// and what is on the disk is what was saved before the disk filled.
    @Test func aStopOnAFullDiskSaysWhatWasNotSaved() async throws {
        let fixture = try await DiskFixture(rooms: 3)
        defer { try? FileManager.default.removeItem(atPath: fixture.directory) }
        let saved = await fixture.seqs()
        fixture.disk.failWrites(ENOSPC)
        try await fixture.chat("after the disk filled")
        #expect(!fixture.journal.writeSnapshot(of: fixture.rooms.map(\.room)))
        #expect(fixture.logged("snapshot: cannot write") == ["snapshot: cannot write '\(fixture.directory)/rooms.snapshot': No space left on device (ENOSPC)"])
        #expect(!FileManager.default.fileExists(atPath: fixture.directory + "/rooms.snapshot.tmp"),
                "the temporary file's space is given back")
        let outcome = fixture.journal.stop()
        #expect(outcome == RoomJournal.SaveOutcome(unsaved: 3, cause: "No space left on device (ENOSPC)"))
        #expect(try fixture.savedSeqs() == saved)
    }

    /// The stop's snapshot fails (it needs room for every record at once) but the journal can still be
    /// appended to: the rooms are saved there, and all of them are reported saved because they are.
    @Test func aStopWhoseSnapshotFailsSavesTheRoomsInTheJournal() async throws {
        let fixture = try await DiskFixture(rooms: 3)
        defer { try? FileManager.default.removeItem(atPath: fixture.directory) }
        fixture.disk.failWrites(ENOSPC, pathSuffix: "rooms.snapshot.tmp")
        try await fixture.chat("after the disk filled")
        #expect(!fixture.journal.writeSnapshot(of: fixture.rooms.map(\.room)))
        #expect(fixture.journal.stop() == RoomJournal.SaveOutcome(unsaved: 0, cause: nil))
        #expect(try fixture.savedSeqs() == (await fixture.seqs()))
    }

    /// While writing fails, a flush tries again only every `retrySeconds`; the rooms stay marked meanwhile.
    @Test func aFailingJournalTriesAgainOnlyEveryRetryInterval() async throws {
        let fixture = try await DiskFixture(rooms: 1)
        defer { try? FileManager.default.removeItem(atPath: fixture.directory) }
        fixture.disk.failWrites(ENOSPC)
        try await fixture.chat("second")
        fixture.journal.flushNow()
        #expect(fixture.journal.health.writeFailures >= 1)
        // The periodic flush runs every 100 ms; none retries before `retrySeconds` pass. Pushing the retry far
        // out makes that independent of the machine's speed (after a pause for a flush already under way).
        fixture.journal.state.withLock { $0.retryAt = MonotonicClock.seconds() + 3600 }
        try await Task.sleep(for: .milliseconds(200))
        let failures = fixture.journal.health.writeFailures
        try await fixture.chat("third")
        try await Task.sleep(for: .milliseconds(350))
        #expect(fixture.journal.health.writeFailures == failures)
        #expect(fixture.journal.health.unsavedRooms == 1)
        fixture.disk.heal()
        fixture.journal.state.withLock { $0.retryAt = 0 }
        // The next periodic flush writes the room.
        var waited = 0
        while fixture.journal.health.failure != nil, waited < 100 {
            try await Task.sleep(for: .milliseconds(50))
            waited += 1
        }
        #expect(fixture.journal.health.failure == nil)
        fixture.journal.stop()
        #expect(try fixture.savedSeqs() == (await fixture.seqs()))
    }
}
