/// The per-connection protocol state machine: frame parsing, message assembly, UTF-8 validation, pings and the
/// close handshake (RFC 6455 §5-§7), with no I/O.
///
/// It is small: the parser's partial-header state, a few bytes of message state and one array that stays empty
/// (no allocation) unless a message or control frame spans several reads or several frames. A frame that lies
/// wholly inside one read is delivered straight from the read buffer.
public struct WebSocketSession: Sendable {
    /// Where the close handshake stands (RFC 6455 §7).
    public enum State: Sendable, Hashable {
        /// Messages flow both ways.
        case open
        /// We sent a close frame and wait for the peer's (RFC 6455 §7.1.2); its data messages are dropped unread.
        case closeSent
        /// The close handshake completed or the connection failed: all further input is ignored.
        case closed
    }

    private var parser: FrameParser
    /// RFC 6455 §10.4: an endpoint protects itself with a message-size limit; enforced on frame headers.
    private let maxMessageBytes: Int
    /// Payload of the message being assembled, followed by the payload so far of a control frame that arrived
    /// in pieces (control frames sit between fragments, never inside one, so the two never interleave).
    private var buffer: [UInt8] = []
    private var utf8 = UTF8Validator()
    /// The opcode that started the message in `buffer`, or `.continuation` when none is in progress.
    private var messageOpcode = WebSocketOpcode.continuation
    /// The current frame's opcode and FIN bit.
    private var frameOpcode = WebSocketOpcode.continuation
    private var frameFin = false
    /// The current control frame's payload length (at most 125, RFC 6455 §5.5).
    private var controlLength: UInt8 = 0
    /// The message in progress is compressed (RFC 7692 §6: RSV1 on its first frame): its payload is gathered as
    /// received and inflated when it ends, and only then validated as UTF-8.
    private var messageCompressed = false
    /// The close handshake's progress.
    public private(set) var state: State = .open

    /// A session in the open state, right after the opening handshake.
    ///
    /// - Parameters:
    ///   - role: our end of the connection.
    ///   - maxMessageBytes: the largest message accepted, summed over its fragments; larger ones fail the
    ///     connection with 1009 as soon as a frame header announces them. For a compressed message the cap
    ///     applies to the inflated size (and its compressed size may not exceed it by more than deflate's worst
    ///     case expansion).
    ///   - compression: permessage-deflate was negotiated: RSV1 marks compressed messages, which `receive`
    ///     inflates with the inflater it is given.
    public init(role: WebSocketRole, maxMessageBytes: Int, compression: Bool = false) {
        precondition(maxMessageBytes >= 0, "negative message cap")
        self.parser = FrameParser(role: role, allowsCompression: compression)
        self.maxMessageBytes = maxMessageBytes
    }

    /// Whether permessage-deflate was negotiated for this session.
    public var compression: Bool { parser.allowsCompression }

    /// The largest compressed payload a message may have: deflate expands incompressible data by at most 5 bytes
    /// per 16 KiB stored block, plus a few bytes of block headers.
    private var maxCompressedBytes: Int {
        let slack = maxMessageBytes / 2048 + 64
        return maxMessageBytes > Int.max - slack ? Int.max : maxMessageBytes + slack
    }

    /// Our end of the connection.
    public var role: WebSocketRole { parser.role }

    /// Consumes all of `bytes`, calling `handle` for each resulting action in order.
    ///
    /// Payload is unmasked in place. Between calls the session holds at most a partial header (<= 14 bytes) and
    /// the payload of the message assembled so far. After a protocol violation it emits `.sendClose` with the
    /// error's `closeCode` (unless a close was already sent) then `.closeConnection`, and ignores further input.
    ///
    /// `handle` must not access this session (it is being mutated: Swift's exclusivity checks trap); to reply,
    /// encode with `FrameEncoder` or queue the reaction until `receive` returns.
    ///
    /// - Parameters:
    ///   - bytes: the bytes just read; modified (unmasked).
    ///   - inflater: inflates compressed messages; needed once compression was negotiated (it may be shared by
    ///     many sessions when each message starts afresh, `client_no_context_takeover`).
    ///   - handle: called for each action; buffer pointers inside an action are valid only during the call.
    public mutating func receive(_ bytes: UnsafeMutableRawBufferPointer, inflater: (any MessageInflater)? = nil,
                                 _ handle: (WebSocketAction) -> Void) {
        _ = consume(bytes, inflater: inflater) { action in
            handle(action)
            return true
        }
    }

