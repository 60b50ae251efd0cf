import Testing
@testable import Rooms

@Suite struct PatchHistoryTests {
    /// A patch message whose JSON is `length` bytes, all the same capital letter for `seq`: no string of the
    /// packing's dictionary starts with one, so the history keeps `length` bytes for it.
    private func patch(_ seq: Int, length: Int) -> ServerMessage {
        ServerMessage(json: bytes(seq, length))
    }

    private func bytes(_ seq: Int, _ length: Int) -> [UInt8] {
        [UInt8](repeating: UInt8(ascii: "A") + UInt8(seq % 26), count: length)
    }

    private func kept(_ history: PatchHistory, after seq: Int, lastSeq: Int) -> [[UInt8]]? {
        history.messages(after: seq, lastSeq: lastSeq)?.map(\.json)
    }

    @Test func returnsExactlyTheMissedMessages() {
        var history = PatchHistory(capacity: 3)
        for seq in 1...5 { history.append(ServerMessage(json: [UInt8(seq)]), seq: seq) }
        #expect(kept(history, after: 2, lastSeq: 5) == [[3], [4], [5]])
        #expect(kept(history, after: 4, lastSeq: 5) == [[5]])
        #expect(kept(history, after: 5, lastSeq: 5) == [])
        #expect(kept(history, after: 1, lastSeq: 5) == nil)
        #expect(kept(history, after: 6, lastSeq: 5) == nil)
    }

    @Test func keepsNoMoreBytesThanItsLimit() {
        var history = PatchHistory(capacity: 256, byteLimit: 1_000)
        for seq in 1...40 {
            history.append(patch(seq, length: 100), seq: seq)
            #expect(history.byteCount <= 1_000)
        }
        // Ten patches of 100 bytes fit: 31...40.
        #expect(history.count == 10)
        #expect(history.firstSeq == 31)
        #expect(kept(history, after: 30, lastSeq: 40) == (31...40).map { bytes($0, 100) })
        #expect(kept(history, after: 29, lastSeq: 40) == nil, "patch 30 was dropped for the bytes")
    }

    /// Patches of uneven sizes wrap around the ring at every offset; each replay must still be its patch's bytes.
    @Test func replaysPatchesThatWrapAroundTheRing() {
        var history = PatchHistory(capacity: 256, byteLimit: 700)
        var lengths: [Int: Int] = [:]
        for seq in 1...300 {
            let length = 1 + (seq * 37) % 190
            lengths[seq] = length
            history.append(patch(seq, length: length), seq: seq)
            let first = history.firstSeq
            // Everything still kept comes back whole and in order, from the oldest kept on.
            let replay = kept(history, after: first - 1, lastSeq: seq)
            #expect(replay == (first...seq).map { bytes($0, lengths[$0]!) })
            #expect(history.byteCount <= 700)
            #expect(first == 1 || history.byteCount + lengths[first - 1]! > 700,
                    "the last patch dropped would have fitted")
        }
    }

    @Test func aPatchLargerThanTheLimitIsNotKeptAndEndsTheReplays() {
        var history = PatchHistory(capacity: 256, byteLimit: 500)
        history.append(patch(1, length: 100), seq: 1)
        history.append(patch(2, length: 100), seq: 2)
        history.append(patch(3, length: 501), seq: 3)
        #expect(history.count == 0)
        #expect(kept(history, after: 3, lastSeq: 3) == [])
        #expect(kept(history, after: 2, lastSeq: 3) == nil, "patch 3 cannot be replayed")
        history.append(patch(4, length: 50), seq: 4)
        #expect(kept(history, after: 3, lastSeq: 4) == [bytes(4, 50)])
        #expect(kept(history, after: 1, lastSeq: 4) == nil)
    }

    @Test func theCountBoundStillHoldsForSmallPatches() {
        var history = PatchHistory(capacity: 4, byteLimit: 1_000_000)
        for seq in 1...9 { history.append(patch(seq, length: 10), seq: seq) }
        #expect(history.count == 4)
        #expect(history.firstSeq == 6)
        #expect(kept(history, after: 5, lastSeq: 9)?.count == 4)
    }

    /// Patches are kept packed: a limit holds more of them than their JSON's bytes, and each comes back whole.
    @Test func keepsPatchesPacked() {
        var history = PatchHistory(capacity: 256, byteLimit: 1_000)
        let json = Array(#"{"type":"patch","seq":7,"ops":[{"op":"replace","path":"/scramble/scoreboard/1/score","value":12},{"op":"replace","path":"/scramble/scoreboard/2/name","value":"Ana"}]}"#.utf8)
        for seq in 1...10 { history.append(ServerMessage(json: json), seq: seq) }
        #expect(history.count == 10)
        #expect(history.byteCount * 2 < json.count * 10, "\(history.byteCount) bytes for \(json.count * 10) of JSON")
        #expect(kept(history, after: 0, lastSeq: 10) == Array(repeating: json, count: 10))
    }

    /// A room's history grows with what it holds, up to the limit, rather than taking the limit at once.
    @Test func holdsOnlyWhatItKeeps() {
        var history = PatchHistory(capacity: 256, byteLimit: 64 * 1024)
        history.append(patch(1, length: 120), seq: 1)
        #expect(history.reservedBytes < 1_024)
        for seq in 2...2_000 { history.append(patch(seq, length: 120), seq: seq) }
        // The ring at its limit, and at most 256 entries of 8 bytes (with malloc's rounding).
        #expect(history.reservedBytes <= 64 * 1024 + 260 * 8)
    }
}
