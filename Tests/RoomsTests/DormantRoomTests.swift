import Foundation
import JSON
import Runtime
import Synchronization
import Testing
@testable import Rooms
import RoomsTestSupport

/// Rooms restored at start stay records until someone needs them (`RoomRegistry.wake`): a restart serves its
/// players before it has parsed any room. What must not change is what players and the data directory see.
@Suite struct DormantRoomTests {
    /// A registry on a manual clock with the fixture's two rooms restored (dormant), and its journal.
    private final class Restarted: Sendable {
        let directory: String
        let journal: RoomJournal
        let registry: RoomRegistry
        let timers: ManualTimers
        /// What the journal and the registry logged.
        let log: Lines

        init(directory: String, journal: RoomJournal, registry: RoomRegistry, timers: ManualTimers, log: Lines) {
            self.directory = directory
            self.journal = journal
            self.registry = registry
            self.timers = timers
            self.log = log
        }

        func stop() {
            journal.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// `extra` and `more` are written to the journal, as framed records.
    private static func restarted(seed: UInt64 = 5, files: [String] = ["rooms.snapshot"],
                                  extra: [UInt8]? = nil, more: [[UInt8]] = []) async throws -> (Restarted, Int) {
        let directory = try RoomJournalTests.dataDirectory(with: files)
        if let extra {
            try Data(([extra] + more).reduce(RecordFile.header) { $0 + RecordFile.frame($1) })
                .write(to: URL(fileURLWithPath: directory + "/rooms.journal"))
        }
        let log = Lines()
        let journal = try RoomJournal(directory: directory, log: log.append)
        let timers = ManualTimers(start: 1_764_600_010)
        let registry = RoomRegistry(lists: RoomTests.lists, seed: seed, journal: journal, clock: timers.clock,
                                    timers: timers)
        let restarted = Restarted(directory: directory, journal: journal, registry: registry, timers: timers, log: log)
        let count = await registry.restoreSavedRooms(log: log.append)
        return (restarted, count)
    }

    @Test func aRestoredRoomRunsOnlyOnceItIsNeeded() async throws {
        let (restarted, count) = try await Self.restarted()
        defer { restarted.stop() }
        let registry = restarted.registry
        #expect(count == 2)
        #expect(await registry.rooms.isEmpty, "nothing parsed or rebuilt at start")
        #expect(await Set(registry.dormant.keys.map(\.rawValue)) == ["TDGH", "EVHQ"])
        #expect(await registry.count == 2, "dormant rooms count as rooms")

        // A player resuming into TDGH finds it (through `find`, as a connection does), as it was saved.
        let found = Mutex<Room?>(nil)
        await withCheckedContinuation { continuation in
            registry.find(RoomCode("TDGH")!) { room in
                found.withLock { $0 = room }
                continuation.resume()
            }
        }
        let room = try #require(found.withLock { $0 })
        await room.settled()
        let saved = try #require(try RoomJournalTests.expected()["TDGH"])
        #expect(await room.snapshot().seq == (saved["seq"]?.intValue ?? -10) + 1, "one patch: everyone away")
        #expect(await registry.dormant.keys.map(\.rawValue) == ["EVHQ"])
        #expect(await registry.room(RoomCode("TDGH")!) === room, "woken once")

        // Nobody came back to EVHQ: it wakes a few seconds after the start, to be listed and to expire.
        await restarted.timers.advance(by: RoomRegistry.dormantWakeDelay - 0.5) { _ = await registry.count }
        #expect(await registry.dormant.count == 1)
        await restarted.timers.advance(by: 1) { _ = await registry.count }
        #expect(await registry.dormant.isEmpty)
        #expect(await registry.rooms.count == 2)
        let woken = try #require(await registry.rooms[RoomCode("EVHQ")!])
        await woken.settled()
        #expect(await registry.publicRooms().map(\.code.rawValue).sorted()
                == (await registry.rooms.values.filter(\.isPublic).map(\.code.rawValue).sorted()))
        #expect(restarted.log.lines.isEmpty)
    }

    /// A stop soon after a restart: the rooms nobody needed go into the snapshot as they were read, byte for
    /// byte, next to the records of the running ones, and the next start has them all.
    @Test func aStopKeepsTheDormantRoomsRecordsAsTheyWere() async throws {
        let (restarted, _) = try await Self.restarted()
        defer { try? FileManager.default.removeItem(atPath: restarted.directory) }
        let registry = restarted.registry
        let running = try #require(await registry.room(RoomCode("TDGH")!))
        await running.settled()
        let dormant = try #require(await registry.dormant[RoomCode("EVHQ")!])
        let now = registry.roomsNow()
        #expect(now.running.map(\.code.rawValue) == ["TDGH"])
        #expect(now.dormant.map(\.code) == ["EVHQ"])
        restarted.journal.writeSnapshot(of: now.running, dormant: now.dormant)
        restarted.journal.stop()

        let snapshot = try Data(contentsOf: URL(fileURLWithPath: restarted.directory + "/rooms.snapshot"))
        let records = RecordFile.parse(Array(snapshot), name: "rooms.snapshot").records
        #expect(records.count == 2)
        #expect(records.contains(dormant.payload))
        let again = try RoomJournal(directory: restarted.directory, log: { Issue.record("logged: \($0)") })
        defer { again.stop() }
        let loaded = again.load()
        #expect(loaded.map(\.code) == ["EVHQ", "TDGH"])
        #expect(loaded.first { $0.code == "TDGH" }?.version == (await running.persistedVersion))
    }

