/// An incremental frame parser (RFC 6455 §5.2): the lowest layer, below `WebSocketSession`.
///
/// It turns bytes into a stream of events: a frame's header, its payload in one or more chunks (unmasked in place,
/// pointing into the caller's buffer), then its end. Fed any split of the same bytes it yields the same headers and
/// the same payload bytes. Between calls it keeps at most the bytes of one partial header; payload bytes are never
/// copied here. Everything a header alone can violate is checked as soon as the byte carrying it arrives, before
/// any payload is accepted.
///
/// After it throws, the connection is to be failed; the parser must not be used again.
public struct FrameParser: Sendable {
    /// A decoded, validated frame header.
    public struct Header: Hashable, Sendable {
        /// RFC 6455 §5.2: set on the final fragment of a message (always set on control frames, §5.5).
        public var fin: Bool
        /// A defined opcode (reserved ones are rejected).
        public var opcode: WebSocketOpcode
        /// The key the payload was masked with, as its big-endian value; nil for unmasked frames.
        public var maskingKey: UInt32?
        /// The payload length; at most `Int64.max` (§5.2), and at most 125 for control frames (§5.5).
        public var payloadLength: UInt64
        /// RSV1, set on the first frame of a compressed message (RFC 7692 §6); only where it was negotiated.
        public var compressed: Bool

        public init(fin: Bool, opcode: WebSocketOpcode, maskingKey: UInt32?, payloadLength: UInt64,
                    compressed: Bool = false) {
            self.fin = fin
            self.opcode = opcode
            self.maskingKey = maskingKey
            self.payloadLength = payloadLength
            self.compressed = compressed
        }
    }

    /// What the parser found next.
    public enum Event {
        /// A new frame starts; its payload follows as zero or more `.payload` events, then `.end`.
        case header(Header)
        /// The next payload bytes of the current frame, already unmasked, inside the buffer given to `next`.
        case payload(UnsafeMutableRawBufferPointer)
        /// The current frame's payload is complete.
        case end
    }

    // Field order keeps the layout at 31 bytes: the 8-byte field first, then the key, then bytes.
    /// Payload bytes of the current frame not yet returned.
    private var remaining: UInt64 = 0
    /// The current frame's masking key (big-endian value).
    private var maskingKey: UInt32 = 0
    /// The bytes of a header split across reads; 14 is the longest header.
    private var partialHeader: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    private var partialHeaderCount: UInt8 = 0
    /// Payload bytes of the current frame already unmasked, modulo 4: where the key continues.
    private var maskPosition: UInt8 = 0
    private var inPayload = false
    private var masked = false
    /// Which end we are; decides which masking is required (RFC 6455 §5.1).
    public let role: WebSocketRole
    /// permessage-deflate was negotiated, so RSV1 may start a data message (RFC 7692 §6).
    public let allowsCompression: Bool

    /// A parser at a frame boundary.
    ///
    /// - Parameters:
    ///   - role: our role; a server requires masked frames, a client requires unmasked ones.
    ///   - allowsCompression: whether permessage-deflate was negotiated; without it RSV1 fails the connection.
    public init(role: WebSocketRole, allowsCompression: Bool = false) {
        self.role = role
        self.allowsCompression = allowsCompression
    }

    /// Whether the parser is between frames with no partial header held, i.e. the bytes so far end exactly at
    /// the end of a frame.
    public var isAtFrameBoundary: Bool { !inPayload && partialHeaderCount == 0 }

