import Testing
import WebSocket

/// Parses `text` as a request head.
func parseHead(_ text: String, maxLength: Int = 8192) throws(HTTPRequestError) -> (head: HTTPRequestHead, length: Int)? {
    let result = Array(text.utf8).withUnsafeBytes { bytes in
        Result { () throws(HTTPRequestError) in try HTTPRequestHead.parse(bytes, maxLength: maxLength) }
    }
    return try result.get()
}

/// The error parsing `text` throws, or nil.
func parseError(_ text: String, maxLength: Int = 8192) -> HTTPRequestError? {
    do {
        _ = try parseHead(text, maxLength: maxLength)
        return nil
    } catch {
        return error
    }
}

@Suite struct HTTPRequestHeadTests {
    static let upgrade = "GET /ws?room=abc HTTP/1.1\r\n"
        + "Host: example.com\r\n"
        + "Upgrade: websocket\r\n"
        + "Connection: keep-alive, Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        + "Sec-WebSocket-Version: 13\r\n"
        + "\r\n"

    @Test func parsesRequestLineAndHeaders() throws {
        let (head, length) = try #require(try parseHead(Self.upgrade))
        #expect(length == Self.upgrade.utf8.count)
        #expect(head.method == "GET")
        #expect(head.target == "/ws?room=abc")
        #expect(head.path == "/ws")
        #expect(head.query == "room=abc")
        #expect(head.versionMinor == 1)
        #expect(head.headers.count == 5)
        #expect(head.headers.first?.name == "Host" && head.headers.first?.value == "example.com")
    }

    @Test func looksUpHeaderNamesCaseInsensitively() throws {
        let (head, _) = try #require(try parseHead(Self.upgrade))
        #expect(head.value(of: "host") == "example.com")
        #expect(head.value(of: "SEC-WEBSOCKET-VERSION") == "13")
        #expect(head.value(of: "Origin") == nil)
    }

    @Test func splitsTokenListsAcrossRepeatedHeaders() throws {
        let text = "GET / HTTP/1.1\r\nConnection: keep-alive,  Upgrade \r\nconnection: ,close\r\nHost: a\r\n\r\n"
        let (head, _) = try #require(try parseHead(text))
        #expect(head.tokens(of: "Connection") == ["keep-alive", "upgrade", "close"])
        #expect(head.tokens(of: "Upgrade") == [])
    }

    @Test func trimsOptionalWhitespaceAroundValues() throws {
        let (head, _) = try #require(try parseHead("GET / HTTP/1.1\r\nHost: \t a b \t\r\nX-Empty:\r\n\r\n"))
        #expect(head.value(of: "host") == "a b")
        #expect(head.value(of: "x-empty") == "")
    }

    @Test func returnsNilForEveryStrictPrefix() throws {
        let bytes = Array(Self.upgrade.utf8)
        for length in 0 ..< bytes.count {
            let result = try bytes[..<length].withUnsafeBytes { try HTTPRequestHead.parse($0) }
            #expect(result == nil, "prefix of \(length)")
        }
    }

    @Test func reportsHeadLengthBeforeFollowingBytes() throws {
        let (_, length) = try #require(try parseHead(Self.upgrade + "\u{81}\u{85}rest of the stream"))
        #expect(length == Self.upgrade.utf8.count)
    }

    @Test(arguments: [
        ("obs-fold", "GET / HTTP/1.1\r\nHost: a\r\nX-Long: one\r\n two\r\n\r\n"),
        ("header without colon", "GET / HTTP/1.1\r\nHost a\r\n\r\n"),
        ("space before colon", "GET / HTTP/1.1\r\nHost : a\r\n\r\n"),
        ("empty header name", "GET / HTTP/1.1\r\n: a\r\n\r\n"),
        ("bare LF", "GET / HTTP/1.1\nHost: a\n\n"),
        ("bare LF in header", "GET / HTTP/1.1\r\nHost: a\n\r\n"),
        ("bare CR", "GET / HTTP/1.1\rHost: a\r\n\r\n"),
        ("control character in value", "GET / HTTP/1.1\r\nHost: a\u{01}b\r\n\r\n"),
        ("missing target", "GET HTTP/1.1\r\nHost: a\r\n\r\n"),
        ("double space", "GET  / HTTP/1.1\r\nHost: a\r\n\r\n"),
        ("space in target", "GET /a b HTTP/1.1\r\nHost: a\r\n\r\n"),
        ("lowercase version", "GET / http/1.1\r\nHost: a\r\n\r\n"),
        ("two-digit minor version", "GET / HTTP/1.10\r\nHost: a\r\n\r\n"),
        ("no version", "GET /\r\nHost: a\r\n\r\n"),
        ("invalid method", "G(T / HTTP/1.1\r\nHost: a\r\n\r\n"),
    ])
    func rejectsMalformedHeadsWith400(_ name: String, _ text: String) {
        let error = parseError(text)
        #expect(error?.status == 400, "\(name): \(String(describing: error))")
    }

