import JSON
import Testing
@testable import Bots

@Suite struct AvalancheRoomCheckTests {
    /// A bot's replica rebuilt from a welcome and one patch, and the server's snapshot at the same seq.
    private func replica(applying operations: JSONValue) throws -> RoomReplica {
        var replica = RoomReplica()
        _ = replica.welcome(seq: 4, state: ["chat": [], "turn": "p1"])
        let patch = try JSONPatch(json: operations)
        #expect(replica.patch(seq: 5, operations: patch) == .applied)
        return replica
    }

    private let snapshot: JSONValue = ["chat": [["text": "hi"]], "turn": "p2"]

    @Test func aReplicaEqualToTheSnapshotMatches() throws {
        var bot = try replica(applying: [["op": "add", "path": "/chat/0", "value": ["text": "hi"]],
                                         ["op": "replace", "path": "/turn", "value": "p2"]])
        let matched = bot.snapshot(seq: 5, state: snapshot)
        #expect(matched)
    }

    @Test func aReplicaThatMissedAChangeDiffers() throws {
        // The resume replayed nothing where the server had a change: the turn never moved.
        var bot = try replica(applying: [["op": "add", "path": "/chat/0", "value": ["text": "hi"]]])
        let matched = bot.snapshot(seq: 5, state: snapshot)
        #expect(!matched)
    }

    @Test func aRoomDiffersWhenOneOfItsBotsDiffers() {
        var check = AvalancheRoomCheck()
        for room in 0..<3 {
            for bot in 0..<8 { check.record(room: room, matched: !(room == 1 && bot == 5)) }
        }
        #expect(check.checked == 3)
        #expect(check.mismatched == 1)
        #expect(check.mismatchedRooms == [1])
    }

    @Test func mergingKeepsADifferenceFromEitherSide() {
        var first = AvalancheRoomCheck()
        first.record(room: 7, matched: true)
        first.record(room: 8, matched: true)
        var second = AvalancheRoomCheck()
        second.record(room: 7, matched: false)
        second.record(room: 9, matched: true)
        first.merge(second)
        #expect(first.checked == 3)
        #expect(first.mismatchedRooms == [7])
    }
}
