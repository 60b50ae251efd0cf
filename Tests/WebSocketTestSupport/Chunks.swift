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