    /// Consumes bytes from `bytes[offset...]` up to the next event.
    ///
    /// - Parameters:
    ///   - bytes: the received bytes; payload bytes are unmasked in place.
    ///   - offset: where to start; advanced past what was consumed.
    /// - Returns: the next event, or nil when all of `bytes` was consumed and more data is needed. A zero-length
    ///   frame's `.end` and the `.end` after its last payload chunk come without needing more bytes.
    /// - Throws: the first protocol violation a header shows (reserved bits, reserved opcode, masking, control
    ///   frame rules, 64-bit length overflow).
    public mutating func next(in bytes: UnsafeMutableRawBufferPointer,
                              at offset: inout Int) throws(WebSocketError) -> Event? {
        if inPayload {
            if remaining == 0 {
                inPayload = false
                return .end
            }
            let available = bytes.count &- offset
            guard available > 0 else { return nil }
            // `remaining` is compared as UInt64 before narrowing, so a peer's huge length never reaches `Int(_:)`.
            let count = remaining < UInt64(available) ? Int(truncatingIfNeeded: remaining) : available
            let chunk = UnsafeMutableRawBufferPointer(rebasing: bytes[offset ..< offset &+ count])
            if masked {
                Masking.apply(key: maskingKey, position: Int(maskPosition), to: chunk)
                maskPosition = UInt8(truncatingIfNeeded: (Int(maskPosition) &+ count) & 3)
            }
            offset &+= count
            remaining &-= UInt64(count)
            return .payload(chunk)
        }
        guard let header = try nextHeader(bytes, &offset) else { return nil }
        inPayload = true
        remaining = header.payloadLength
        masked = header.maskingKey != nil
        maskingKey = header.maskingKey ?? 0
        maskPosition = 0
        return .header(header)
    }

    /// A whole data frame that is a whole message, lying entirely in `bytes[offset...]`: the common case, taken
    /// without the event-by-event walk of `next`.
    ///
    /// Only the plainest frame qualifies: FIN set, no RSV bit (so not compressed), text or binary, masked as
    /// RFC 6455 §5.1 requires of the peer, a 7- or 16-bit length of at most `maxPayload`, header and payload
    /// all here. Anything else, including every frame that breaks a rule, returns nil with `offset` unchanged,
    /// and `next` then takes the frame the long way, with its checks and errors.
    ///
    /// - Parameters:
    ///   - bytes: the received bytes; the frame's payload is unmasked in place.
    ///   - offset: where the frame would start; advanced past it when one is returned.
    ///   - maxPayload: the largest payload accepted here (the session's message cap).
    /// - Returns: the frame's opcode and its payload (inside `bytes`), or nil.
    @inline(__always)
    public mutating func nextWholeDataFrame(in bytes: UnsafeMutableRawBufferPointer, at offset: inout Int,
                                            maxPayload: Int) -> (opcode: WebSocketOpcode,
                                                                 payload: UnsafeMutableRawBufferPointer)? {
        guard !inPayload, partialHeaderCount == 0 else { return nil }
        let available = bytes.count &- offset
        guard available >= 2, let base = bytes.baseAddress else { return nil }
        let start = base + offset
        let first = start.load(as: UInt8.self)
        // 0x81 and 0x82: FIN, RSV1-3 clear, text or binary.
        guard first == 0x81 || first == 0x82 else { return nil }
        let second = start.load(fromByteOffset: 1, as: UInt8.self)
        let masked = second & 0x80 != 0
        guard masked == (role == .server) else { return nil }
        var length = Int(second & 0x7F)
        var headerLength = 2
        if length == 126 {
            guard available >= 4 else { return nil }
            length = Int(UInt16(bigEndian: start.loadUnaligned(fromByteOffset: 2, as: UInt16.self)))
            headerLength = 4
        } else if length == 127 {
            return nil
        }
        let keyOffset = headerLength
        if masked { headerLength &+= 4 }
        guard length <= maxPayload, available &- headerLength >= length else { return nil }
        let payload = UnsafeMutableRawBufferPointer(start: start + headerLength, count: length)
        if masked {
            let key = UInt32(bigEndian: start.loadUnaligned(fromByteOffset: keyOffset, as: UInt32.self))
            Masking.apply(key: key, position: 0, to: payload)
        }
        offset &+= headerLength &+ length
        return (WebSocketOpcode(rawValue: first & 0x0F), payload)
    }

