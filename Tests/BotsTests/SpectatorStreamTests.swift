import JSON
import Testing
@testable import Bots

/// Spectators share one replica per room: the first reading of each seq is applied in order, later readings
/// must be the same bytes.
@Suite struct SpectatorStreamTests {
    private func patch(_ seq: Int, _ value: Int, bytes: String? = nil) throws -> DecodedPatch {
        let operations = JSONPatch([.replace(path: try JSONPointer("/n"), value: JSONValue(value))])
        return DecodedPatch(bytes: Array((bytes ?? "patch \(seq)").utf8), seq: seq, operations: operations)
    }

    @Test func readingsAreAppliedOnceInOrderAndCompared() throws {
        var stream = SpectatorStream()
        stream.welcome(seq: 1, state: ["n": 0])
        // Seq 3 arrives (from one spectator) before seq 2 (from another): it waits for 2.
        #expect(stream.read(try patch(3, 3), seq: 3) == nil)
        #expect(stream.read(try patch(2, 2), seq: 2) == nil)
        // Later readings of the same seqs with the same bytes are fine; different bytes are not.
        #expect(stream.read(try patch(2, 2), seq: 2) == nil)
        #expect(stream.read(try patch(3, 3, bytes: "something else"), seq: 3) == .differentBytes)
    }

    @Test func aPatchThatDoesNotApplyIsReportedOnce() throws {
        var stream = SpectatorStream()
        stream.welcome(seq: 1, state: ["m": 0])   // no "/n" to replace
        #expect(stream.read(try patch(2, 2), seq: 2) == .patchFailed)
        #expect(stream.read(try patch(3, 3), seq: 3) == nil, "no longer applied after a failure")
    }

    @Test func followChecksOnlyTheSequence() {
        var replica = RoomReplica()
        _ = replica.welcome(seq: 4, state: ["n": 0])
        #expect(replica.follow(seq: 5, valid: true) == .applied)
        #expect(replica.seq == 5)
        #expect(replica.state == ["n": 0], "the state is not touched")
        #expect(replica.follow(seq: 7, valid: true) == .sendResync(.seqGap))
        #expect(replica.follow(seq: 8, valid: true) == .skipped, "until the snapshot")
    }
}
