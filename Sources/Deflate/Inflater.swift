import CZlib

/// One raw inflate stream for permessage-deflate's receiver side (RFC 7692 §7.2.2).
///
/// A message's payload gets the four bytes `00 00 ff ff` back before inflating. The inflated size is bounded as
/// it grows: the decompression stops at `maxBytes` without inflating the rest, so a small frame cannot make the
/// receiver allocate gigabytes (a "deflate bomb").
public final class Inflater {
    private let stream: UnsafeMutablePointer<z_stream>

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
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
    }

    /// Inflates one message (the payloads of its frames, joined).
    ///
    /// - Parameters:
    ///   - payload: the compressed message as received, without the tail.
    ///   - maxBytes: the largest inflated message accepted.
    ///   - resetContext: forget the window afterwards (the peer's `no_context_takeover`); a failure always does.
    /// - Throws: `Failure.corrupt` or `Failure.tooLarge`.
    public func decompress(_ payload: [UInt8], maxBytes: Int, resetContext: Bool) throws(Failure) -> [UInt8] {
        var output: [UInt8] = []
        do {
            // After a final block the stream is complete: the tail belongs to no stream and is not fed.
            if try !feed(payload, into: &output, maxBytes: maxBytes) {
                _ = try feed(Deflater.tail, into: &output, maxBytes: maxBytes)
            }
        } catch {
            inflateReset(stream)
            throw error
        }
        if resetContext { inflateReset(stream) }
        return output
    }

    /// Inflates `input` onto `output`.
    ///
    /// - Returns: whether the stream ended (a final block), after which the stream is reset.
    private func feed(_ input: [UInt8], into output: inout [UInt8], maxBytes: Int) throws(Failure) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var failure: Failure?
        var ended = false
        input.withUnsafeBufferPointer { bytes in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress)
            stream.pointee.avail_in = UInt32(bytes.count)
            while true {
                let result = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.pointee.next_out = buffer.baseAddress
                    stream.pointee.avail_out = UInt32(buffer.count)
                    return inflate(stream, Z_SYNC_FLUSH)
                }
                let produced = chunk.count - Int(stream.pointee.avail_out)
                guard output.count + produced <= maxBytes else { failure = .tooLarge; break }
                output.append(contentsOf: chunk[..<produced])
                switch result {
                case Z_OK:
                    if stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0 { return }
                case Z_BUF_ERROR:
                    return
                case Z_STREAM_END:
                    // RFC 7692 §7.2.2: a sender may end a message with a final block; the next starts afresh.
                    // Whatever follows the end in this input is padding, not part of the stream.
                    inflateReset(stream)
                    ended = true
                    return
                default:
                    failure = .corrupt
                    return
                }
            }
        }
        stream.pointee.next_in = nil
        if let failure { throw failure }
        return ended
    }
}