    private mutating func nextHeader(_ bytes: UnsafeMutableRawBufferPointer,
                                     _ offset: inout Int) throws(WebSocketError) -> Header? {
        let available = bytes.count &- offset
        guard available > 0 else { return nil }
        let start = UnsafeRawPointer(bytes.baseAddress! + offset)
        // Fast path: the whole header is in this read, decode it where it lies.
        if partialHeaderCount == 0 && available >= 2 {
            let first = start.load(as: UInt8.self)
            let second = start.load(fromByteOffset: 1, as: UInt8.self)
            try validate(first: first)
            let length = try validate(first: first, second: second)
            if available >= length {
                offset &+= length
                return try Self.decode(start, length: length)
            }
        }
        // Slow path: gather the header byte by byte, checking each byte as soon as it arrives.
        while offset < bytes.count {
            let byte = bytes[offset]
            offset &+= 1
            let count = Int(partialHeaderCount)
            withUnsafeMutableBytes(of: &partialHeader) { $0[count] = byte }
            partialHeaderCount &+= 1
            if count == 0 {
                try validate(first: byte)
                continue
            }
            let (first, second) = (partialHeader.0, partialHeader.1)
            let length = try validate(first: first, second: second)
            if count &+ 1 == length {
                partialHeaderCount = 0
                return try withUnsafeBytes(of: partialHeader) { (header) throws(WebSocketError) -> Header in
                    try Self.decode(header.baseAddress!, length: length)
                }
            }
        }
        return nil
    }

    /// Checks what the first byte alone can violate.
    @inline(__always)
    private func validate(first: UInt8) throws(WebSocketError) {
        let opcode = WebSocketOpcode(rawValue: first)
        // RFC 6455 §5.2: RSV1-3 MUST be 0 unless an extension defining them was negotiated. permessage-deflate
        // defines RSV1 alone, and only on the first frame of a data message (RFC 7692 §6, §6.1).
        if first & 0x70 != 0 {
            guard first & 0x70 == FrameEncoder.rsv1, allowsCompression else { throw .reservedBitsSet }
            guard opcode == .text || opcode == .binary else { throw .misplacedCompressionBit }
        }
        // RFC 6455 §5.2: a reserved opcode fails the connection.
        guard opcode.isDefined else { throw .unknownOpcode(opcode) }
        // RFC 6455 §5.5: control frames MUST NOT be fragmented.
        guard !opcode.isControl || first & 0x80 != 0 else { throw .fragmentedControlFrame }
    }

    /// Checks what the second byte can violate and returns the whole header's length.
    @inline(__always)
    private func validate(first: UInt8, second: UInt8) throws(WebSocketError) -> Int {
        let isMasked = second & 0x80 != 0
        let shortLength = second & 0x7F
        // RFC 6455 §5.5: control frame payloads are at most 125 bytes, so the 126/127 forms are too long.
        guard first & 0x08 == 0 || shortLength <= 125 else { throw .controlFrameTooLong }
        // RFC 6455 §5.1: clients MUST mask every frame and servers MUST NOT mask any; the receiver fails the
        // connection otherwise.
        switch role {
        case .server: guard isMasked else { throw .unmaskedClientFrame }
        case .client: guard !isMasked else { throw .maskedServerFrame }
        }
        let lengthBytes = shortLength == 127 ? 8 : (shortLength == 126 ? 2 : 0)
        return 2 &+ lengthBytes &+ (isMasked ? 4 : 0)
    }

    /// Decodes a complete header whose first two bytes were validated.
    @inline(__always)
    private static func decode(_ start: UnsafeRawPointer, length: Int) throws(WebSocketError) -> Header {
        let first = start.load(as: UInt8.self)
        let second = start.load(fromByteOffset: 1, as: UInt8.self)
        var payloadLength = UInt64(second & 0x7F)
        var position = 2
        if payloadLength == 126 {
            payloadLength = UInt64(UInt16(bigEndian: start.loadUnaligned(fromByteOffset: 2, as: UInt16.self)))
            position = 4
        } else if payloadLength == 127 {
            payloadLength = UInt64(bigEndian: start.loadUnaligned(fromByteOffset: 2, as: UInt64.self))
            // RFC 6455 §5.2: the most significant bit of the 64-bit length MUST be 0.
            guard payloadLength >> 63 == 0 else { throw .payloadLengthOverflow }
            position = 10
        }
        // RFC 6455 §5.2 asks senders for the shortest length form but gives receivers no rule; like most
        // implementations (and Autobahn) we accept longer forms rather than fail a working peer.
        var key: UInt32?
        if second & 0x80 != 0 {
            key = UInt32(bigEndian: start.loadUnaligned(fromByteOffset: position, as: UInt32.self))
            position &+= 4
        }
        assert(position == length)
        return Header(fin: first & 0x80 != 0, opcode: WebSocketOpcode(rawValue: first), maskingKey: key,
                      payloadLength: payloadLength, compressed: first & FrameEncoder.rsv1 != 0)
    }
}
