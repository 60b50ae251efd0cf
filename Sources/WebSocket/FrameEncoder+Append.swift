extension FrameEncoder {
    /// Appends one complete frame to `buffer`: header, then payload, masked in place when `maskingKey` is given.
    ///
    /// This is the allocation-free path for per-connection output (echo replies, client frames): the bytes go
    /// straight into a reused buffer instead of a new array per frame.
    public static func append(_ opcode: WebSocketOpcode, payload: UnsafeRawBufferPointer, fin: Bool = true,
                              maskingKey: UInt32? = nil, to buffer: inout [UInt8]) {
        let headerLength = headerLength(payloadLength: payload.count, masked: maskingKey != nil)
        let start = buffer.count
        buffer.reserveCapacity(start + headerLength + payload.count)
        withUnsafeTemporaryAllocation(byteCount: maxHeaderLength, alignment: 1) { header in
            let written = writeHeader(opcode: opcode, fin: fin, payloadLength: payload.count,
                                      maskingKey: maskingKey, to: header.baseAddress!)
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: header[..<written]))
        }
        buffer.append(contentsOf: payload)
        if let maskingKey {
            buffer.withUnsafeMutableBytes { bytes in
                Masking.apply(key: maskingKey, position: 0,
                              to: UnsafeMutableRawBufferPointer(rebasing: bytes[(start + headerLength)...]))
            }
        }
    }
}
