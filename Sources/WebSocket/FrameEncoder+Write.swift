extension FrameEncoder {
    /// The bytes a whole frame takes: header and payload.
    ///
    /// - Parameters:
    ///   - payloadLength: the payload size in bytes (not negative).
    ///   - masked: whether the frame carries a masking key (client frames, RFC 6455 §5.3).
    @inlinable
    public static func frameLength(payloadLength: Int, masked: Bool) -> Int {
        headerLength(payloadLength: payloadLength, masked: masked) + payloadLength
    }

    /// Writes one complete frame at `destination`: header, then payload, masked there when `maskingKey` is given.
    ///
    /// This is the allocation-free path for per-connection output (echo replies, client frames): the frame goes
    /// straight into a reused buffer's free space, with no array of its own and none of `Array.append`'s checks.
    ///
    /// - Parameters:
    ///   - opcode: the frame's opcode.
    ///   - payload: the payload; copied, never modified.
    ///   - fin: false for all but the last fragment of a fragmented message (RFC 6455 §5.4).
    ///   - compressed: the payload is a compressed message (RFC 7692 §6: RSV1 set).
    ///   - maskingKey: required for client frames (RFC 6455 §5.3), absent for server frames.
    ///   - destination: room for `frameLength(payloadLength:masked:)` bytes.
    /// - Returns: the bytes written, `frameLength(payloadLength:masked:)`.
    @discardableResult
    public static func write(_ opcode: WebSocketOpcode, payload: UnsafeRawBufferPointer, fin: Bool = true,
                             compressed: Bool = false, maskingKey: UInt32? = nil,
                             to destination: UnsafeMutableRawPointer) -> Int {
        let count = payload.count
        let headerLength = writeHeader(opcode: opcode, fin: fin, compressed: compressed, payloadLength: count,
                                       maskingKey: maskingKey, to: destination)
        guard count > 0 else { return headerLength }
        let body = destination + headerLength
        body.copyMemory(from: payload.baseAddress!, byteCount: count)
        if let maskingKey {
            Masking.apply(key: maskingKey, position: 0, to: UnsafeMutableRawBufferPointer(start: body, count: count))
        }
        return headerLength + count
    }
}
