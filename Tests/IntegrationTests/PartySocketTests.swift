import Foundation
import JSON
import Rooms
import Testing
import WordGames
@testable import WordRoomsServer

/// The party round over real sockets: reactions reach the others outside the state (and outside the compressed
/// stream), their rate limit answers with an error, renames and seat moves arrive as patches, and Word Scramble's
/// Ready ends a break.
@Suite struct PartySocketTests {
    @Test func reactionsRenamesAndSeatsReachTheOtherPlayer() async throws {
        // The clock stands still: the rate limit's ten seconds cannot run out while the test sends.
        let clock = TestClock(start: 1_800_000_000)
        try await withServer(clock: { clock.now }) { server in
            let ana = try GameClient.create(port: server.port, game: "snowman", name: "Ana")
            let code = try #require(ana.code)
            let bob = try GameClient.join(port: server.port, code: code, name: "Bob")
            try ana.waitForSeq(bob.seq)
            #expect(ana.state["status"]?.stringValue == "playing")
            #expect(ana.state["chat"]?[0]?["notice"]?.stringValue == "join")

            let seq = ana.seq
            try bob.send(["type": "react", "emoji": "🎉"])
            let seen = try ana.receive { $0["type"]?.stringValue == "reaction" }
            #expect(seen == ["type": "reaction", "player": "p2", "emoji": "🎉"])
            #expect(ana.seq == seq, "a reaction has no seq and changes no state")
            let own = try bob.receive { $0["type"]?.stringValue == "reaction" }
            #expect(own["player"]?.stringValue == "p2", "the sender gets it too")

            for _ in 0..<4 { try bob.send(["type": "react", "emoji": "👍"]) }
            try bob.send(["type": "react", "emoji": "👍"])
            let refused = try bob.waitForError()
            #expect(refused["code"]?.stringValue == "too-many-reactions")
            #expect(refused["move"]?.stringValue == "react")
            try bob.send(["type": "react", "emoji": "🍕"])
            #expect(try bob.waitForError()["code"]?.stringValue == "bad-reaction")

            try bob.send(["type": "rename", "name": "Bobby"])
            _ = try ana.receive { _ in ana.state["members"]?[1]?["name"]?.stringValue == "Bobby" }
            let line = try #require(ana.state["chat"]?.arrayValue?.last)
            #expect(line["notice"]?.stringValue == "rename")
            #expect(line["text"]?.stringValue == "Bob is now Bobby")

            try ana.send(["type": "seat", "role": "spectator", "player": "p2"])
            _ = try bob.receive { _ in bob.state["members"]?[1]?["role"]?.stringValue == "spectator" }
            #expect(bob.state["chat"]?.arrayValue?.last?["text"]?.stringValue == "Bobby is now watching")
            try ana.waitForSeq(bob.seq)
            // Everything that came as patches adds up to the room's state: the reactions were never part of it.
            let (snapshotSeq, snapshot) = try ana.freshSnapshot()
            #expect(snapshotSeq == ana.seq)
            #expect(snapshot == ana.state)
            #expect(ana.gaps == 0 && bob.gaps == 0)
        }
    }

    @Test func aReactionReachesACompressingClientPlain() async throws {
        try await withServer { server in
            let ana = try GameClient.create(port: server.port, game: "snowman", name: "Ana")
            let code = try #require(ana.code)
            let bob = try DeflateRoomClient(label: "bob", port: server.port, mode: .deflate(inflaterBits: 11,
                                                                                          deflaterBits: 15))
            try bob.join(["type": "join", "code": JSONValue(code), "name": "Bob"])
            // A chat line: the room's stream starts, compressed, for Bob.
            try ana.send(["type": "chat", "text": "hello"])
            try bob.wait(for: "the chat patch") { bob.compressedMessages == 1 }
            let (compressed, plain, seq) = (bob.compressedMessages, bob.plainMessages, bob.seq)
            try ana.send(["type": "react", "emoji": "❤️"])
            // DeflateRoomClient refuses any compressed message that is not a patch.
            try bob.wait(for: "the reaction") { bob.plainMessages > plain }
            #expect(bob.compressedMessages == compressed)
            #expect(bob.seq == seq)
            // The stream goes on after it.
            try ana.send(["type": "chat", "text": "again"])
            try bob.wait(for: "the next chat patch") { bob.compressedMessages == compressed + 1 }
            #expect(bob.state["chat"]?.arrayValue?.last?["text"]?.stringValue == "again")
        }
    }

    @Test func readyFromEveryPlayerEndsTheBreakOverSockets() async throws {
        let clock = TestClock(start: 1_800_000_000)
        try await withServer(clock: { clock.now }) { server in
            let ana = try GameClient.create(port: server.port, game: "scramble", name: "Ana",
                                            settings: ["rounds": 3, "roundSeconds": 30, "breakSeconds": 60])
            let bob = try GameClient.join(port: server.port, code: try #require(ana.code), name: "Bob")
            try ana.waitForSeq(bob.seq)
            try ana.send(["type": "new_game"])
            _ = try bob.receive { _ in bob.scramble["phase"]?.stringValue == "playing" }
            clock.advance(31)
            waitFor { for room in await server.registry.allRooms() { room.tick() } }
            _ = try bob.receive { _ in bob.scramble["phase"]?.stringValue == "intermission" }
            #expect(bob.state["chat"]?.arrayValue?.last?["notice"]?.stringValue == "result")
            try bob.send(["type": "ready"])
            _ = try ana.receive { _ in ana.scramble["ready"] == ["p2"] }
            try ana.send(["type": "ready"])
            _ = try bob.receive { _ in bob.scramble["phase"]?.stringValue == "playing" }
            #expect(bob.scramble["round"]?.intValue == 2)
            #expect(bob.scramble["ready"] == [])
            #expect(bob.scramble["roundsPlayed"]?.arrayValue?.count == 1)
            try bob.send(["type": "ready"])
            #expect(try bob.waitForError()["code"]?.stringValue == "not-in-break")
        }
    }
}

/// A server shutting down saves its rooms, then closes every client; between the two no message may reach a room,
/// or a move the players saw played would be missing from the save.
@Suite struct StoppingServerTests {
    @Test func aMoveWhileTheServerStopsIsRefusedNotLost() async throws {
        try await withServer { server in
            let ana = try GameClient.create(port: server.port, game: "snowman", name: "Ana")
            let code = try #require(ana.code)
            let seq = ana.seq
            // What `shutdown` sets first, before it saves the rooms.
            server.application.rooms.stopping.store(true, ordering: .releasing)
            try ana.send(["type": "chat", "text": "one last line"])
            let refused = try ana.waitForError()
            #expect(refused["code"]?.stringValue == "server-stopping")
            #expect(refused["move"]?.stringValue == "chat")
            let peek = try GameClient(port: server.port)
            try peek.send(["type": "join", "code": JSONValue(code), "name": "Bob"])
            #expect(try peek.waitForError()["code"]?.stringValue == "server-stopping", "no new member after the save")
            // Pings still answer: the connection is alive, only the rooms are closed for business.
            try ana.send(["type": "ping", "id": 7])
            _ = try ana.receive { $0["type"]?.stringValue == "pong" }
            #expect(ana.seq == seq, "nothing reached the room")
            #expect(waitFor { await server.registry.allRooms().count } == 1, "the room is still there")
            let chat = waitFor { await server.registry.allRooms().first?.snapshot().state["chat"]?.arrayValue ?? [] }
            #expect(!chat.contains { $0["text"]?.stringValue == "one last line" })
        }
    }
}
