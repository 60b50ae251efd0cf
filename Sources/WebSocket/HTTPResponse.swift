/// An HTTP/1.1 response: the one type every answer of this server is built with, from pages and JSON to the
/// handshake's rejections, so every status line takes its reason phrase from one table.
///
/// Pure (no I/O), so the opening-handshake code in this module builds its rejections with it too.
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

    /// A rejection of a request the stream cannot continue after (a bad upgrade, a malformed head), serialized
    /// with `Connection: close` (RFC 9110 §9.6: after a rejected request the stream state is unknown).
    ///
    /// - Parameters:
    ///   - status: the status code, e.g. 400.
    ///   - message: one human-readable line saying what was wrong; the body is it plus a newline.
    ///   - extraHeaders: e.g. `Allow: GET` for 405 or `Sec-WebSocket-Version: 13` for 426.
    /// - Returns: the bytes to write before closing.
    public static func rejection(status: Int, message: String, extraHeaders: [(String, String)] = []) -> [UInt8] {
        var response = HTTPResponse.text(message + "\n", status: status)
        for (name, value) in extraHeaders {
            response.headers.append((name, value))
        }
        return response.serialized(keepAlive: false)
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
        case 401: "Unauthorized"
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
