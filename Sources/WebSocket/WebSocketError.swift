/// Every way a peer can break RFC 6455 after the opening handshake.
///
/// `closeCode` is the single place where a failure is mapped to the status code of the close frame we send
/// before dropping the connection (§7.1.7 "Fail the WebSocket Connection").
public enum WebSocketError: Error, Hashable, Sendable, CustomStringConvertible {
    /// RFC 6455 §5.2: RSV1-3 MUST be 0 unless a negotiated extension defines them (RSV1 is permessage-deflate's).
    case reservedBitsSet
    /// RFC 7692 §6.1: RSV1 on a control frame or a continuation frame.
    case misplacedCompressionBit
    /// RFC 7692 §7.2.2: a compressed message that does not inflate (close 1007, the data is not consistent).
    case invalidCompressedData
    /// A compressed message inflating to more than `maxRatio` times its size (close 1009, RFC 6455 §7.4.1:
    /// too big to process), refused as a deflate bomb before it reaches the size cap.
    case inflateRatioExceeded(maxRatio: Int)
    /// RFC 6455 §5.2: a reserved opcode was received.
    case unknownOpcode(WebSocketOpcode)
    /// RFC 6455 §5.1: a server MUST close the connection on an unmasked client frame.
    case unmaskedClientFrame
    /// RFC 6455 §5.1: a client MUST close the connection on a masked server frame.
    case maskedServerFrame
    /// RFC 6455 §5.5: control frames MUST have a payload of 125 bytes or less.
    case controlFrameTooLong
    /// RFC 6455 §5.5: control frames MUST NOT be fragmented.
    case fragmentedControlFrame
    /// RFC 6455 §5.2: the most significant bit of a 64-bit payload length MUST be 0.
    case payloadLengthOverflow
    /// RFC 6455 §5.4: a continuation frame arrived while no fragmented message was in progress.
    case unexpectedContinuation
    /// RFC 6455 §5.4: a new text or binary frame arrived before the fragmented message in progress finished.
    case expectedContinuation
    /// RFC 6455 §7.4.1 (1009): a frame header announced a message beyond the configured cap.
    case messageTooBig(limit: Int)
    /// RFC 6455 §8.1: a text message is not valid UTF-8.
    case invalidUTF8
    /// RFC 6455 §5.5.1: a close payload, when present, starts with a 2-byte code, so 1 byte is malformed.
    case closePayloadTooShort
    /// RFC 6455 §7.4: the close frame carried a code that may not be sent.
    case invalidCloseCode(UInt16)
    /// RFC 6455 §5.5.1: the close reason MUST be UTF-8.
    case invalidCloseReason

    /// The status code of the close frame that fails the connection for this error.
    public var closeCode: CloseCode {
        switch self {
        case .messageTooBig, .inflateRatioExceeded:
            return .messageTooBig
        case .invalidUTF8, .invalidCloseReason, .invalidCompressedData:
            return .invalidPayload
        case .reservedBitsSet, .misplacedCompressionBit, .unknownOpcode, .unmaskedClientFrame, .maskedServerFrame, .controlFrameTooLong,
             .fragmentedControlFrame, .payloadLengthOverflow, .unexpectedContinuation, .expectedContinuation,
             .closePayloadTooShort, .invalidCloseCode:
            return .protocolError
        }
    }

    /// A short reason, also sent as the close frame's reason text (well under the 123 bytes a close allows).
    public var description: String {
        switch self {
        case .reservedBitsSet: return "reserved bits set without a negotiated extension"
        case .misplacedCompressionBit: return "RSV1 on a control or continuation frame"
        case .invalidCompressedData: return "compressed message does not inflate"
        case .inflateRatioExceeded(let ratio): return "compressed message inflates over \(ratio) times its size"
        case .unknownOpcode(let opcode): return "unknown opcode \(opcode.rawValue)"
        case .unmaskedClientFrame: return "client frames must be masked"
        case .maskedServerFrame: return "server frames must not be masked"
        case .controlFrameTooLong: return "control frame payload over 125 bytes"
        case .fragmentedControlFrame: return "control frame without FIN"
        case .payloadLengthOverflow: return "64-bit payload length with the most significant bit set"
        case .unexpectedContinuation: return "continuation frame without a message to continue"
        case .expectedContinuation: return "new data frame before the fragmented message ended"
        case .messageTooBig(let limit): return "message over \(limit) bytes"
        case .invalidUTF8: return "text message is not valid UTF-8"
        case .closePayloadTooShort: return "close payload of 1 byte"
        case .invalidCloseCode(let code): return "invalid close code \(code)"
        case .invalidCloseReason: return "close reason is not valid UTF-8"
        }
    }
}
