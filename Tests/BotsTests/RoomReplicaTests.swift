import JSON
import Testing
@testable import Bots

@Suite struct RoomReplicaTests {
    /// A small room state: one member and a Snowman game with no guesses.
    private let initial: JSONValue = ["code": "QHTW", "members": [["id": "p1", "connected": true]],
                                      "snowman": ["guesses": [], "turn": "p1"]]
    /// The patch that adds guess E by p1 (seq 8).
    private let addGuess: JSONValue = [["op": "add", "path": "/snowman/guesses/0", "value": ["letter": "E", "player": "p1"]]]

    private func decoded(_ ops: JSONValue) -> JSONPatch? {
        try? JSONPatch(json: ops)
    }

    private func welcomed(seq: Int = 7) -> RoomReplica {
        var replica = RoomReplica()
        _ = replica.welcome(seq: seq, state: initial)
        return replica
    }

    @Test func appliesTheNextPatch() {
        var replica = welcomed()
        #expect(replica.patch(seq: 8, operations: decoded(addGuess)) == .applied)
        #expect(replica.seq == 8)
        #expect(replica.state["snowman"]?["guesses"]?[0]?["letter"] == "E")
    }

    @Test(arguments: [9, 7, 100])
    func aPatchThatIsNotNextIsAGapAndAsksForResync(seq: Int) {
        var replica = welcomed()
        #expect(replica.patch(seq: seq, operations: decoded(addGuess)) == .sendResync(.seqGap))
        #expect(replica.awaitingSnapshot)
        #expect(replica.seq == 7)
        #expect(replica.state == initial)
    }

    @Test func patchesWhileAwaitingTheSnapshotAreSkippedThenTheSnapshotRecovers() {
        var replica = welcomed()
        _ = replica.patch(seq: 10, operations: decoded(addGuess))
        #expect(replica.patch(seq: 11, operations: decoded([])) == .skipped)
        let fresh: JSONValue = ["code": "QHTW", "snowman": ["guesses": []]]
        let matched = replica.snapshot(seq: 11, state: fresh)
        #expect(!matched, "not a match: the replica was behind")
        #expect(!replica.awaitingSnapshot)
        #expect(replica.patch(seq: 12, operations: decoded([])) == .applied)
        #expect(replica.seq == 12)
    }

    @Test func aPatchThatDoesNotApplyAsksForResync() {
        var replica = welcomed()
        let bad: JSONValue = [["op": "remove", "path": "/nowhere"]]
        #expect(replica.patch(seq: 8, operations: decoded(bad)) == .sendResync(.patchFailed))
        #expect(replica.state == initial)
    }

    @Test func aPatchWithoutSeqOrOpsIsMalformed() {
        var replica = welcomed()
        #expect(replica.patch(seq: nil, operations: decoded(addGuess)) == .sendResync(.badPatch))
        var other = welcomed()
        #expect(other.patch(seq: 8, operations: nil) == .sendResync(.badPatch))
        var third = welcomed()
        let notAPatch: JSONValue = ["op": "add"]  // an object, not an array of operations
        #expect(third.patch(seq: 8, operations: decoded(notAPatch)) == .sendResync(.badPatch))
    }

    @Test func snapshotMatchesTheRebuiltStateAtTheSameSeq() {
        var replica = welcomed()
        _ = replica.patch(seq: 8, operations: decoded(addGuess))
        let expected = replica.state
        let matched = replica.snapshot(seq: 8, state: expected)
        #expect(matched)
        var other = welcomed()
        _ = other.patch(seq: 8, operations: decoded(addGuess))
        let otherSeq = other.snapshot(seq: 9, state: expected)
        #expect(!otherSeq, "same state, other seq")
        var third = welcomed()
        let otherState = third.snapshot(seq: 7, state: ["code": "QHTW"])
        #expect(!otherState, "same seq, other state")
    }

    @Test func resumedWelcomeKeepsTheStateAndMustNameOurSeq() {
        var replica = welcomed()
        let ours = replica.welcome(seq: 7, state: nil)
        #expect(ours)
        #expect(replica.state == initial)
        let other = replica.welcome(seq: 6, state: nil)
        #expect(!other)
    }
}