    /// A record whose front reads but whose room does not: the room is counted at start, and when it is needed
    /// the log says why it is not there and the player hears that there is no such room.
    @Test func aRoomWhoseRecordCannotBeReadIsReportedWhenItWakes() async throws {
        let broken = Array(#"{"format":3,"code":"KQZP","version":2,"room":{"code":7}}"#.utf8)
        let (restarted, count) = try await Self.restarted(files: [], extra: broken)
        defer { restarted.stop() }
        #expect(count == 1)
        #expect(await restarted.registry.room(RoomCode("KQZP")!) == nil)
        #expect(await restarted.registry.count == 0)
        let logged = restarted.log.lines
        #expect(logged.count == 1)
        #expect(logged.first?.hasPrefix("room KQZP was not restored: ") == true)
    }

    /// Before they wake, restored rooms count by game and the dashboard lists them as `saved`, from the front of
    /// their records; a record of the Codable journal (another order) is counted in the total only.
    @Test func dormantRoomsAreCountedAndListedFromTheirRecordsFront() async throws {
        let directory = try RoomJournalTests.dataDirectory(with: ["rooms.snapshot"])
        let records = try RoomJournal(directory: directory, log: { _ in }).load()
        try? FileManager.default.removeItem(atPath: directory)
        let snowman = try #require(records.first { $0.code == "TDGH" })
        let scramble = try #require(records.first { $0.code == "EVHQ" })
        let payloads = [snowman, scramble].map { JournalEntry(code: $0.code, version: 7, room: $0).payload }
        #expect(DormantRoom(code: "TDGH", version: 7, payload: payloads[0]).head?.kind == .snowman)
        #expect(DormantRoom(code: "EVHQ", version: 7, payload: payloads[1]).head?.kind == .scramble)
        #expect(DormantRoom(code: "TDGH", version: 7, payload: payloads[0]).head?.isPublic == snowman.isPublic)

        let (restarted, count) = try await Self.restarted(files: [], extra: payloads[0], more: [payloads[1]])
        defer { restarted.stop() }
        #expect(count == 2)
        #expect(await restarted.registry.roomCounts() == [.snowman: 1, .scramble: 1])
        let entries = await withCheckedContinuation { continuation in
            restarted.registry.withAdminEntries { continuation.resume(returning: $0) }
        }
        #expect(entries.map(\.code.rawValue).sorted() == ["EVHQ", "TDGH"])
        #expect(entries.allSatisfy { $0.status == "saved" && $0.players == 0 && $0.moves == 0 })
        #expect(entries.first { $0.code.rawValue == "EVHQ" }?.game == .scramble)
        #expect(await restarted.registry.rooms.isEmpty, "listing them woke none")

        // The Codable journal's records put the game elsewhere: counted in the total, not by game.
        let (codable, _) = try await Self.restarted()
        defer { codable.stop() }
        #expect(await codable.registry.roomCounts().isEmpty)
        #expect(await codable.registry.count == 2)
    }

    /// A room created while others are dormant never takes one of their codes.
    @Test func aNewRoomNeverTakesADormantRoomsCode() async throws {
        // The code a registry of this seed gives its first room.
        let probe = RoomRegistry(lists: RoomTests.lists, seed: 11)
        let first = try await probe.create(.snowman, isPublic: false, settings: [:], creator: MemoryLink(), name: "Ana")
        // A saved room under that code (the fixture's TDGH record, renamed).
        let directory = try RoomJournalTests.dataDirectory(with: ["rooms.snapshot"])
        let fixture = try #require(try RoomJournal(directory: directory, log: { _ in }).load().first { $0.code == "TDGH" })
        try? FileManager.default.removeItem(atPath: directory)
        var renamed = fixture
        renamed.code = first.code.rawValue
        let payload = JournalEntry(code: first.code.rawValue, version: 3, room: renamed).payload

        let (restarted, count) = try await Self.restarted(seed: 11, files: [], extra: payload)
        defer { restarted.stop() }
        #expect(count == 1)
        let created = try await restarted.registry.create(.snowman, isPublic: false, settings: [:],
                                                          creator: MemoryLink(), name: "Bo")
        #expect(created.code != first.code)
        let saved = try #require(await restarted.registry.room(first.code))
        #expect(saved !== created)
        await saved.settled()
        let names = await saved.snapshot().state["members"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
        #expect(names == fixture.members.map(\.name), "the saved room, not a new one")
    }
}

/// Log lines gathered from any thread.
private final class Lines: Sendable {
    private let state = Mutex<[String]>([])

    var lines: [String] { state.withLock { $0 } }

    @Sendable func append(_ line: String) {
        state.withLock { $0.append(line) }
    }
}