    /// Consumes `bytes` frame by frame while `handle` returns true, calling it for each resulting action in order.
    ///
    /// The same as `receive`, except that the caller may stop: once `handle` returns false the session stops
    /// before the next frame and leaves the rest of `bytes` untouched (still masked), for the caller to pass
    /// again, first, when it wants more. An event loop uses this to give each connection a bounded share of a
    /// pass, and to stop at once when the application closes the connection.
    ///
    /// - Parameters:
    ///   - bytes: the bytes just read (or left over from an earlier call); the consumed part is unmasked.
    ///   - inflater: as for `receive`.
    ///   - handle: called for each action; returns whether to go on. Buffer pointers inside an action are valid
    ///     only during the call.
    /// - Returns: how many bytes were consumed: all of them unless `handle` returned false before the end, in
    ///   which case the rest starts at a frame boundary. Once the session is closed, all of them (the rest is
    ///   ignored, RFC 6455 §5.5.1).
    public mutating func consume(_ bytes: UnsafeMutableRawBufferPointer, inflater: (any MessageInflater)? = nil,
                                 _ handle: (WebSocketAction) -> Bool) -> Int {
        guard state != .closed else { return bytes.count }
        var offset = 0
        // A frame whose payload lies wholly in `bytes` is handled from `bytes`, without touching `buffer`.
        var wholeFrameHere = false
        var wholePayload = UnsafeMutableRawBufferPointer(start: nil, count: 0)
        var proceed = true
        // What `end` produces goes through here, so that a `false` from `handle` is seen once the frame is done.
        func act(_ action: WebSocketAction) {
            if !handle(action) { proceed = false }
        }
        do throws(WebSocketError) {
            while state != .closed {
                // Between messages, a whole one-frame message skips the event walk: most traffic is these.
                if messageOpcode == .continuation,
                   let (opcode, payload) = parser.nextWholeDataFrame(in: bytes, at: &offset,
                                                                     maxPayload: maxMessageBytes) {
                    // RFC 6455 §7.1.2 leaves what to do with data after our close to us: nobody listens any more.
                    guard state == .open else { continue }
                    let message = UnsafeRawBufferPointer(payload)
                    if opcode == .text {
                        // RFC 6455 §8.1: the whole message is here, so fail-fast and complete are one check.
                        guard UTF8Validator.isValid(message) else { throw .invalidUTF8 }
                        proceed = handle(.deliverText(message))
                    } else {
                        proceed = handle(.deliverBinary(message))
                    }
                    if proceed { continue }
                    return offset
                }
                guard let event = try parser.next(in: bytes, at: &offset) else { break }
                switch event {
                case .header(let header):
                    let payloadIsHere = header.payloadLength <= UInt64(bytes.count &- offset)
                    wholePayload = UnsafeMutableRawBufferPointer(start: nil, count: 0)
                    wholeFrameHere = try begin(header, wholeFrameHere: payloadIsHere)
                case .payload(let chunk):
                    if wholeFrameHere {
                        wholePayload = chunk
                    } else {
                        // Typed, so the append is a memcpy even where the generic call is not specialized.
                        buffer.append(contentsOf: UnsafeBufferPointer(chunk.assumingMemoryBound(to: UInt8.self)))
                    }
                    if !messageCompressed, state == .open,
                       frameOpcode == .text || (frameOpcode == .continuation && messageOpcode == .text) {
                        // RFC 6455 §8.1 with fail-fast: reject at the first bad byte, not at the message's end.
                        guard utf8.validate(UnsafeRawBufferPointer(chunk)) else { throw .invalidUTF8 }
                    }
                case .end:
                    try end(wholeFrameHere ? UnsafeRawBufferPointer(wholePayload) : nil, inflater, act)
                    wholeFrameHere = false
                    if !proceed && state != .closed { return offset }
                }
            }
        } catch {
            fail(error) { _ = handle($0) }
        }
        return bytes.count
    }

    /// Starts the close handshake (RFC 6455 §7.1.2).
    ///
    /// RFC 6455 §7.4.1: 1005 and 1006 are never sent: "no status" becomes 1000 and other unsendable codes
    /// become 1011 (`CloseCode.sendable`). The reason is cut to fit a control frame (§5.5).
    ///
    /// - Parameters:
    ///   - code: why we close.
    ///   - reason: a short human-readable reason.
    /// - Returns: the close frame to send, or nil if a close was already sent (§5.5.1: at most one) or the
    ///   connection is closed.
    public mutating func initiateClose(code: CloseCode, reason: String) -> [UInt8]? {
        guard state == .open else { return nil }
        state = .closeSent
        return FrameEncoder.encodeClose(code: code, reason: reason, maskingKey: freshMaskingKey())
    }

