import JSON
import Testing
@testable import Bots

@Suite struct AvalancheReplicaPoolTests {
    private let welcome: JSONValue = ["chat": [], "turn": "p1"]
    private let patchA = Array(#"{"type":"patch","seq":5,"ops":[{"op":"replace","path":"/turn","value":"p2"}]}"#.utf8)
    private let patchB = Array(#"{"type":"patch","seq":5,"ops":[{"op":"replace","path":"/turn","value":"p3"}]}"#.utf8)

    @Test func equalWholeStatesAtTheSameSeqAreOneVersion() {
        var pool = AvalancheReplicaPool()
        let first = pool.given(welcome, seq: 4)
        let second = pool.given(["turn": "p1", "chat": []], seq: 4)
        #expect(second.id == first.id)
        #expect(pool.given(welcome, seq: 3).id != first.id, "another seq is another version")
        #expect(pool.given(["chat": [], "turn": "p9"], seq: 4).id != first.id, "another state is another version")
    }

    @Test func aPatchAppliedToAVersionIsSharedOnlyForTheSameVersionAndBytes() {
        var pool = AvalancheReplicaPool()
        let base = pool.given(welcome, seq: 4)
        let stale = pool.given(["chat": [["text": "lost"]], "turn": "p1"], seq: 4)
        let after: JSONValue = ["chat": [], "turn": "p2"]
        let id = pool.record(patched: after, seq: 5, from: base.id, patch: patchA)
        let shared = pool.patched(from: base.id, seq: 5, patch: patchA)
        #expect(shared?.id == id)
        #expect(shared?.state == after)
        #expect(pool.patched(from: base.id, seq: 5, patch: patchB) == nil, "other bytes: computed anew")
        #expect(pool.patched(from: stale.id, seq: 5, patch: patchA) == nil, "a bot whose state went another way computes its own")
        #expect(pool.patched(from: base.id, seq: 6, patch: patchA) == nil)
    }

    @Test func onlyTheNewestVersionsAreKept() {
        var pool = AvalancheReplicaPool()
        let oldest = pool.given(welcome, seq: 1)
        for seq in 2...(AvalancheReplicaPool.capacity + 1) { _ = pool.given(welcome, seq: seq) }
        #expect(pool.given(welcome, seq: 1).id != oldest.id, "forgotten, then given a new id")
    }
}
