import JSON
import Testing
@testable import Bots

/// A room's bots share its state: the first reading of each seq applies it, later readings must be the same
/// bytes, and welcomes and snapshots must agree with what the patches built.
@Suite struct RoomStatesTests {
    private func patch(_ seq: Int, _ value: Int, bytes: String? = nil) throws -> DecodedPatch {
        let operations = JSONPatch([.replace(path: try JSONPointer("/n"), value: JSONValue(value))])
        return DecodedPatch(bytes: Array((bytes ?? "patch \(seq)").utf8), seq: seq, operations: operations)
    }

    @Test func eachSeqIsAppliedOnceAndLaterReadingsAreCompared() throws {
        var states = RoomStates()
        #expect(states.given(["n": 0], at: 1) == nil)
        // One bot reads ahead to seq 3 while another is still at seq 1.
        #expect(states.read(try patch(2, 2), seq: 2) == nil)
        #expect(states.read(try patch(3, 3), seq: 3) == nil)
        #expect(states.state == ["n": 3])
        #expect(states.seq == 3)
        // The lagging bot reads the same bytes: nothing is applied again; different bytes are reported.
        #expect(states.read(try patch(2, 2), seq: 2) == nil)
        #expect(states.read(try patch(3, 99, bytes: "something else"), seq: 3) == .differentBytes)
        #expect(states.state == ["n": 3])
    }

    @Test func aWelcomeMustMatchTheStateThePatchesBuilt() throws {
        var states = RoomStates()
        _ = states.given(["n": 0], at: 1)
        _ = states.read(try patch(2, 2), seq: 2)
        #expect(states.given(["n": 2], at: 2) == nil)
        #expect(states.given(["n": 5], at: 2) == .differentState)
        #expect(states.given(["n": 5], at: 1) == nil, "older than the state: nothing to compare with")
        // A joiner welcomed at a seq nobody read yet moves the state on; earlier members' readings of the
        // seqs in between are only compared, and the next seq applies to the joiner's state.
        #expect(states.given(["n": 7], at: 4) == nil)
        #expect(states.read(try patch(3, 3), seq: 3) == nil)
        #expect(states.state == ["n": 7])
        #expect(states.read(try patch(5, 5), seq: 5) == nil)
        #expect(states.state == ["n": 5])
    }

    @Test func aPatchThatDoesNotApplyIsReportedToEveryReaderUntilAStateIsGiven() throws {
        var states = RoomStates()
        _ = states.given(["m": 0], at: 1)   // no "/n" to replace
        #expect(states.read(try patch(2, 2), seq: 2) == .patchFailed)
        #expect(states.read(try patch(2, 2), seq: 2) == .patchFailed, "the next member too")
        #expect(states.state == .null)
        // A snapshot of seq 2 gives the state back, and patches apply from there.
        #expect(states.given(["n": 0], at: 2) == nil)
        #expect(states.read(try patch(3, 3), seq: 3) == nil)
        #expect(states.state == ["n": 3])
    }

    @Test func readingsFurtherBackThanTheWindowAreNotCompared() throws {
        var states = RoomStates()
        _ = states.given(["n": 0], at: 1)
        for seq in 2...(RoomStates.window + 10) {
            #expect(states.read(try patch(seq, seq), seq: seq) == nil)
        }
        #expect(states.read(try patch(2, 2, bytes: "forgotten"), seq: 2) == nil)
        #expect(states.read(try patch(RoomStates.window + 10, 0, bytes: "recent"), seq: RoomStates.window + 10)
                == .differentBytes)
    }

    @Test func followChecksOnlyTheSequence() {
        var replica = RoomReplica()
        replica.start(seq: 4)
        #expect(replica.follow(seq: 5, valid: true) == .applied)
        #expect(replica.seq == 5)
        #expect(replica.state == .null, "no state is kept")
        #expect(replica.follow(seq: 7, valid: true) == .sendResync(.seqGap))
        #expect(replica.follow(seq: 8, valid: true) == .skipped, "until the snapshot")
        replica.start(seq: 8)
        #expect(replica.follow(seq: 9, valid: true) == .applied)
    }
}