    /// Encodes an outgoing frame for this role.
    ///
    /// RFC 6455 §5.3: a client masks every frame with a fresh unpredictable key; a server never masks.
    ///
    /// - Parameters:
    ///   - opcode: the frame's opcode.
    ///   - payload: the payload, copied.
    /// - Returns: the complete frame.
    public func encode(_ opcode: WebSocketOpcode, payload: UnsafeRawBufferPointer) -> [UInt8] {
        FrameEncoder.encode(opcode, payload: payload, maskingKey: freshMaskingKey())
    }

    private func freshMaskingKey() -> UInt32? {
        role == .client ? FrameEncoder.randomMaskingKey() : nil
    }

    /// Checks a new frame against the message in progress; returns whether its payload can be handled in place.
    private mutating func begin(_ header: FrameParser.Header, wholeFrameHere: Bool) throws(WebSocketError) -> Bool {
        frameOpcode = header.opcode
        frameFin = header.fin
        if header.opcode.isControl {
            // The parser enforced the 125-byte limit (RFC 6455 §5.5).
            controlLength = UInt8(truncatingIfNeeded: header.payloadLength)
            return wholeFrameHere
        }
        let messageSoFar: Int
        if header.opcode == .continuation {
            // RFC 6455 §5.4: a continuation only continues a message that started with FIN clear.
            guard messageOpcode != .continuation else { throw .unexpectedContinuation }
            messageSoFar = buffer.count
        } else {
            // RFC 6455 §5.4: fragments of one message are not interleaved with another message's.
            guard messageOpcode == .continuation else { throw .expectedContinuation }
            messageSoFar = 0
            messageCompressed = header.compressed
        }
        // Checked on the header, before any payload is buffered, in UInt64 so no peer value is narrowed first.
        // A compressed message's inflated size is checked again as it inflates.
        let cap = messageCompressed ? maxCompressedBytes : maxMessageBytes
        guard header.payloadLength <= UInt64(cap &- messageSoFar) else {
            throw .messageTooBig(limit: maxMessageBytes)
        }
        if header.opcode == .continuation {
            return false
        }
        utf8.reset()
        if header.fin && wholeFrameHere {
            return true
        }
        messageOpcode = header.opcode
        if header.fin {
            // The length is known and within the cap; reserve up to a bound so a peer announcing a large frame
            // and trickling it in does not make us allocate it all up front.
            buffer.reserveCapacity(Int(truncatingIfNeeded: min(header.payloadLength, Self.maxUpfrontReservation)))
        }
        return false
    }

    private static let maxUpfrontReservation: UInt64 = 64 * 1024

    /// Finishes the current frame; `payload` is its payload when it was handled in place.
    private mutating func end(_ payload: UnsafeRawBufferPointer?, _ inflater: (any MessageInflater)?,
                              _ handle: (WebSocketAction) -> Void) throws(WebSocketError) {
        if frameOpcode.isControl {
            if let payload {
                try control(payload, handle)
                return
            }
            // Split control frames are rare (pings arrive whole), so copying their <= 125 bytes out is fine.
            let length = Int(controlLength)
            let controlPayload = Array(buffer.suffix(length))
            buffer.removeLast(length)
            if messageOpcode == .continuation {
                buffer = []
            }
            let result = controlPayload.withUnsafeBytes { bytes in
                Result { () throws(WebSocketError) in try control(bytes, handle) }
            }
            try result.get()
            return
        }
        guard frameFin else { return }
        let opcode = messageOpcode == .continuation ? frameOpcode : messageOpcode
        guard state == .open else {
            // RFC 6455 §7.1.2 leaves data after our close to us: nobody listens any more, so it is dropped
            // unread (neither inflated nor validated) while the peer's close frame is awaited.
            messageCompressed = false
            if payload == nil {
                buffer = []
                messageOpcode = .continuation
            }
            return
        }
        if messageCompressed {
            messageCompressed = false
            defer {
                if payload == nil {
                    buffer = []
                    messageOpcode = .continuation
                }
            }
            if let payload {
                try inflate(payload, opcode, inflater, handle)
            } else {
                let result = buffer.withUnsafeBytes { bytes in
                    Result { () throws(WebSocketError) in try inflate(bytes, opcode, inflater, handle) }
                }
                try result.get()
            }
            return
        }
        // RFC 6455 §8.1: a message ending inside a multi-byte sequence is invalid too.
        if opcode == .text && !utf8.isComplete { throw .invalidUTF8 }
        if let payload {
            handle(opcode == .text ? .deliverText(payload) : .deliverBinary(payload))
        } else {
            buffer.withUnsafeBytes { handle(opcode == .text ? .deliverText($0) : .deliverBinary($0)) }
            // Release rather than keep: idle connections should hold no buffer (allocated lazily again).
            buffer = []
            messageOpcode = .continuation
        }
    }

