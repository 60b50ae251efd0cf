import CZlib

/// One raw deflate stream for permessage-deflate's sender side (RFC 7692 §7.2.1).
///
/// Each message is compressed with `Z_SYNC_FLUSH`, so it ends on a byte boundary with an empty stored block, whose
/// four bytes `00 00 ff ff` are removed before sending. With context takeover (the default) the window carries
/// over from message to message: repeated JSON keys and values then cost a few bits each. The `z_stream` lives
/// at a fixed address (zlib keeps pointers into it), so this is a class holding it by pointer.
public final class Deflater {
    private let stream: UnsafeMutablePointer<z_stream>
    /// RFC 7692 §7.1.1: a context reset after every message (`no_context_takeover`).
    public let resetsContext: Bool

    /// RFC 7692 §7.2.1: the tail a sync flush ends with, removed from every message.
    public static let tail: [UInt8] = [0x00, 0x00, 0xFF, 0xFF]

    /// - Parameters:
    ///   - windowBits: the LZ77 window, 9 to 15 (zlib has no 8-bit raw deflate window).
    ///   - memoryLevel: zlib's `memLevel`, 1 to 9: memory for the match state (8 is zlib's default).
    ///   - level: zlib's compression level, 1 (fastest) to 9 (smallest); 6 is zlib's default.
    ///   - resetsContext: start every message with an empty window.
    /// - Throws: `CompressionError` when zlib refuses the parameters or memory runs out.
    public init(windowBits: Int = 15, memoryLevel: Int32 = 8, level: Int32 = 6,
                resetsContext: Bool = false) throws(CompressionError) {
        precondition((1...9).contains(level), "zlib levels are 1 to 9")
        precondition((9...15).contains(windowBits), "raw deflate windows are 9 to 15 bits")
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        self.resetsContext = resetsContext
        let result = czlib_deflate_init_raw(stream, level, Int32(windowBits), memoryLevel)
        guard result == Z_OK else {
            stream.deallocate()
            throw CompressionError("deflateInit2", code: result)
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
    }

    /// One message's compressed payload, without the sync flush's tail.
    public func compress(_ message: [UInt8]) -> [UInt8] {
        message.withUnsafeBytes { compress($0) }
    }

    /// Empties the window: what is compressed next refers to nothing before it, so a receiver whose window
    /// holds other bytes (or none) inflates it. This is what a full flush (`Z_FULL_FLUSH`) does to the
    /// compressor's history, without writing anything.
    public func restart() {
        deflateReset(stream)
    }

    /// One message's compressed payload, without the sync flush's tail.
    public func compress(_ message: UnsafeRawBufferPointer) -> [UInt8] {
        // zlib writes nothing for a flush with no new input after an earlier flush. The message is then one empty
        // stored block's first byte (RFC 7692 §7.2.3.6): the stream is byte-aligned after every message.
        guard !message.isEmpty else {
            if resetsContext { deflateReset(stream) }
            return [0x00]
        }
        var output = [UInt8](repeating: 0, count: message.count / 2 + 64)
        var produced = 0
        do {
            let input = message.assumingMemoryBound(to: UInt8.self)
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.pointee.avail_in = UInt32(input.count)
            while true {
                if produced == output.count { output.append(contentsOf: repeatElement(0, count: output.count)) }
                let room = output.count - produced
                let result = output.withUnsafeMutableBufferPointer { buffer in
                    stream.pointee.next_out = buffer.baseAddress! + produced
                    stream.pointee.avail_out = UInt32(room)
                    return deflate(stream, Z_SYNC_FLUSH)
                }
                produced += room - Int(stream.pointee.avail_out)
                // Z_BUF_ERROR: no progress was possible, i.e. everything is out. Any other code is a bug here.
                precondition(result == Z_OK || result == Z_BUF_ERROR, "deflate: \(result)")
                // Done once the input is used up and zlib left room unused (it has nothing more to write).
                if stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0 { break }
            }
            stream.pointee.next_in = nil
        }
        if resetsContext { deflateReset(stream) }
        output.removeSubrange(produced...)
        assert(output.suffix(4).elementsEqual(Self.tail), "a sync flush ends with 00 00 ff ff")
        output.removeLast(min(4, output.count))
        return output
    }
}
