/// Encodes frames (RFC 6455 §5.2) into ready-to-write bytes.
///
/// A message is encoded once into one `[UInt8]` holding header and payload, so a broadcast can queue the same
/// array to every recipient and each connection writes it in one call.
public enum FrameEncoder {
    /// The longest header: 2 bytes, an 8-byte extended length and a 4-byte masking key.
    public static let maxHeaderLength = 14

    /// RFC 6455 §5.2: payload lengths up to 125 fit in the 7-bit field; 126 announces a 16-bit length.
    static let maxShortLength = 125
    /// RFC 6455 §5.2: lengths above this need the 64-bit form (7-bit value 127).
    static let max16BitLength = 0xFFFF
    /// RFC 6455 §5.5: the payload limit of every control frame, close frames included.
    public static let maxControlPayloadLength = 125
    /// RFC 7692 §6: the first header byte's RSV1 bit marks a compressed message.
    public static let rsv1: UInt8 = 0x40

    /// The header length of a frame, from the length form it needs and whether it carries a masking key.
    ///
    /// - Parameters:
    ///   - payloadLength: the payload size in bytes (not negative).
    ///   - masked: whether the frame carries a masking key (client frames, RFC 6455 §5.3).
    /// - Returns: 2 to 14.
    @inlinable
    public static func headerLength(payloadLength: Int, masked: Bool) -> Int {
        let base: Int
        if payloadLength <= 125 {
            base = 2
        } else if payloadLength <= 0xFFFF {
            base = 4
        } else {
            base = 10
        }
        return masked ? base + 4 : base
    }

    /// Writes a frame header.
    ///
    /// RFC 6455 §5.2: the length uses the shortest of the three forms; RSV2 and RSV3 stay 0, and RSV1 is set only
    /// on the first frame of a compressed message (RFC 7692 §6).
    ///
    /// - Parameters:
    ///   - opcode: the frame's opcode.
    ///   - fin: whether this is the final fragment of its message.
    ///   - compressed: sets RSV1, "Per-Message Compressed" (RFC 7692 §6); only on a data message's first frame.
    ///   - payloadLength: the payload size in bytes (not negative).
    ///   - maskingKey: the key when the frame is masked (every client frame, §5.3); its big-endian bytes go on
    ///     the wire.
    ///   - destination: room for the header; `maxHeaderLength` bytes always suffice.
    /// - Returns: the number of bytes written, `headerLength(payloadLength:masked:)`.
    @discardableResult
    public static func writeHeader(opcode: WebSocketOpcode, fin: Bool, compressed: Bool = false, payloadLength: Int,
                                   maskingKey: UInt32?, to destination: UnsafeMutableRawPointer) -> Int {
        precondition(payloadLength >= 0, "negative payload length")
        precondition(!compressed || (opcode == .text || opcode == .binary), "RSV1 only starts a data message")
        let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
        destination.storeBytes(of: (fin ? 0x80 : 0) | (compressed ? rsv1 : 0) | opcode.rawValue, as: UInt8.self)
        var length: Int
        if payloadLength <= maxShortLength {
            destination.storeBytes(of: maskBit | UInt8(truncatingIfNeeded: payloadLength), toByteOffset: 1,
                                   as: UInt8.self)
            length = 2
        } else if payloadLength <= max16BitLength {
            destination.storeBytes(of: maskBit | 126, toByteOffset: 1, as: UInt8.self)
            destination.storeBytes(of: UInt16(truncatingIfNeeded: payloadLength).bigEndian, toByteOffset: 2,
                                   as: UInt16.self)
            length = 4
        } else {
            destination.storeBytes(of: maskBit | 127, toByteOffset: 1, as: UInt8.self)
            destination.storeBytes(of: UInt64(payloadLength).bigEndian, toByteOffset: 2, as: UInt64.self)
            length = 10
        }
        if let maskingKey {
            destination.storeBytes(of: maskingKey.bigEndian, toByteOffset: length, as: UInt32.self)
            length += 4
        }
        return length
    }

    /// One complete frame: header and payload in a single array, the payload masked when a key is given.
    ///
    /// - Parameters:
    ///   - opcode: the frame's opcode.
    ///   - payload: the payload; copied, never modified.
    ///   - fin: false for all but the last fragment of a fragmented message (RFC 6455 §5.4).
    ///   - compressed: the payload is a compressed message (RFC 7692 §6: RSV1 set).
    ///   - maskingKey: required for client frames (RFC 6455 §5.3), absent for server frames.
    /// - Returns: the bytes to write.
    public static func encode(_ opcode: WebSocketOpcode, payload: UnsafeRawBufferPointer,
                              fin: Bool = true, compressed: Bool = false, maskingKey: UInt32? = nil) -> [UInt8] {
        let count = payload.count
        return build(opcode, fin: fin, compressed: compressed, payloadLength: count,
                     maskingKey: maskingKey) { destination in
            if count > 0 {
                destination.baseAddress!.copyMemory(from: payload.baseAddress!, byteCount: count)
            }
        }
    }

