import CZlib

/// One raw inflate stream for permessage-deflate's receiver side (RFC 7692 §7.2.2).
///
/// A message's payload gets the four bytes `00 00 ff ff` back before inflating. The inflated size is bounded as
/// it grows: the decompression stops at `maxBytes` without inflating the rest, so a small frame cannot make the
/// receiver allocate gigabytes (a "deflate bomb"). The output goes to a buffer kept between messages, so
/// inflating a message allocates nothing once the buffer has grown to the usual message size.
public final class Inflater {
    private let stream: UnsafeMutablePointer<z_stream>
    /// Inflated bytes of the message in progress; reused from message to message.
    private var output: UnsafeMutableRawBufferPointer
    /// Kept between messages up to this size; a rare big message's buffer is given back afterwards.
    private static let keptOutputBytes = 64 * 1024
    private static let initialOutputBytes = 1024
    /// RFC 7692 §7.2.2: the tail appended to every message before inflating, kept where zlib can read it.
    nonisolated(unsafe) private static let tail: UnsafeMutableRawBufferPointer = {
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: 4, alignment: 1)
        bytes.copyBytes(from: Deflater.tail)
        return bytes
    }()

    /// Why a message could not be inflated.
    public enum Failure: Error, Sendable, Hashable {
        /// The payload is not a deflate stream (RFC 6455 §7.4.1: close 1007 for data that is not consistent).
        case corrupt
        /// The inflated message would exceed the limit (close 1009).
        case tooLarge
    }

    /// - Parameter windowBits: the largest window the peer may use, 9 to 15 (an agreed 8 is inflated with 9).
    /// - Throws: `CompressionError` when zlib refuses the parameters or memory runs out.
    public init(windowBits: Int = 15) throws(CompressionError) {
        precondition((9...15).contains(windowBits), "raw inflate windows are 9 to 15 bits")
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let result = czlib_inflate_init_raw(stream, Int32(windowBits))
        guard result == Z_OK else {
            stream.deallocate()
            throw CompressionError("inflateInit2", code: result)
        }
        output = .allocate(byteCount: Self.initialOutputBytes, alignment: 16)
    }

    /// The output buffer's size: what is kept between messages (tests check it is reused and given back).
    var outputCapacity: Int { output.count }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
        output.deallocate()
    }

    /// Inflates one message (the payloads of its frames, joined) and passes it to `body`.
    ///
    /// - Parameters:
    ///   - payload: the compressed message as received, without the tail.
    ///   - maxBytes: the largest inflated message accepted.
    ///   - resetContext: forget the window afterwards (the peer's `no_context_takeover`); a failure always does.
    ///   - body: gets the inflated message, valid only during the call.
    /// - Throws: `Failure.corrupt` or `Failure.tooLarge`.
    public func decompress<Result>(_ payload: UnsafeRawBufferPointer, maxBytes: Int, resetContext: Bool,
                                   _ body: (UnsafeRawBufferPointer) -> Result) throws(Failure) -> Result {
        var produced = 0
        do throws(Failure) {
            // After a final block the stream is complete: the tail belongs to no stream and is not fed.
            if try !feed(payload, produced: &produced, maxBytes: maxBytes) {
                _ = try feed(UnsafeRawBufferPointer(Self.tail), produced: &produced, maxBytes: maxBytes)
            }
        } catch {
            inflateReset(stream)
            shrinkOutput()
            throw error
        }
        if resetContext { inflateReset(stream) }
        let result = body(UnsafeRawBufferPointer(rebasing: output[..<produced]))
        shrinkOutput()
        return result
    }

    /// Inflates one message into a new array (tests, tools).
    public func decompress(_ payload: [UInt8], maxBytes: Int, resetContext: Bool) throws(Failure) -> [UInt8] {
        let result = payload.withUnsafeBytes { bytes in
            Result { () throws(Failure) in
                try decompress(bytes, maxBytes: maxBytes, resetContext: resetContext) { Array($0) }
            }
        }
        return try result.get()
    }

    /// Inflates `input` after the `produced` bytes already in `output`.
    ///
    /// - Returns: whether the stream ended (a final block), after which the stream is reset.
    private func feed(_ input: UnsafeRawBufferPointer, produced: inout Int, maxBytes: Int) throws(Failure) -> Bool {
        guard let base = input.baseAddress, !input.isEmpty else { return false }
        let cap = maxBytes < Int.max ? maxBytes + 1 : Int.max
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: UInt8.self))
        stream.pointee.avail_in = UInt32(input.count)
        defer { stream.pointee.next_in = nil }
        while true {
            if produced == output.count {
                // One byte over the limit is enough to know it is passed.
                guard produced <= maxBytes else { throw .tooLarge }
                grow(toAtLeast: min(output.count * 2, cap))
            }
            let room = min(output.count, cap) - produced
            stream.pointee.next_out = output.baseAddress!.advanced(by: produced).assumingMemoryBound(to: UInt8.self)
            stream.pointee.avail_out = UInt32(room)
            let result = inflate(stream, Z_SYNC_FLUSH)
            produced += room - Int(stream.pointee.avail_out)
            if produced > maxBytes { throw .tooLarge }
            switch result {
            case Z_OK:
                if stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0 { return false }
            case Z_BUF_ERROR:
                // No progress possible: the input is used up (or the output full, which the loop grows).
                if stream.pointee.avail_out > 0 { return false }
            case Z_STREAM_END:
                // RFC 7692 §7.2.2: a sender may end a message with a final block; the next starts afresh.
                // Whatever follows the end in this input is padding, not part of the stream.
                inflateReset(stream)
                return true
            default:
                throw .corrupt
            }
        }
    }

    private func grow(toAtLeast count: Int) {
        let bigger = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, output.count + 1), alignment: 16)
        bigger.copyMemory(from: UnsafeRawBufferPointer(output))
        output.deallocate()
        output = bigger
    }

    private func shrinkOutput() {
        guard output.count > Self.keptOutputBytes else { return }
        output.deallocate()
        output = .allocate(byteCount: Self.initialOutputBytes, alignment: 16)
    }
}
