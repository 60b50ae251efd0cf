import Foundation
import JSON
import Runtime
import Synchronization
import Testing
import WordGames
@testable import Rooms
import RoomsTestSupport

/// Rooms saved in the data directory come back as they were: records of this version, and the snapshot the
/// Codable journal of the previous version wrote (`Fixtures/journal-v1`, written by that code: one Snowman room
/// with a finished game, chat, a ban and a spectator; one Word Scramble match with words found).
@Suite struct RoomJournalTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/journal-v1").path

    /// A journal on `directory` (any line it logs fails the test) and a registry saving into it on `timers`.
    static func journaledRegistry(in directory: String, seed: UInt64, timers: ManualTimers) throws
        -> (journal: RoomJournal, registry: RoomRegistry)
    {
        let journal = try RoomJournal(directory: directory, log: { Issue.record("logged: \($0)") })
        let registry = RoomRegistry(lists: RoomTests.lists, seed: seed, journal: journal, clock: timers.clock,
                                    timers: timers)
        return (journal, registry)
    }

    /// A fresh data directory (the caller removes it) with a journal and a registry saving into it, on timers
    /// that start at 1,000,000 s.
    static func freshJournaledRegistry(seed: UInt64) throws
        -> (directory: String, timers: ManualTimers, journal: RoomJournal, registry: RoomRegistry)
    {
        let directory = try dataDirectory(with: [])
        let timers = ManualTimers(start: 1_000_000)
        let (journal, registry) = try journaledRegistry(in: directory, seed: seed, timers: timers)
        return (directory, timers, journal, registry)
    }

    /// Plays `move` in a restored room as its member number `index` of `saved` (a room of `expected()`), back
    /// with their saved token; returns the room's state after it.
    static func play(_ move: ClientMessage, in room: Room, asMember index: Int, of saved: JSONValue?) async throws
        -> JSONValue
    {
        let token = try #require(saved?["tokens"]?[index]?.stringValue.flatMap(ResumeToken.init))
        let member = MemoryLink()
        room.join(member, name: nil, token: token, lastSeq: nil, spectator: false)
        room.receive(move, from: member.id)
        await room.settled()
        return await room.snapshot().state
    }

    /// A fresh data directory holding `files` (names in `Fixtures/journal-v1`).
    static func dataDirectory(with files: [String]) throws -> String {
        let directory = NSTemporaryDirectory() + "wordrooms-journal-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for file in files {
            try FileManager.default.copyItem(atPath: fixture + "/" + file, toPath: directory + "/" + file)
        }
        return directory
    }

    /// What the fixture's rooms held: seq, state and members' tokens by room code.
    static func expected() throws -> JSONObject {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture + "/expected.json"))
        return try #require(try JSONParser().parse(Array(bytes)).objectValue)
    }

    /// A host's new word list as long as the old one sends no patch (the state shows only the count), but it is
    /// saved at once: a restart right after it plays the new words, not the old ones.
    @Test func aNewWordListOfTheSameLengthIsSavedAtOnce() async throws {
        let (directory, _, journal, registry) = try Self.freshJournaledRegistry(seed: 5)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let host = MemoryLink()
        let room = try await registry.create(.snowman, isPublic: true, settings: ["waitForHost": true],
                                             creator: host, name: "Ana")
        let first = ["APPLE", "BERRY", "CHERRY", "DATES", "GRAPE", "LEMON", "MANGO", "MELON", "OLIVE", "PEACH"]
        let second = ["ACORN", "BIRCH", "CEDAR", "DAISY", "FERNS", "GRASS", "HEDGE", "IVIES", "LILAC", "MAPLE"]
        room.receive(.settings(["customWords": JSONValue(first.joined(separator: "\n")), "wordSource": "custom"]),
                     from: host.id)
        await room.settled()
        journal.writeSnapshot(of: [room])
        let seq = await room.snapshot().seq
        room.receive(.settings(["customWords": JSONValue(second.joined(separator: ","))]), from: host.id)
        await room.settled()
        #expect(await room.snapshot().seq == seq, "the same count shows no change")
        journal.stop()

        let reopened = try RoomJournal(directory: directory, log: { Issue.record("logged: \($0)") })
        defer { reopened.stop() }
        let saved = try #require(reopened.load().first { $0.code == room.code.rawValue })
        let words = saved.snapshot["nextSettings"]?["customWords"]?.arrayValue?.compactMap(\.stringValue)
        #expect(words.map(Set.init) == Set(second))
    }

    @Test func readsTheSnapshotOfTheCodableJournal() async throws {
        let directory = try Self.dataDirectory(with: ["rooms.snapshot"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try RoomJournal(directory: directory, log: { Issue.record("logged: \($0)") })
        defer { journal.stop() }
        let records = journal.load()
        #expect(records.map(\.code) == ["EVHQ", "TDGH"])
        let snowman = try #require(records.first { $0.code == "TDGH" })
        #expect(snowman.game == "snowman")
        #expect(snowman.snapshot["secret"]?.stringValue == "ATTRACT")
        #expect(snowman.members.map(\.name) == ["Ana", "Bob", "Cleo"])
        #expect(snowman.members.map(\.isSpectator) == [false, false, true])
        #expect(snowman.bans?.map(\.name) == ["Dan"])
        #expect(snowman.locked == true)
        #expect(snowman.random.state == 8_969_951_871_276_635_931)
        #expect(snowman.chat.map(\.text) == ["hello there", "hi ☃️"])
        let expected = try Self.expected()
        for record in records {
            #expect(record.state == expected[record.code]?["state"], "the state clients had, parsed from its string")
            #expect(record.seq == expected[record.code]?["seq"]?.intValue)
        }
    }

    @Test func roomsOfTheCodableJournalComeBackAndPlayOn() async throws {
        let directory = try Self.dataDirectory(with: ["rooms.snapshot"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try RoomJournal(directory: directory, log: { Issue.record("logged: \($0)") })
        defer { journal.stop() }
        let registry = RoomRegistry(lists: RoomTests.lists, seed: 5, journal: journal, clock: { 1_764_600_010 })
        #expect(await registry.restoreSavedRooms(log: { Issue.record("logged: \($0)") }) == 2)
        let expected = try Self.expected()
        for (code, saved) in expected {
            let room = try #require(await registry.room(RoomCode(code)!))
            await room.settled()
            let savedSeq = try #require(saved["seq"]?.intValue)
            // Everyone is away now: one patch says so, on top of exactly what clients had, and adds what this
            // server shows that the old one did not (the room's status; Word Scramble's break, Ready list and
            // rounds played).
            var away = try #require(saved["state"])
            for index in away["members"]!.arrayValue!.indices { away["members"]![index]!["connected"] = false }
            away["status"] = "playing"
            if away["scramble"] != nil {
                away["scramble"]!["roundsPlayed"] = []
                away["scramble"]!["ready"] = []
                away["scramble"]!["settings"]!["breakSeconds"] = 20
                away["scramble"]!["nextSettings"]!["breakSeconds"] = 20
                // Saved under an older blocklist (issue 43 hid more words): the round counts the words it may
                // show with today's lists, and those found that it no longer shows ("slayers").
                let lexicon = RoomTests.lists.lexicon
                let root = try #require(away["scramble"]!["root"]?.stringValue).lowercased()
                let shown = lexicon.words(spelledFrom: root, minimumLength: 3).filter { $0 != root && lexicon.isShown($0) }
                let foundUnshown = (away["scramble"]!["found"]?.arrayValue ?? [])
                    .compactMap { $0["word"]?.stringValue }.filter { !lexicon.isShown($0) }
                away["scramble"]!["totalWords"] = JSONValue(shown.count + foundUnshown.count)
            }
            // Saved before word packs: the settings now also say which words the games use.
            if away["snowman"] != nil {
                for key in ["settings", "nextSettings"] {
                    away["snowman"]![key]!["pack"] = "general"
                    away["snowman"]![key]!["wordSource"] = "pack"
                    away["snowman"]![key]!["customWords"] = 0
                }
            }
            let (seq, state) = await room.snapshot()
            #expect(seq == savedSeq + 1)
            #expect(state == away)
            // The first player resumes from the saved seq and gets the one patch it missed.
            let link = MemoryLink()
            let token = try #require(saved["tokens"]?[0]?.stringValue.flatMap(ResumeToken.init))
            room.join(link, name: nil, token: token, lastSeq: savedSeq, spectator: false)
            await room.settled()
            var view = ClientView(state: saved["state"]!, seq: savedSeq)
            try view.apply(link.drain())
            #expect(view.you == "p1")
            #expect(view.gaps == 0)
            #expect(view.state == (await room.snapshot()).state)
        }
        // The games play on: Snowman's secret and Word Scramble's solutions came back with them.
        let snowman = try #require(await registry.room(RoomCode("TDGH")!))
        let turn = try #require(await snowman.snapshot().state["snowman"]?["turn"]?.stringValue)
        #expect(turn == "p2")
        let afterGuess = try await Self.play(.guess("r"), in: snowman, asMember: 1, of: expected["TDGH"])
        let guesses = try #require(afterGuess["snowman"]?["guesses"]?.arrayValue)
        #expect(guesses.last?["letter"]?.stringValue == "R")
        #expect(guesses.last?["hit"]?.boolValue == true, "ATTRACT has an R")
        let scramble = try #require(await registry.room(RoomCode("EVHQ")!))
        let afterWord = try await Self.play(.word("lasers"), in: scramble, asMember: 0, of: expected["EVHQ"])
        let found = try #require(afterWord["scramble"]?["found"]?.arrayValue)
        #expect(found.first?["word"]?.stringValue == "lasers")
        #expect(found.count == 6)
    }

    @Test(arguments: [GameKind.snowman, .scramble])
    func recordsOfThisVersionRoundTripAsJSONValues(kind: GameKind) async throws {
        var fixture = try await RoomTests.Fixture(kind, settings: kind == .scramble ? ["rounds": 3] : [:])
        fixture.room.receive(.chat("saved"), from: fixture.host.id)
        fixture.room.receive(kind == .scramble ? .newGame : .guess("e"), from: fixture.host.id)
        try await fixture.sync([fixture.host])
        let entry = await fixture.room.journalEntry()
        let payload = try JSONParser().parse(entry.payload)
        #expect(payload["format"]?.intValue == 3)
        let room = try #require(payload["room"])
        // The game's snapshot is a JSON value, not JSON text inside JSON; the state is rebuilt from the record
        // (RoomRestoreResumeTests), so only who was connected is kept of it.
        #expect(room["snapshot"]?.objectValue != nil)
        #expect(room["state"] == nil)
        #expect(room["connected"] == ["p1"])
        let read = try JournalEntry(payload: entry.payload)
        #expect(read.code == entry.code)
        #expect(read.version == entry.version)
        let record = try #require(read.room)
        #expect(record.json == entry.room?.json)
        let game = try record.game(lists: RoomTests.lists)
        #expect(game.kind == kind)
        #expect(game.snapshot == record.snapshot, "the game comes back exactly")
    }

    @Test func theRandomGeneratorComesBackExactly() throws {
        var record = try RoomRecord(saved: Self.minimalRecord, format: JournalEntry.format)
        record.random = SplitMix64(seed: UInt64.max - 12)
        let read = try RoomRecord(saved: try JSONParser().parse(JSONWriter().serialize(record.json)), format: JournalEntry.format)
        #expect(read.random == record.random)
    }

    @Test func aRemovalIsARecordWithoutARoom() throws {
        let entry = JournalEntry(code: "QHTW", version: 7, room: nil)
        let read = try JournalEntry(payload: entry.payload)
        #expect(read.code == "QHTW")
        #expect(read.version == 7)
        #expect(read.room == nil)
        // The Codable journal left the room out.
        let legacy = try JournalEntry(payload: Array(#"{"code":"QHTW","version":3}"#.utf8))
        #expect(legacy.room == nil)
    }

    @Test(arguments: [
        ("secret", "the Snowman snapshot has no \"secret\""),
        ("guesses", "the Snowman snapshot has no \"guesses\""),
    ])
    func aDamagedSnapshotIsRefusedNamingWhatIsMissing(key: String, problem: String) throws {
        var snapshot = try #require(Self.minimalRecord["snapshot"])
        snapshot[key] = nil
        #expect(throws: SavedObject.Unreadable.self) { try SnowmanRoomGame(snapshot: snapshot, lists: RoomTests.lists) }
        do {
            _ = try SnowmanRoomGame(snapshot: snapshot, lists: RoomTests.lists)
        } catch {
            #expect(error.description == problem)
        }
    }

    /// Settings in a snapshot get the defaults for what is missing and the settings' own checks.
    @Test(arguments: [
        // Snapshots from before word packs: the general pack, no custom words.
        (GameKind.snowman, ["turnSeconds": 30] as JSONObject,
         ["maxWrongGuesses": 7, "turnSeconds": 30, "pack": "general", "wordSource": "pack"] as JSONValue?),
        (GameKind.snowman, ["maxWrongGuesses": 11] as JSONObject, nil as JSONValue?),
        (GameKind.scramble, ["rounds": 4] as JSONObject,
         ["rounds": 4, "roundSeconds": 90, "minWordLength": 3, "breakSeconds": 20] as JSONValue?),
        (GameKind.scramble, ["breakSeconds": 61] as JSONObject, nil as JSONValue?),
        (GameKind.scramble, ["minWordLength": 2] as JSONObject, nil as JSONValue?),
    ])
    func snapshotSettingsGetDefaultsAndChecks(kind: GameKind, settings: JSONObject, read: JSONValue?) throws {
        var random = SplitMix64(seed: 1)
        let game = try GameRegistry.make(kind, settings: [:], lists: RoomTests.lists, now: 0, using: &random)
        var snapshot = game.snapshot
        snapshot["settings"] = .object(settings)
        guard let read else {
            #expect(throws: SavedObject.Unreadable.self) {
                try GameRegistry.restore(kind.rawValue, snapshot: snapshot, lists: RoomTests.lists)
            }
            return
        }
        let restored = try GameRegistry.restore(kind.rawValue, snapshot: snapshot, lists: RoomTests.lists)
        #expect(restored.snapshot["settings"] == read)
    }

    /// Optional fields are always there: an off turn timer is `null`, in the state and in snapshots.
    @Test func anOffTimerIsNull() async throws {
        var fixture = try await RoomTests.Fixture(.snowman, settings: ["turnSeconds": 0])
        try await fixture.sync([fixture.host])
        let settings = try #require(fixture.views[fixture.host.id]?.state["snowman"]?["settings"]?.objectValue)
        #expect(settings["turnSeconds"] == .null)
        #expect(settings.keys.map { $0 } == ["maxWrongGuesses", "turnSeconds", "pack", "wordSource", "customWords"])
        let saved = try #require(await fixture.room.record(version: 1).snapshot["settings"]?.objectValue)
        #expect(saved["turnSeconds"] == .null)
    }

    @Test func aRecordOfANewerFormatIsRefused() {
        #expect(throws: SavedObject.Unreadable.self) {
            try JournalEntry(payload: Array(#"{"format":4,"code":"QHTW","version":1,"room":null}"#.utf8))
        }
    }

    @Test func peekReadsTheCodeAndVersionAtTheFrontOfAPayload() throws {
        let record = try RoomRecord(saved: Self.minimalRecord, format: JournalEntry.format)
        let entry = JournalEntry(code: "QHTW", version: 1234, room: record)
        let peeked = try #require(JournalEntry.peek(entry.payload))
        #expect(peeked.code == "QHTW" && peeked.version == 1234)
        let removal = try #require(JournalEntry.peek(JournalEntry(code: "AB12", version: 3, room: nil).payload))
        #expect(removal.code == "AB12" && removal.version == 3)
        // Any other shape is left to the full parse.
        for other in [#"{"code":"QHTW","version":3}"#, #"{"format":1,"code":"QHTW","version":3,"room":null}"#,
                      #"{"format":2,"code":"Q\u0048TW","version":3,"room":null}"#,
                      #"{"format":2,"code":"QHTW","version":"3","room":null}"#, #"{"format":2,"code":"QHTW""#] {
            #expect(JournalEntry.peek(Array(other.utf8)) == nil, "\(other)")
        }
    }

    /// After kill -9 the journal holds many records of a room: the newest wins, told by the code and version at
    /// the front of each record without parsing it; a record of no shape this version reads (a newer format,
    /// say) gives way to the one before it; a removal removes. A newest record that only the full parse finds
    /// broken (whole on disk, its checksum holds) leaves its room out, with a line in the log.
    @Test func loadKeepsEachRoomsNewestRecord() throws {
        let directory = try Self.dataDirectory(with: [])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func record(_ code: String, seq: Int) throws -> RoomRecord {
            var record = try RoomRecord(saved: Self.minimalRecord, format: JournalEntry.format)
            record.code = code
            record.seq = seq
            return record
        }
        var snapshot = RecordFile.header
        snapshot += RecordFile.frame(JournalEntry(code: "QHTW", version: 4, room: try record("QHTW", seq: 40)).payload)
        snapshot += RecordFile.frame(JournalEntry(code: "BBBB", version: 1, room: try record("BBBB", seq: 10)).payload)
        snapshot += RecordFile.frame(JournalEntry(code: "CCCC", version: 2, room: try record("CCCC", seq: 20)).payload)
        snapshot += RecordFile.frame(JournalEntry(code: "DDDD", version: 1, room: try record("DDDD", seq: 10)).payload)
        var journal = RecordFile.header
        journal += RecordFile.frame(JournalEntry(code: "QHTW", version: 5, room: try record("QHTW", seq: 50)).payload)
        journal += RecordFile.frame(JournalEntry(code: "QHTW", version: 3, room: try record("QHTW", seq: 30)).payload)
        // Newer, whole on disk, but of a format this version does not read: the one before it counts.
        journal += RecordFile.frame(Array(#"{"format":9,"code":"QHTW","version":6,"room":{}}"#.utf8))
        journal += RecordFile.frame(JournalEntry(code: "BBBB", version: 2, room: nil).payload)
        // Equal versions: the journal's is the later write.
        journal += RecordFile.frame(JournalEntry(code: "CCCC", version: 2, room: try record("CCCC", seq: 21)).payload)
        // The newest of its room by its front, yet not a room inside.
        journal += RecordFile.frame(Array(#"{"format":3,"code":"DDDD","version":2,"room":{"code":7}}"#.utf8))
        try Data(snapshot).write(to: URL(fileURLWithPath: directory + "/rooms.snapshot"))
        try Data(journal).write(to: URL(fileURLWithPath: directory + "/rooms.journal"))
        let lines = Mutex<[String]>([])
        let opened = try RoomJournal(directory: directory) { line in lines.withLock { $0.append(line) } }
        defer { opened.stop() }
        let loaded = opened.load()
        #expect(loaded.map(\.code) == ["CCCC", "QHTW"])
        #expect(loaded.map(\.seq) == [21, 50])
        let logged = lines.withLock { $0 }
        #expect(logged.count == 2)
        #expect(logged.first == "rooms.journal: skipped 1 records that could not be read")
        #expect(logged.last?.hasPrefix("room DDDD was not restored: its newest record cannot be read") == true)
    }

    /// A start after kill -9 finds the journal full of records (up to `compactionBytes`); it writes each room's
    /// newest as the snapshot and empties the journal, so that the restarted rooms' first records do not set off
    /// a compaction in the middle of the reconnect storm. What a later start reads is the same.
    @Test func aRestartWritesTheNewestRecordsAsTheSnapshotAndEmptiesTheJournal() throws {
        let directory = try Self.dataDirectory(with: [])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var snapshot = RecordFile.header
        var journal = RecordFile.header
        for (code, version) in [("QHTW", 4), ("BBBB", 1), ("CCCC", 2)] {
            snapshot += RecordFile.frame(try Self.entry(code, version: version).payload)
        }
        for (code, version) in [("QHTW", 5), ("QHTW", 6), ("CCCC", 1)] {
            journal += RecordFile.frame(try Self.entry(code, version: version).payload)
        }
        journal += RecordFile.frame(JournalEntry(code: "BBBB", version: 2, room: nil).payload)
        try Data(snapshot).write(to: URL(fileURLWithPath: directory + "/rooms.snapshot"))
        try Data(journal).write(to: URL(fileURLWithPath: directory + "/rooms.journal"))

        let restarted = try RoomJournal(directory: directory, log: { Issue.record("logged: \($0)") })
        #expect(try restarted.loadForRestore().map { try $0.record().seq } == [20, 60])
        restarted.stop()
        let written = try Self.snapshotAfterEmptiedJournal(in: directory)
        #expect(try written.records.map { try JournalEntry(payload: $0) }.map { "\($0.code) \($0.version)" }.sorted()
                == ["CCCC 2", "QHTW 6"])
        let again = try RoomJournal(directory: directory, log: { Issue.record("logged: \($0)") })
        defer { again.stop() }
        #expect(again.load().map(\.seq) == [20, 60])
    }

    /// A compaction takes each room's newest record from the files as they are, without asking any room: the
    /// journal's record of a room outranks the snapshot's (of equal versions too), a removal leaves its room out,
    /// and the records are copied byte for byte. The journal is emptied and a start reads the same rooms.
    @Test func aCompactionKeepsEachRoomsNewestRecordFromTheFiles() throws {
        let directory = try Self.dataDirectory(with: [])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var snapshot = RecordFile.header
        var journal = RecordFile.header
        for (code, version) in [("QHTW", 4), ("BBBB", 1), ("CCCC", 2), ("DDDD", 3)] {
            snapshot += RecordFile.frame(try Self.entry(code, version: version).payload)
        }
        for (code, version) in [("QHTW", 5), ("QHTW", 6), ("CCCC", 1), ("EEEE", 1)] {
            journal += RecordFile.frame(try Self.entry(code, version: version).payload)
        }
        journal += RecordFile.frame(JournalEntry(code: "BBBB", version: 2, room: nil).payload)
        var sameVersion = try Self.entry("DDDD", version: 3)
        sameVersion.room?.seq = 35
        journal += RecordFile.frame(sameVersion.payload)
        // A torn record at the end (a write cut short) is left out like on start.
        journal += Array(RecordFile.frame(try Self.entry("FFFF", version: 1).payload).dropLast(3))
        try Data(snapshot).write(to: URL(fileURLWithPath: directory + "/rooms.snapshot"))
        try Data(journal).write(to: URL(fileURLWithPath: directory + "/rooms.journal"))

        let opened = try RoomJournal(directory: directory, log: { _ in })
        opened.compactFromFiles()
        let written = try Self.snapshotAfterEmptiedJournal(in: directory)
        let entries = try written.records.map { try JournalEntry(payload: $0) }
        #expect(entries.map { "\($0.code) \($0.version)" }.sorted() == ["CCCC 2", "DDDD 3", "EEEE 1", "QHTW 6"])
        #expect(entries.first { $0.code == "DDDD" }?.room?.seq == 35, "the journal's of equal versions")
        #expect(Set(written.records) == Set([try Self.entry("CCCC", version: 2).payload, sameVersion.payload,
                                             try Self.entry("EEEE", version: 1).payload,
                                             try Self.entry("QHTW", version: 6).payload]))
        opened.stop()
        let again = try RoomJournal(directory: directory, log: { Issue.record("logged: \($0)") })
        defer { again.stop() }
        #expect(again.load().map(\.code) == ["CCCC", "DDDD", "EEEE", "QHTW"])
    }

    @Test func removalsAreToldFromTheEndOfTheirPayload() throws {
        let removal = JournalEntry(code: "BBBB", version: 2, room: nil).payload
        let room = try Self.entry("BBBB", version: 3).payload
        #expect(removal.withUnsafeBufferPointer { JournalEntry.isRemoval($0) })
        #expect(!room.withUnsafeBufferPointer { JournalEntry.isRemoval($0) })
    }

    /// Without records in the journal (the last stop was graceful and nothing changed after its snapshot), the
    /// snapshot is left as it is.
    @Test func aRestartAfterACleanStopLeavesTheSnapshotAlone() throws {
        let directory = try Self.dataDirectory(with: ["rooms.snapshot"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let before = try Data(contentsOf: URL(fileURLWithPath: directory + "/rooms.snapshot"))
        let journal = try RoomJournal(directory: directory, log: { Issue.record("logged: \($0)") })
        #expect(journal.loadForRestore().count == 2)
        journal.stop()
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/rooms.snapshot")) == before)
    }

    /// A restored room holds what its record on disk says (everyone shown away): it is written again only once
    /// it changes, not with the first flush after the restart, when every room came back at once.
    @Test func aRestoredRoomIsWrittenAgainOnlyOnceItChanges() async throws {
        let directory = try Self.dataDirectory(with: ["rooms.snapshot"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try RoomJournal(directory: directory, log: { Issue.record("logged: \($0)") })
        let registry = RoomRegistry(lists: RoomTests.lists, seed: 5, journal: journal, clock: { 1_764_600_010 })
        #expect(await registry.restoreSavedRooms(log: { Issue.record("logged: \($0)") }) == 2)
        let room = try #require(await registry.room(RoomCode("TDGH")!))
        await room.settled()
        let tokens = try Self.expected()["TDGH"]?["tokens"]?.arrayValue ?? []
        let token = try #require(tokens.first?.stringValue.flatMap(ResumeToken.init))
        let ana = MemoryLink()
        room.join(ana, name: nil, token: token, lastSeq: nil, spectator: false)
        room.receive(.chat("back again"), from: ana.id)
        await room.settled()
        // The stop's flush writes every room still waiting for a record: only the one that changed.
        journal.stop()
        let records = RecordFile.parse(Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/rooms.journal"))),
                                       name: "rooms.journal").records
        // Only the room that changed: twice when the journal's periodic flush fell between the resume and the
        // chat line (a loaded machine), once otherwise.
        let codes = try records.map { try JournalEntry(payload: $0).code }
        #expect(!codes.isEmpty && codes.allSatisfy { $0 == "TDGH" }, "\(codes)")
        #expect(try JournalEntry(payload: try #require(records.last)).room?.chat.last?.text == "back again")
    }

    /// A snapshot holds each room's latest change: the next flush (here, the stop's) writes only the rooms that
    /// changed after it, not every room that changed before it a second time.
    @Test func aSnapshotTakesItsRoomsOffTheNextFlush() async throws {
        let directory = try Self.dataDirectory(with: [])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let journal = try RoomJournal(directory: directory, log: { Issue.record("logged: \($0)") })
        let registry = RoomRegistry(lists: RoomTests.lists, seed: 5, journal: journal, clock: { 1_764_600_010 })
        let host = MemoryLink()
        let quiet = try await registry.create(.snowman, isPublic: true, settings: [:], creator: host, name: "Ana")
        let other = MemoryLink()
        let busy = try await registry.create(.snowman, isPublic: true, settings: [:], creator: other, name: "Bob")
        await quiet.settled()
        await busy.settled()
        journal.writeSnapshot(of: [quiet, busy])
        busy.receive(.chat("after the snapshot"), from: other.id)
        await busy.settled()
        journal.stop()
        let records = RecordFile.parse(Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/rooms.journal"))),
                                       name: "rooms.journal").records
        #expect(try records.map { try JournalEntry(payload: $0).code } == [busy.code.rawValue])
    }

    /// The snapshot's records, after checking that the journal holds nothing but its header and that the
    /// snapshot reads without a problem.
    private static func snapshotAfterEmptiedJournal(in directory: String,
                                                    sourceLocation: SourceLocation = #_sourceLocation) throws
        -> RecordFile.Contents
    {
        let journalBytes = try Data(contentsOf: URL(fileURLWithPath: directory + "/rooms.journal"))
        #expect(Array(journalBytes) == RecordFile.header, sourceLocation: sourceLocation)
        let written = RecordFile.parse(Array(try Data(contentsOf: URL(fileURLWithPath: directory + "/rooms.snapshot"))),
                                       name: "rooms.snapshot")
        #expect(written.problem == nil, sourceLocation: sourceLocation)
        return written
    }

    /// A record of `code` at `version`, its seq ten times the version.
    static func entry(_ code: String, version: Int) throws -> JournalEntry {
        var record = try RoomRecord(saved: Self.minimalRecord, format: JournalEntry.format)
        record.code = code
        record.seq = version * 10
        return JournalEntry(code: code, version: version, room: record)
    }

    /// Few changed rooms are all written at every flush; under load a room waits `busyRoomSeconds` between
    /// records, and the last flush at a stop writes every one.
    @Test func underLoadARoomIsWrittenAtMostOnceAnInterval() throws {
        let few = try (0..<RoomJournal.promptRooms).map { try #require(RoomCode(Self.code($0))) }
        let written = Dictionary(uniqueKeysWithValues: few.map { ($0, 10.0) })
        #expect(Set(RoomJournal.due(few, written: written, now: 10.1, waiting: false)) == Set(few))
        let many = try (0..<(RoomJournal.promptRooms + 36)).map { try #require(RoomCode(Self.code($0))) }
        // Half were written 0.1 s ago, the others more than the interval ago or never.
        var recent: [RoomCode: Double] = [:]
        for (index, code) in many.enumerated() {
            if index % 2 == 0 { recent[code] = 10.0 } else if index % 4 == 1 { recent[code] = 10.1 - RoomJournal.busyRoomSeconds }
        }
        let due = Set(RoomJournal.due(many, written: recent, now: 10.1, waiting: false))
        #expect(due == Set(many.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)))
        #expect(Set(RoomJournal.due(many, written: recent, now: 10.1, waiting: true)) == Set(many))
        #expect(Set(RoomJournal.due(many, written: recent, now: 10.0 + RoomJournal.busyRoomSeconds, waiting: false)) == Set(many))
    }

    /// A valid room code for `index`: four letters from the code alphabet.
    static func code(_ index: Int) -> String {
        let letters = Array("BCDFGHJKMNPQRSTVWXYZ")
        return String([letters[index / 400 % 20], letters[index / 20 % 20], letters[index % 20], "A"].map { $0 })
    }

    /// A record of this version of a Snowman room nobody is in.
    static var minimalRecord: JSONValue {
        var random = SplitMix64(seed: 1)
        let game = SnowmanRoomGame(game: SnowmanGame(words: RoomTests.lists.secrets, now: 0, using: &random))
        return RoomRecord(code: "QHTW", isPublic: true, game: "snowman", snapshot: game.snapshot, members: [],
                          host: nil, chat: [], chatCounter: 0, memberCounter: 0, bans: [], banCounter: 0,
                          locked: false, random: random, seq: 1, state: ["code": "QHTW"], version: 1).json
    }
}