    /// One complete frame from any byte collection (an `Array`, `String.UTF8View`, a slice...).
    ///
    /// - Parameters:
    ///   - opcode: the frame's opcode.
    ///   - payload: the payload bytes.
    ///   - fin: false for all but the last fragment of a fragmented message (RFC 6455 §5.4).
    ///   - compressed: the payload is a compressed message (RFC 7692 §6: RSV1 set).
    ///   - maskingKey: required for client frames (RFC 6455 §5.3), absent for server frames.
    /// - Returns: the bytes to write.
    public static func encode(_ opcode: WebSocketOpcode, payload: some Collection<UInt8>,
                              fin: Bool = true, compressed: Bool = false, maskingKey: UInt32? = nil) -> [UInt8] {
        if let frame = payload.withContiguousStorageIfAvailable({
            encode(opcode, payload: UnsafeRawBufferPointer($0), fin: fin, compressed: compressed,
                   maskingKey: maskingKey)
        }) {
            return frame
        }
        let count = payload.count
        return build(opcode, fin: fin, compressed: compressed, payloadLength: count,
                     maskingKey: maskingKey) { destination in
            let typed = destination.bindMemory(to: UInt8.self)
            let (_, written) = typed.initialize(from: payload)
            precondition(written == count, "collection yielded a different number of bytes than its count")
        }
    }

    /// One unfragmented text frame.
    ///
    /// - Parameters:
    ///   - text: the message; Swift strings are valid Unicode, so the UTF-8 is valid (RFC 6455 §5.6).
    ///   - maskingKey: required for client frames (RFC 6455 §5.3).
    /// - Returns: the bytes to write.
    public static func encodeText(_ text: String, maskingKey: UInt32? = nil) -> [UInt8] {
        encode(.text, payload: text.utf8, maskingKey: maskingKey)
    }

    /// A close frame carrying `code` and `reason`.
    ///
    /// RFC 6455 §5.5.1: the payload is the 2-byte code then UTF-8 reason, and as a control frame it holds at most
    /// 125 bytes, so the reason is cut to 123 bytes at a character boundary. Codes that may not be sent (1005,
    /// 1006, 1015, reserved ranges) are replaced as `CloseCode.sendable` documents.
    ///
    /// - Parameters:
    ///   - code: the status code; replaced by `code.sendable`.
    ///   - reason: a human-readable reason, possibly empty.
    ///   - maskingKey: required for client frames (RFC 6455 §5.3).
    /// - Returns: the bytes to write.
    public static func encodeClose(code: CloseCode, reason: String, maskingKey: UInt32? = nil) -> [UInt8] {
        let codeValue = code.sendable.rawValue
        let utf8 = reason.utf8
        var reasonLength = min(utf8.count, maxControlPayloadLength - 2)
        if reasonLength < utf8.count {
            // Step back over continuation bytes (10xxxxxx) so the cut never splits a character.
            let bytes = Array(utf8.prefix(reasonLength + 1))
            while reasonLength > 0 && bytes[reasonLength] & 0xC0 == 0x80 {
                reasonLength -= 1
            }
        }
        return build(.close, fin: true, payloadLength: 2 + reasonLength, maskingKey: maskingKey) { destination in
            destination.storeBytes(of: codeValue.bigEndian, as: UInt16.self)
            let reasonBytes = UnsafeMutableRawBufferPointer(rebasing: destination[2...]).bindMemory(to: UInt8.self)
            _ = reasonBytes.initialize(from: utf8.prefix(reasonLength))
        }
    }

    /// A masking key from the system's secure random source.
    ///
    /// RFC 6455 §5.3: the key MUST be fresh for each frame and unpredictable, "derived from a strong source of
    /// entropy", so that a page's script cannot choose the bytes an intermediary sees.
    public static func randomMaskingKey() -> UInt32 {
        var generator = SystemRandomNumberGenerator()
        return UInt32.random(in: .min ... .max, using: &generator)
    }

    /// Allocates the frame once, writes the header, lets `fillPayload` write the payload right after it, and
    /// masks the payload in place.
    @inline(__always)
    private static func build(_ opcode: WebSocketOpcode, fin: Bool, compressed: Bool = false, payloadLength: Int,
                              maskingKey: UInt32?, fillPayload: (UnsafeMutableRawBufferPointer) -> Void) -> [UInt8] {
        let total = headerLength(payloadLength: payloadLength, masked: maskingKey != nil) + payloadLength
        return [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            let base = UnsafeMutableRawPointer(buffer.baseAddress!)
            let header = writeHeader(opcode: opcode, fin: fin, compressed: compressed, payloadLength: payloadLength,
                                     maskingKey: maskingKey, to: base)
            let payload = UnsafeMutableRawBufferPointer(start: base + header, count: payloadLength)
            fillPayload(payload)
            if let maskingKey {
                Masking.apply(key: maskingKey, position: 0, to: payload)
            }
            initialized = total
        }
    }
}
