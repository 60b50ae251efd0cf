/// Calls `body` with `bytes` cut into consecutive chunks that end at `cuts` and then at the end, the way a peer's
/// bytes arrive in reads of any size. A cut before the previous one is skipped, so unsorted cuts give fewer chunks.
///
/// The chunks are mutable because the parser and the session unmask payloads in place; they are views of one copy of
/// `bytes`, valid only during the call.
/// - Parameters:
///   - bytes: what the peer sends.
///   - cuts: the offsets at which reads end, in order.
///   - body: called once a chunk; throwing stops the feeding.
/// - Throws: what `body` throws.
public func forEachChunk<Failure: Error>(
    of bytes: [UInt8], endingAt cuts: [Int],
    _ body: (UnsafeMutableRawBufferPointer) throws(Failure) -> Void
) throws(Failure) {
    var input = bytes
    // `withUnsafeMutableBytes` rethrows untyped errors, so the typed one is carried out of it.
    var failure: Failure?
    input.withUnsafeMutableBytes { buffer in
        var start = 0
        for end in cuts + [buffer.count] where end >= start {
            do throws(Failure) {
                try body(UnsafeMutableRawBufferPointer(rebasing: buffer[start ..< end]))
            } catch {
                failure = error
                return
            }
            start = end
        }
    }
    if let failure { throw failure }
}

/// Split points for `forEachChunk` from a seed: a few pseudo-random cuts in `0...count`, sorted, the same for the
/// same seed, so a fuzzer's input chooses its own reads and a crash replays exactly.
public func cuts(seed: UInt8, count: Int) -> [Int] {
    guard count > 0 else { return [] }
    var state = UInt32(seed) &* 2_654_435_761 &+ 1
    var result: [Int] = []
    for _ in 0 ..< Int(seed % 7) + 1 {
        state = state &* 1_103_515_245 &+ 12345
        result.append(Int(state >> 8) % (count + 1))
    }
    return result.sorted()
}
