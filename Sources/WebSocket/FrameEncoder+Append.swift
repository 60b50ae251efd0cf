extension FrameEncoder {
    /// Appends one complete frame to `buffer`: header, then payload, masked in place when `maskingKey` is given.
    ///
    /// This is the allocation-free path for per-connection output (echo replies, client frames): the bytes go
    /// straight into a reused buffer instead of a new array per frame.
    public static func append(_ opcode: WebSocketOpcode, payload: UnsafeRawBufferPointer, fin: Bool = true,
                              compressed: Bool = false, maskingKey: UInt32? = nil, to buffer: inout [UInt8]) {
        let headerLength = headerLength(payloadLength: payload.count, masked: maskingKey != nil)
        let start = buffer.count
        let needed = start + headerLength + payload.count
        if buffer.capacity < needed {
            // Grow geometrically: reserving the exact size on every append would copy the buffer each time.
            buffer.reserveCapacity(max(needed, buffer.capacity * 2))
        }
        if maskingKey == nil && payload.count < 126 {
            // The common small server frame: two header bytes, appended directly.
            buffer.append((fin ? 0x80 : 0) | (compressed ? rsv1 : 0) | opcode.rawValue)
            buffer.append(UInt8(truncatingIfNeeded: payload.count))
        } else {
            withUnsafeTemporaryAllocation(byteCount: maxHeaderLength, alignment: 1) { header in
                let written = writeHeader(opcode: opcode, fin: fin, compressed: compressed, payloadLength: payload.count,
                                          maskingKey: maskingKey, to: header.baseAddress!)
                buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: header[..<written]))
            }
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
