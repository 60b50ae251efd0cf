import JSON
import Testing
@testable import Bots

/// A room's bots share its states by seq: the first reading of each seq applies it to the state before, later
/// readings must be the same bytes, and every bot sees the state at its own seq.
@Suite struct RoomStatesTests {
    private func patch(_ seq: Int, _ value: Int, bytes: String? = nil) throws -> DecodedPatch {
        let operations = JSONPatch([.replace(path: try JSONPointer("/n"), value: JSONValue(value))])
        return DecodedPatch(bytes: Array((bytes ?? "patch \(seq)").utf8), seq: seq, operations: operations)
    }

    @Test func eachSeqIsAppliedOnceAndEveryReaderSeesItsOwnSeq() throws {
        var states = RoomStates()
        #expect(states.given(["n": 0], at: 1) == nil)
        // One bot reads ahead to seq 3 while another is still at seq 1.
        #expect(states.read(try patch(2, 2), seq: 2) == nil)
        #expect(states.read(try patch(3, 3), seq: 3) == nil)
        #expect(states.state(at: 1) == ["n": 0], "an older state is untouched by later patches")
        #expect(states.state(at: 2) == ["n": 2])
        #expect(states.state(at: 3) == ["n": 3])
        #expect(states.newest == 3)
        // The lagging bot reads the same bytes: nothing applied again; different bytes are reported.
        #expect(states.read(try patch(2, 2), seq: 2) == nil)
        #expect(states.read(try patch(3, 99, bytes: "something else"), seq: 3) == .differentBytes)
        #expect(states.state(at: 3) == ["n": 3])
    }

    @Test func aWelcomeMustMatchTheStateThePatchesBuilt() throws {
        var states = RoomStates()
        _ = states.given(["n": 0], at: 1)
        _ = states.read(try patch(2, 2), seq: 2)
        #expect(states.given(["n": 2], at: 2) == nil)
        #expect(states.given(["n": 5], at: 2) == .differentState)
        // A joiner welcomed at a seq nobody read yet seeds it; the first reader of the next seq builds on it.
        #expect(states.given(["n": 7], at: 4) == nil)
        #expect(states.read(try patch(5, 5), seq: 5) == nil)
        #expect(states.state(at: 5) == ["n": 5])
    }

    @Test func aPatchThatDoesNotApplyIsReportedAndLeavesNoState() throws {
        var states = RoomStates()
        _ = states.given(["m": 0], at: 1)   // no "/n" to replace
        #expect(states.read(try patch(2, 2), seq: 2) == .patchFailed)
        #expect(states.state(at: 2) == nil)
        // A snapshot of seq 2 seeds it, and patches apply from there.
        #expect(states.given(["n": 0], at: 2) == nil)
        #expect(states.read(try patch(3, 3), seq: 3) == nil)
        #expect(states.state(at: 3) == ["n": 3])
    }

    @Test func onlyAWindowOfStatesIsKept() throws {
        var states = RoomStates()
        _ = states.given(["n": 0], at: 1)
        for seq in 2...(RoomStates.window + 10) {
            #expect(states.read(try patch(seq, seq), seq: seq) == nil)
        }
        #expect(states.state(at: 1) == nil, "forgotten")
        #expect(states.state(near: 1) == ["n": JSONValue(RoomStates.window + 10)], "the newest stands in")
        // A late welcome for a forgotten seq does not evict a newer state.
        #expect(states.given(["n": -1], at: 5) == nil)
        #expect(states.state(at: 5) == nil)
        #expect(states.state(at: RoomStates.window + 5) == ["n": JSONValue(RoomStates.window + 5)])
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