    /// Inflates a complete compressed message (RFC 7692 §7.2.2) and delivers it; a text message must be valid
    /// UTF-8 once inflated (RFC 6455 §8.1).
    private func inflate(_ payload: UnsafeRawBufferPointer, _ opcode: WebSocketOpcode,
                         _ inflater: (any MessageInflater)?,
                         _ handle: (WebSocketAction) -> Void) throws(WebSocketError) {
        guard let inflater else {
            // Compression was negotiated but the I/O layer gave no inflater: a bug there, not the peer's fault.
            assertionFailure("a compressed message arrived with no inflater")
            throw .invalidCompressedData
        }
        var invalidText = false
        do throws(InflateFailure) {
            try inflater.inflate(payload, maxBytes: maxMessageBytes) { message in
                if opcode == .text && !UTF8Validator.isValid(message) {
                    invalidText = true
                    return
                }
                handle(opcode == .text ? .deliverText(message) : .deliverBinary(message))
            }
        } catch {
            switch error {
            case .tooLarge: throw .messageTooBig(limit: maxMessageBytes)
            case .ratioExceeded(let maxRatio): throw .inflateRatioExceeded(maxRatio: maxRatio)
            case .corrupt: throw .invalidCompressedData
            }
        }
        if invalidText { throw .invalidUTF8 }
    }

    /// Handles a complete control frame's payload.
    private mutating func control(_ payload: UnsafeRawBufferPointer,
                                  _ handle: (WebSocketAction) -> Void) throws(WebSocketError) {
        switch frameOpcode {
        case .ping:
            // RFC 6455 §5.5.2: answer with a pong carrying the same payload. Once our close is sent we send
            // nothing more (§5.5.1), not even pongs.
            if state == .open {
                handle(.sendPong(FrameEncoder.encode(.pong, payload: payload, maskingKey: freshMaskingKey())))
            }
        case .pong:
            handle(.pongReceived)
        default:
            let (code, reason) = try Self.parseClose(payload)
            handle(.closeReceived(code: code, reason: reason))
            if state == .open {
                // RFC 6455 §5.5.1: echo the peer's code; when it sent none, answer 1000 rather than the
                // locally-reported 1005 that must never be sent.
                let echoCode = code ?? .normalClosure
                handle(.sendClose(FrameEncoder.encodeClose(code: echoCode, reason: "", maskingKey: freshMaskingKey()),
                                  code: echoCode))
                if role == .server {
                    handle(.closeConnection)
                }
            } else {
                handle(.closeConnection)
            }
            state = .closed
            buffer = []
        }
    }

    /// RFC 6455 §5.5.1: an empty payload, or a 2-byte code (§7.4) followed by a UTF-8 reason.
    static func parseClose(_ payload: UnsafeRawBufferPointer) throws(WebSocketError) -> (CloseCode?, String) {
        if payload.isEmpty {
            return (nil, "")
        }
        guard payload.count >= 2 else { throw .closePayloadTooShort }
        let raw = UInt16(payload[0]) << 8 | UInt16(payload[1])
        let code = CloseCode(rawValue: raw)
        guard code.isAllowedOnWire else { throw .invalidCloseCode(raw) }
        let reason = UnsafeRawBufferPointer(rebasing: payload[2...])
        guard UTF8Validator.isValid(reason) else { throw .invalidCloseReason }
        return (code, String(decoding: reason, as: UTF8.self))
    }

    /// RFC 6455 §7.1.7: fail the connection, sending a close first unless one was already sent (§5.5.1).
    private mutating func fail(_ error: WebSocketError, _ handle: (WebSocketAction) -> Void) {
        if state == .open {
            let code = error.closeCode
            handle(.sendClose(FrameEncoder.encodeClose(code: code, reason: error.description,
                                                       maskingKey: freshMaskingKey()), code: code))
        }
        handle(.closeConnection)
        state = .closed
        buffer = []
    }
}
