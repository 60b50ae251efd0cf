import Dispatch
import JSON
import Runtime
import Synchronization
import Testing
@testable import Rooms
import RoomsTestSupport

/// Messages are encoded once and put in the transport's form once, however many links send them.
@Suite struct ServerMessageTests {
    @Test func wireFormIsMadeOnceAndShared() {
        let message = ServerMessage(json: Array(#"{"type":"pong"}"#.utf8))
        var calls = 0
        let first = message.wireForm { json in
            calls += 1
            return [0x81, UInt8(json.count)] + json
        }
        let second = message.wireForm { _ in
            calls += 1
            return []
        }
        #expect(calls == 1)
        #expect(first == [0x81, 15] + Array(#"{"type":"pong"}"#.utf8))
        #expect(second == first)
    }

    @Test func threadsRacingToFrameGetEqualBytesAndLaterCallsTheStoredForm() {
        for _ in 0..<200 {
            let message = ServerMessage(json: [1, 2, 3])
            let encodings = Mutex<Int>(0)
            let forms = Mutex<[[UInt8]]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                let form = message.wireForm { json in
                    encodings.withLock { $0 += 1 }
                    return [0x81, UInt8(json.count)] + json
                }
                forms.withLock { $0.append(form) }
            }
            #expect(Set(forms.withLock { $0 }) == [[0x81, 3, 1, 2, 3]])
            #expect((1...8).contains(encodings.withLock { $0 }))
            // Once stored, nobody encodes again.
            #expect(message.wireForm { _ in [] } == [0x81, 3, 1, 2, 3])
        }
    }

    @Test func patchIsWrittenStraightFromTheOperations() throws {
        let patch = JSONPatch([.replace(path: JSONPointer(tokens: ["seq"]), value: 3)])
        let message = ServerMessage.patch(seq: 12, ops: patch)
        #expect(String(decoding: message.json, as: UTF8.self)
            == #"{"type":"patch","seq":12,"ops":[{"op":"replace","path":"/seq","value":3}]}"#)
    }

    @Test func aBroadcastHandsEveryMemberTheSameMessage() async throws {
        let registry = RoomRegistry(lists: RoomTests.lists, seed: 3, clock: { 1_000_000 }, timers: ManualTimers())
        let host = MemoryLink()
        let room = try await registry.create(.snowman, isPublic: false, settings: [:], creator: host, name: "Ana")
        let others = [MemoryLink(), MemoryLink(), MemoryLink()]
        for (index, link) in others.enumerated() {
            room.join(link, name: "P\(index)", token: nil, lastSeq: nil, spectator: index == 2)
        }
        await room.settled()
        for link in [host] + others { _ = link.drainMessages() }
        room.receive(.chat("hello"), from: host.id)
        await room.settled()
        let received = ([host] + others).map { $0.drainMessages() }
        #expect(received.allSatisfy { $0.count == 1 })
        let patch = try #require(received.first?.first)
        #expect(received.allSatisfy { $0.first === patch })
    }
}

/// A message with its state spliced in as written JSON is the message the writer would have made.
@Suite struct ServerMessageStateTests {
    @Test func theStateGoesInLastAsTheSameJSON() throws {
        let state: JSONValue = ["code": "QHTW", "chat": [["text": "héllo \"you\""]], "n": 3]
        let fields: JSONObject = ["type": "welcome", "seq": 7, "serverTime": 1.5]
        let spliced = ServerMessage.object(fields, state: JSONWriter().serialize(state))
        var whole = fields
        whole["state"] = state
        #expect(try JSONParser().parse(spliced.json) == .object(whole))
        #expect(spliced.json == ServerMessage.object(whole).json)
        let alone = ServerMessage.object([:], state: JSONWriter().serialize(state))
        #expect(try JSONParser().parse(alone.json) == ["state": state])
    }
}
