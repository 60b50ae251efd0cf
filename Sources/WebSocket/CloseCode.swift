/// A close frame's status code (RFC 6455 §7.4).
///
/// Codes without a named case are kept in `.other` so a peer's code survives a round trip. Equality and hashing
/// go through `rawValue`, so `.other(1000)` equals `.normalClosure`.
public enum CloseCode: Hashable, Sendable, CustomStringConvertible {
    /// 1000: the purpose of the connection was fulfilled.
    case normalClosure
    /// 1001: the endpoint is going away (server shutting down, page navigated away).
    case goingAway
    /// 1002: the peer broke the protocol.
    case protocolError
    /// 1003: a data type the endpoint cannot accept (e.g. binary for a text-only endpoint).
    case unsupportedData
    /// 1007: message data inconsistent with its type, e.g. non-UTF-8 text (§8.1).
    case invalidPayload
    /// 1008: a generic policy violation.
    case policyViolation
    /// 1009: a message too big to process.
    case messageTooBig
    /// 1010: the client expected the server to negotiate an extension.
    case mandatoryExtension
    /// 1011: the server met an unexpected condition.
    case internalError
    /// Any other code, including the IANA-registered 1012-1014 and application codes 3000-4999.
    case other(UInt16)

    /// Maps a wire value to its named case when it has one, else to `.other`.
    public init(rawValue: UInt16) {
        switch rawValue {
        case 1000: self = .normalClosure
        case 1001: self = .goingAway
        case 1002: self = .protocolError
        case 1003: self = .unsupportedData
        case 1007: self = .invalidPayload
        case 1008: self = .policyViolation
        case 1009: self = .messageTooBig
        case 1010: self = .mandatoryExtension
        case 1011: self = .internalError
        default: self = .other(rawValue)
        }
    }

    /// The wire value.
    public var rawValue: UInt16 {
        switch self {
        case .normalClosure: return 1000
        case .goingAway: return 1001
        case .protocolError: return 1002
        case .unsupportedData: return 1003
        case .invalidPayload: return 1007
        case .policyViolation: return 1008
        case .messageTooBig: return 1009
        case .mandatoryExtension: return 1010
        case .internalError: return 1011
        case .other(let code): return code
        }
    }

    /// Whether this code may appear in a close frame, either way.
    ///
    /// RFC 6455 §7.4.1: 1004 is reserved, and 1005, 1006 and 1015 MUST NOT be set in a close frame. §7.4.2:
    /// codes below 1000 are unused and 1016-2999 are reserved for future revisions of the RFC, except those the
    /// IANA registry has since assigned (1012 Service Restart, 1013 Try Again Later, 1014 Bad Gateway, which
    /// newer Autobahn TestSuite releases accept too). 3000-4999 belong to libraries and applications.
    public var isAllowedOnWire: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: return true
        default: return false
        }
    }

    /// The code to actually send when asked to send `self`.
    ///
    /// RFC 6455 §7.4.1: 1005 ("no status code") and 1006 ("abnormal closure") are only ever reported locally,
    /// never sent. Asking to close with "no status" means an ordinary close, so it becomes 1000; any other code
    /// that may not go on the wire means something went wrong on our side, so it becomes 1011.
    public var sendable: CloseCode {
        if isAllowedOnWire { return self }
        return rawValue == 1005 ? .normalClosure : .internalError
    }

    public static func == (lhs: CloseCode, rhs: CloseCode) -> Bool { lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    public var description: String {
        switch self {
        case .other(let code): return "\(code)"
        default: return "\(rawValue) (\(name))"
        }
    }

    private var name: String {
        switch self {
        case .normalClosure: return "normal closure"
        case .goingAway: return "going away"
        case .protocolError: return "protocol error"
        case .unsupportedData: return "unsupported data"
        case .invalidPayload: return "invalid payload"
        case .policyViolation: return "policy violation"
        case .messageTooBig: return "message too big"
        case .mandatoryExtension: return "mandatory extension"
        case .internalError: return "internal error"
        case .other: return "other"
        }
    }
}
