import Testing
@testable import Rooms

@Suite struct PatchHistoryTests {
    /// A patch message whose JSON is `length` bytes, all `seq % 251` (so each patch's bytes are its own).
    private func patch(_ seq: Int, length: Int) -> ServerMessage {
        ServerMessage(json: [UInt8](repeating: UInt8(seq % 251), count: length))
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
        #expect(kept(history, after: 30, lastSeq: 40) == (31...40).map { [UInt8](repeating: UInt8($0), count: 100) })
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
            #expect(replay == (first...seq).map { [UInt8](repeating: UInt8($0 % 251), count: lengths[$0]!) })
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
        #expect(kept(history, after: 3, lastSeq: 4) == [[UInt8](repeating: 4, count: 50)])
        #expect(kept(history, after: 1, lastSeq: 4) == nil)
    }

    @Test func theCountBoundStillHoldsForSmallPatches() {
        var history = PatchHistory(capacity: 4, byteLimit: 1_000_000)
        for seq in 1...9 { history.append(patch(seq, length: 10), seq: seq) }
        #expect(history.count == 4)
        #expect(history.firstSeq == 6)
        #expect(kept(history, after: 5, lastSeq: 9)?.count == 4)
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