    /// RFC 9112 §6.3: a body length two parties could read differently is a 400, so no proxy and this server
    /// can disagree on where the next request starts (request smuggling).
    @Test(arguments: [
        ("two Content-Length headers", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\nContent-Length: 30\r\n\r\n"),
        ("two equal Content-Length headers", "GET / HTTP/1.1\r\nContent-Length: 0\r\ncontent-length: 0\r\n\r\n"),
        ("a Content-Length list", "GET / HTTP/1.1\r\nContent-Length: 0, 0\r\n\r\n"),
        ("a signed Content-Length", "GET / HTTP/1.1\r\nContent-Length: +5\r\n\r\n"),
        ("a hexadecimal Content-Length", "GET / HTTP/1.1\r\nContent-Length: 0x10\r\n\r\n"),
        ("an empty Content-Length", "GET / HTTP/1.1\r\nContent-Length:\r\n\r\n"),
        ("Content-Length with Transfer-Encoding",
         "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n"),
    ])
    func rejectsAmbiguousBodyLengthsWith400(_ name: String, _ text: String) {
        let error = parseError(text)
        #expect(error?.status == 400, "\(name): \(String(describing: error))")
    }

    @Test func readsASingleContentLength() throws {
        let (head, _) = try #require(try parseHead("GET / HTTP/1.1\r\nContent-Length: 0042\r\n\r\n"))
        #expect(head.contentLength == 42)
        let (huge, _) = try #require(try parseHead("GET / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n"))
        #expect(huge.contentLength == Int.max)
        let (none, _) = try #require(try parseHead("GET / HTTP/1.1\r\nHost: a\r\n\r\n"))
        #expect(none.contentLength == nil)
    }

    @Test func skipsEmptyLinesBeforeRequestLine() throws {
        let text = "\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n"
        let (head, length) = try #require(try parseHead(text))
        #expect(head.method == "GET")
        #expect(length == text.utf8.count)
        #expect(parseError("\r\n\r\n\r\n", maxLength: 6) == .headersTooLarge)
        #expect(try parseHead("\r\n\r\n") == nil)
    }

    @Test func rejectsOtherMajorVersionWith505() {
        #expect(parseError("GET / HTTP/2.0\r\nHost: a\r\n\r\n") == .versionNotSupported)
        #expect(HTTPRequestError.versionNotSupported.status == 505)
    }

    @Test func rejectsHeadThatDoesNotEndWithinLimitWith431() {
        let long = "GET / HTTP/1.1\r\nX-Filler: " + String(repeating: "x", count: 9000) + "\r\n\r\n"
        #expect(parseError(long) == .headersTooLarge)
        #expect(HTTPRequestError.headersTooLarge.status == 431)
        // An incomplete head that already fills the limit can never fit.
        #expect(parseError("GET / HTTP/1.1\r\nHost: aaaaaaaaaa", maxLength: 20) == .headersTooLarge)
        // A head of exactly the limit fits.
        let exact = "GET / HTTP/1.1\r\n\r\n"
        #expect(parseError(exact, maxLength: exact.utf8.count) == nil)
    }

    @Test(arguments: [
        (1, "", true), (1, "Connection: close\r\n", false), (1, "Connection: Keep-Alive\r\n", true),
        (0, "", false), (0, "Connection: keep-alive\r\n", true), (0, "Connection: keep-alive, close\r\n", false),
    ])
    func decidesKeepAlive(_ minor: Int, _ header: String, _ keepAlive: Bool) throws {
        let (head, _) = try #require(try parseHead("GET / HTTP/1.\(minor)\r\nHost: a\r\n\(header)\r\n"))
        #expect(head.versionMinor == minor)
        #expect(head.keepAlive == keepAlive)
    }

    @Test func keepsTargetWithoutQuery() throws {
        let (head, _) = try #require(try parseHead("GET /index.html HTTP/1.1\r\nHost: a\r\n\r\n"))
        #expect(head.path == "/index.html")
        #expect(head.query == nil)
    }

    @Test func errorResponsesAreCompletePlainText() {
        let response = String(decoding: HTTPRequestError.malformed("header line without a colon").response, as: UTF8.self)
        #expect(response.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(response.hasSuffix("\r\n\r\nheader line without a colon\n"))
        #expect(response.contains("Connection: close\r\n"))
    }
}
