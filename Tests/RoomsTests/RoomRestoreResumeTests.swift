import Foundation
import JSON
import Testing
@testable import Rooms
import RoomsTestSupport

/// Resuming into a room restored from the data directory: the seq a client names comes from the old process.
/// Only the saved seq is known to mean the same state in the new one; any other (a change the old process sent
/// after its last save, lost in a crash or sent during a graceful stop) gets the whole state, never patches
/// numbered from the same seqs but describing other changes.
@Suite struct RoomRestoreResumeTests {
    private struct Restored {
        let directory: String
        let journal: RoomJournal
        let room: Room
        let savedSeq: Int
        let tokens: [ResumeToken]

        /// Stops the journal and removes the data directory.
        func discard() {
            journal.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// The fixture's Snowman room, restored: everyone away, the room at the saved seq + 1.
    private func restoredSnowman() async throws -> Restored {
        let directory = try RoomJournalTests.dataDirectory(with: ["rooms.snapshot"])
        let journal = try RoomJournal(directory: directory, log: { Issue.record("logged: \($0)") })
        let registry = RoomRegistry(lists: RoomTests.lists, seed: 5, journal: journal, clock: { 1_764_600_010 })
        #expect(await registry.restoreSavedRooms(log: { Issue.record("logged: \($0)") }) == 2)
        let saved = try #require(try RoomJournalTests.expected()["TDGH"])
        let room = try #require(await registry.room(RoomCode("TDGH")!))
        await room.settled()
        let tokens = (saved["tokens"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(ResumeToken.init) }
        return Restored(directory: directory, journal: journal, room: room,
                        savedSeq: try #require(saved["seq"]?.intValue), tokens: tokens)
    }

    private func welcome(_ messages: [JSONValue], sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
        try #require(messages.first { $0["type"]?.stringValue == "welcome" }, sourceLocation: sourceLocation)
    }

    @Test func aSeqTheOldProcessSentAfterItsSaveGetsTheWholeState() async throws {
        let restored = try await restoredSnowman()
        defer { restored.discard() }
        let room = restored.room
        // Ana comes back from the saved seq: the one patch she missed is replayed.
        let ana = MemoryLink()
        room.join(ana, name: nil, token: restored.tokens[0], lastSeq: restored.savedSeq, spectator: false)
        await room.settled()
        #expect(try welcome(ana.drain())["resumed"]?.boolValue == true)
        // Ana chats: the room is now at a seq the old process may also have sent, for another change.
        room.receive(.chat("back again"), from: ana.id)
        await room.settled()
        let (seq, state) = await room.snapshot()
        #expect(seq == restored.savedSeq + 3)
        // Bob's client saw the old process's seq `seq` before the restart: its state is not this one.
        let bob = MemoryLink()
        room.join(bob, name: nil, token: restored.tokens[1], lastSeq: seq, spectator: false)
        await room.settled()
        let bobs = try welcome(bob.drain())
        #expect(bobs["resumed"] == nil)
        #expect(bobs["state"] == state)
        #expect(bobs["seq"]?.intValue == seq)
    }

    @Test func aMemberBackInThisProcessResumesWithPatchesAgain() async throws {
        let restored = try await restoredSnowman()
        defer { restored.discard() }
        let room = restored.room
        // Ana's seq is not the saved one: the whole state.
        let ana = MemoryLink()
        room.join(ana, name: nil, token: restored.tokens[0], lastSeq: restored.savedSeq + 1, spectator: false)
        await room.settled()
        let first = try welcome(ana.drain())
        #expect(first["resumed"] == nil)
        let seq = try #require(first["seq"]?.intValue)
        // Dropped again in this process, she resumes from a seq this process sent: patches.
        room.disconnected(ana.id)
        await room.settled()
        let again = MemoryLink()
        room.join(again, name: nil, token: restored.tokens[0], lastSeq: seq, spectator: false)
        await room.settled()
        var view = ClientView(state: first["state"]!, seq: seq)
        let messages = again.drain()
        #expect(try welcome(messages)["resumed"]?.boolValue == true)
        try view.apply(messages)
        #expect(view.gaps == 0)
        #expect(view.state == (await room.snapshot()).state)
    }

    /// Records of format 3 leave the state out: the restored room rebuilds the state at the saved seq from the
    /// record. Each client that saw that seq must resume with patches and end on the restored room's state, in
    /// both games, with a game in play, chat, a finished round and a member already away at the save.
    @Test(arguments: [GameKind.snowman, .scramble])
    func aRoomSavedWithoutItsStateComesBackExactlyAsItsClientsSawIt(kind: GameKind) async throws {
        let settings: JSONObject = kind == .scramble ? PartyRoomTests.quickScramble : [:]
        var fixture = try await RoomTests.Fixture(kind, settings: settings)
        let bob = fixture.join("Bob")
        let cleo = fixture.join("Cleo", spectator: true)
        let dan = fixture.join("Dan")
        let everyone = [fixture.host, bob, cleo, dan]
        try await fixture.sync(everyone)
        fixture.room.receive(.chat("hello"), from: bob.id)
        if kind == .snowman {
            for letter in "ETAOINSR" {
                let turn = fixture.views[fixture.host.id]!.state["snowman"]?["turn"]?.stringValue
                fixture.room.receive(.guess(String(letter)), from: turn == "p1" ? fixture.host.id : bob.id)
                try await fixture.sync(everyone)
            }
        } else {
            fixture.room.receive(.newGame, from: fixture.host.id)
            try await fixture.sync(everyone)
            for (index, word) in try PartyRoomTests.words(in: fixture.views[bob.id]!.state).prefix(4).enumerated() {
                fixture.room.receive(.word(word), from: index % 2 == 0 ? bob.id : fixture.host.id)
            }
            try await fixture.sync(everyone)
            // A finished round and the next begun: its summary and the scores are in the state too.
            await fixture.timers.advance(by: 31) { await fixture.room.settled() }
            await fixture.timers.advance(by: 6) { await fixture.room.settled() }
            fixture.room.receive(.word(try PartyRoomTests.words(in: fixture.views[bob.id]!.state)[0]), from: bob.id)
        }
        fixture.room.disconnected(dan.id)
        // Taken with a chat line not yet published: the record's state is the state after it.
        fixture.room.receive(.chat("last words"), from: fixture.host.id)
        let entry = await fixture.room.journalEntry()
        try await fixture.sync(everyone)
        let (savedSeq, savedState) = await fixture.room.snapshot()
        let room = try #require(entry.room)
        #expect(room.state == nil && room.seq == savedSeq)
        #expect(Set(room.connected ?? []) == Set([fixture.host, bob, cleo].compactMap { fixture.views[$0.id]?.you }))
        #expect(fixture.views[fixture.host.id]?.state == savedState)
        #expect(!String(decoding: entry.payload, as: UTF8.self).contains(#""state":"#))

        let directory = try RoomJournalTests.dataDirectory(with: [])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Saved as the room's 40th record (a room long in play, or restored before).
        var saved = room
        saved.version = 40
        try Data(RecordFile.header + RecordFile.frame(JournalEntry(code: entry.code, version: 40, room: saved).payload))
            .write(to: URL(fileURLWithPath: directory + "/rooms.snapshot"))
        let journal = try RoomJournal(directory: directory, log: { Issue.record("logged: \($0)") })
        defer { journal.stop() }
        let clock = fixture.timers.clock
        let registry = RoomRegistry(lists: RoomTests.lists, seed: 9, journal: journal, clock: clock)
        #expect(await registry.restoreSavedRooms(log: { Issue.record("logged: \($0)") }) == 1)
        let restored = try #require(await registry.room(fixture.room.code))
        await restored.settled()
        // Its next record outranks the one it came from, which the data directory still holds.
        // (It may have written one since: the journal flushes on a real-time timer.)
        #expect(await restored.persistedVersion >= 40)
        for (link, index) in [(fixture.host, 0), (bob, 1), (cleo, 2)] {
            let token = try #require(fixture.views[link.id]?.token.flatMap(ResumeToken.init))
            let back = MemoryLink()
            restored.join(back, name: nil, token: token, lastSeq: savedSeq, spectator: index == 2)
            await restored.settled()
            let messages = back.drain()
            let welcome = try #require(messages.first { $0["type"]?.stringValue == "welcome" })
            #expect(welcome["resumed"]?.boolValue == true, "patches from the saved seq, not the whole state")
            var view = ClientView(state: savedState, seq: savedSeq)
            try view.apply(messages)
            #expect(view.gaps == 0)
            #expect(view.state == (await restored.snapshot()).state)
        }
    }
}
