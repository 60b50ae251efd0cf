/// An HTTP/1.1 response to serialize onto a connection.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A plain-text response; errors carry one human sentence saying what was wrong.
    public static func text(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array(text.utf8))
    }

    /// A JSON response from already-encoded bytes.
    public static func json(_ body: [UInt8], status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
                     body: body)
    }

    /// Serializes status line, headers, `Content-Length`, `Connection` and (unless `headOnly`) the body.
    public func serialized(keepAlive: Bool, headOnly: Bool = false) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(HTTPResponse.reasonPhrase(status))\r\n"
        for (name, value) in headers {
            head += "\(name): \(value)\r\n"
        }
        head += "Content-Length: \(body.count)\r\n"
        head += keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n"
        var bytes = Array(head.utf8)
        if !headOnly {
            bytes.append(contentsOf: body)
        }
        return bytes
    }

    /// RFC 9110 §15 reason phrases for the statuses this server sends.
    public static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 101: "Switching Protocols"
        case 200: "OK"
        case 204: "No Content"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 426: "Upgrade Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status \(status)"
        }
    }
}

/// How an application answers a plain HTTP request: at once on the event loop, or later.
public enum HTTPReply: Sendable {
    case now(HTTPResponse)
    /// Starts the work and calls the given completion, from any thread, with the response. Preferred to `later`
    /// for answers gathered from other threads (room threads, event loops): nothing waits on the shared pool.
    case deferred(@Sendable (_ respond: @escaping @Sendable (HTTPResponse) -> Void) -> Void)
    /// Computes the response in async code (on Swift's cooperative pool).
    case later(@Sendable () async -> HTTPResponse)
}
