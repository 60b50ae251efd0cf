/// Complete HTTP/1.1 error responses with a one-line `text/plain` body: the one place that formats every
/// rejection (bad upgrade requests, malformed heads), so they all carry the same framing headers.
public enum PlainTextResponse {
    /// A complete response: status line, `Content-Type: text/plain`, `Content-Length`, `Connection: close`,
    /// any extra headers, and `message` plus a newline as body.
    ///
    /// `Connection: close` because after a rejected request the stream state is unknown (RFC 7230 §6.6).
    ///
    /// - Parameters:
    ///   - status: the status code, e.g. 400.
    ///   - message: one human-readable line saying what was wrong.
    ///   - extraHeaders: e.g. `Allow: GET` for 405 or `Sec-WebSocket-Version: 13` for 426.
    /// - Returns: the bytes to write before closing.
    public static func encode(status: Int, message: String, extraHeaders: [(String, String)] = []) -> [UInt8] {
        let body = message + "\n"
        var head = "HTTP/1.1 \(status) \(reasonPhrase(for: status))\r\n"
        head += "Content-Type: text/plain; charset=utf-8\r\n"
        head += "Content-Length: \(body.utf8.count)\r\n"
        head += "Connection: close\r\n"
        for (name, value) in extraHeaders {
            head += "\(name): \(value)\r\n"
        }
        head += "\r\n"
        return Array((head + body).utf8)
    }

    /// The standard reason phrase of the statuses this server sends (RFC 7231 §6.1, RFC 6585).
    public static func reasonPhrase(for status: Int) -> String {
        switch status {
        case 101: return "Switching Protocols"
        case 200: return "OK"
        case 204: return "No Content"
        case 400: return "Bad Request"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 413: return "Payload Too Large"
        case 426: return "Upgrade Required"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 503: return "Service Unavailable"
        case 505: return "HTTP Version Not Supported"
        default: return "Status \(status)"
        }
    }
}
