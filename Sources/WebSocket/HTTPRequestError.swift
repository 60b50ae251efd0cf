/// Why a request head cannot be served, each case with its HTTP status.
public enum HTTPRequestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// 400: the head breaks RFC 7230 syntax; the text says how (it becomes the response body).
    case malformed(String)
    /// 431: no end of head within the size limit (RFC 6585 §5).
    case headersTooLarge
    /// 505: a major HTTP version other than 1.
    case versionNotSupported

    /// The response status for this error.
    public var status: Int {
        switch self {
        case .malformed: return 400
        case .headersTooLarge: return 431
        case .versionNotSupported: return 505
        }
    }

    public var description: String {
        switch self {
        case .malformed(let what): return what
        case .headersTooLarge: return "request head too large"
        case .versionNotSupported: return "only HTTP/1.x is supported"
        }
    }

    /// A complete `text/plain` error response (with `Connection: close`) whose body says what was wrong.
    public var response: [UInt8] {
        HTTPResponse.rejection(status: status, message: description)
    }
}
