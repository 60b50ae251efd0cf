/// An HTTP/1.x request head (RFC 7230 §3): request line and header fields, for the WebSocket upgrade and for
/// plain HTTP serving.
public struct HTTPRequestHead: Sendable {
    /// The method token, case-sensitive (RFC 7231 §4.1).
    public var method: String
    /// The request target as sent.
    public var target: String
    /// `target` up to the first `?`.
    public var path: String
    /// `target` after the first `?`, or nil when it has none.
    public var query: String?
    /// x in HTTP/1.x.
    public var versionMinor: Int
    /// Header fields in order, repeated names kept as separate entries; values have surrounding OWS trimmed.
    public var headers: [(name: String, value: String)]

    /// A head built directly (tests, clients); `path` and `query` are derived from `target`.
    public init(method: String, target: String, versionMinor: Int = 1, headers: [(name: String, value: String)]) {
        self.method = method
        self.target = target
        if let mark = target.firstIndex(of: "?") {
            path = String(target[..<mark])
            query = String(target[target.index(after: mark)...])
        } else {
            path = target
            query = nil
        }
        self.versionMinor = versionMinor
        self.headers = headers
    }

    /// The first value of header `name`, compared case-insensitively (RFC 7230 §3.2).
    public func value(of name: String) -> String? {
        HTTPHead.value(of: name, in: headers)
    }

    /// Every comma-separated element of every `name` header, trimmed and lowercased, so that
    /// `Connection: keep-alive, Upgrade` gives `["keep-alive", "upgrade"]` (RFC 7230 §7).
    public func tokens(of name: String) -> [String] {
        HTTPHead.tokens(of: name, in: headers)
    }

    /// The request's `Content-Length`: nil when it has none; `Int.max` for a length too large to represent.
    /// The value is checked by `parse` (one header, digits only); a head built directly gives nil for a value
    /// that is not digits.
    public var contentLength: Int? {
        guard let text = value(of: "content-length"), !text.isEmpty,
              text.utf8.allSatisfy({ HTTPHead.digit($0) != nil }) else { return nil }
        return Int(text) ?? Int.max
    }

    /// Whether the connection stays open after the response (RFC 7230 §6.3): by default in HTTP/1.1 unless
    /// `Connection: close`; in HTTP/1.0 only with `Connection: keep-alive`.
    public var keepAlive: Bool {
        let connection = tokens(of: "connection")
        if connection.contains("close") { return false }
        return versionMinor >= 1 || connection.contains("keep-alive")
    }

    /// Parses a request head from the start of `bytes`.
    ///
    /// RFC 7230 §3.1.1: `method SP request-target SP HTTP-version CRLF`, then header fields, then an empty
    /// line. Lines must end with CRLF; empty lines before the request line are skipped (and counted in the
    /// length).
    ///
    /// - Parameters:
    ///   - bytes: received bytes; a body or pipelined data may follow the head.
    ///   - maxLength: the largest head accepted, empty line included.
    /// - Returns: nil when the head is incomplete; else the head and its length through the empty line.
    /// - Throws: `.malformed` (400), also for a request whose body length is ambiguous (see
    ///   `checkMessageFraming`), `.headersTooLarge` (431) when no head ends within `maxLength` bytes,
    ///   `.versionNotSupported` (505).
    public static func parse(_ bytes: UnsafeRawBufferPointer,
                             maxLength: Int = 8192) throws(HTTPRequestError) -> (head: HTTPRequestHead, length: Int)? {
        // RFC 7230 §3.5: a server SHOULD ignore empty lines before the request line (some clients send a CRLF
        // after a request body).
        var skipped = 0
        while skipped + 1 < bytes.count && bytes[skipped] == HTTPHead.cr && bytes[skipped + 1] == HTTPHead.lf {
            skipped += 2
        }
        guard skipped < maxLength else { throw .headersTooLarge }
        let rest = UnsafeRawBufferPointer(rebasing: bytes[skipped...])
        guard let headLength = try HTTPHead.length(of: rest, maxLength: maxLength - skipped) else { return nil }
        let (line, headers) = try HTTPHead.split(UnsafeRawBufferPointer(rebasing: rest[..<headLength]))
        let length = skipped + headLength
        let parts = line.split(separator: HTTPHead.space, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("request line is not: method SP target SP version") }
        let method = UnsafeRawBufferPointer(rebasing: parts[0])
        let target = UnsafeRawBufferPointer(rebasing: parts[1])
        guard !method.isEmpty, method.allSatisfy(HTTPHead.isTokenCharacter) else {
            throw .malformed("invalid method")
        }
        guard !target.isEmpty, target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .malformed("invalid request target")
        }
        let minor = try HTTPHead.versionMinor(UnsafeRawBufferPointer(rebasing: parts[2]))
        try checkMessageFraming(headers)
        let head = HTTPRequestHead(method: String(decoding: method, as: UTF8.self),
                                   target: String(decoding: target, as: UTF8.self),
                                   versionMinor: minor, headers: headers)
        return (head, length)
    }

    /// Refuses a head whose body length two parties could read differently: the way one request is smuggled
    /// inside another, when a proxy and this server split the same bytes into different requests.
    ///
    /// RFC 9112 §6.3: a request with both `Transfer-Encoding` and `Content-Length` may be rejected (it is here),
    /// and a `Content-Length` that is not a single valid value (two headers, a list, anything but digits) is an
    /// unrecoverable error answered with 400. Repeats of the same value are refused too: §6.3 allows either,
    /// and no honest client sends them.
    static func checkMessageFraming(_ headers: [(name: String, value: String)]) throws(HTTPRequestError) {
        var lengths = 0
        var transferEncoding = false
        for header in headers {
            if HTTPHead.equalsIgnoringCase(header.name, "content-length") {
                lengths += 1
                guard lengths == 1 else { throw .malformed("more than one Content-Length header") }
                guard !header.value.isEmpty, header.value.utf8.allSatisfy({ HTTPHead.digit($0) != nil }) else {
                    throw .malformed("Content-Length is not a number of bytes")
                }
            } else if HTTPHead.equalsIgnoringCase(header.name, "transfer-encoding") {
                transferEncoding = true
            }
        }
        if lengths > 0 && transferEncoding {
            throw .malformed("both Content-Length and Transfer-Encoding")
        }
    }
}
