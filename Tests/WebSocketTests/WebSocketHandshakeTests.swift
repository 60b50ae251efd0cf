import Testing
import WebSocket

/// A response split into status, headers and body, for checking what the server wrote.
struct ParsedResponse {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: String

    init(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let text = String(decoding: bytes, as: UTF8.self)
        let parts = text.split(separator: "\r\n\r\n", maxSplits: 1, omittingEmptySubsequences: false)
        let lines = try #require(parts.first, sourceLocation: sourceLocation).split(separator: "\r\n")
        let statusLine = try #require(lines.first, sourceLocation: sourceLocation).split(separator: " ")
        #expect(statusLine.first == "HTTP/1.1", sourceLocation: sourceLocation)
        status = try #require(Int(statusLine[1]), sourceLocation: sourceLocation)
        headers = lines.dropFirst().map { line in
            let colon = line.firstIndex(of: ":")!
            return (String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " }))
        }
        body = parts.count > 1 ? String(parts[1]) : ""
    }

    func value(of name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// The server's decision for a request written as text.
func decision(_ text: String) throws -> WebSocketHandshake.ServerDecision {
    let (head, _) = try #require(try parseHead(text))
    return WebSocketHandshake.serverResponse(to: head)
}

/// A valid upgrade request with `replacing` header lines swapped (nil value removes the header).
func upgradeRequest(method: String = "GET", version: String = "HTTP/1.1",
                    _ replacing: [String: String?] = [:]) -> String {
    var headers: [(String, String)] = [("Host", "example.com"), ("Upgrade", "websocket"), ("Connection", "Upgrade"),
                                       ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
                                       ("Sec-WebSocket-Version", "13")]
    for (name, value) in replacing {
        headers.removeAll { $0.0 == name }
        if let value { headers.append((name, value)) }
    }
    return "\(method) /ws \(version)\r\n" + headers.map { "\($0): \($1)\r\n" }.joined() + "\r\n"
}

@Suite struct WebSocketHandshakeTests {
    @Test func computesRFC6455AcceptValue() {
        // RFC 6455 §1.3.
        #expect(WebSocketHandshake.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func acceptsValidUpgradeWith101() throws {
        guard case .accept(let bytes) = try decision(upgradeRequest()) else {
            Issue.record("expected the upgrade to be accepted")
            return
        }
        #expect(String(decoding: bytes, as: UTF8.self) == "HTTP/1.1 101 Switching Protocols\r\n"
            + "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n")
    }

    @Test(arguments: [
        ("mixed-case tokens", ["Upgrade": "WebSocket", "Connection": "keep-alive, UPGRADE"] as [String: String?]),
        ("lowercase names", ["Upgrade": nil, "upgrade": "websocket"]),
        ("upgrade token list", ["Upgrade": "h2c, websocket"]),
    ])
    func acceptsTokenVariants(_ name: String, _ replacing: [String: String?]) throws {
        guard case .accept = try decision(upgradeRequest(replacing)) else {
            Issue.record("\(name) should be accepted")
            return
        }
    }

    @Test func acceptsConnectionTokensSpreadOverHeaderLines() throws {
        let text = upgradeRequest(["Connection": "keep-alive"]).replacingOccurrences("\r\n\r\n", "\r\nConnection: Upgrade\r\n\r\n")
        guard case .accept = try decision(text) else {
            Issue.record("a second Connection line carries the upgrade token")
            return
        }
    }

    @Test(arguments: [
        ("missing Host", upgradeRequest(["Host": nil]), "Host"),
        ("Upgrade not websocket", upgradeRequest(["Upgrade": "h2c"]), "Upgrade: websocket"),
        ("missing Upgrade", upgradeRequest(["Upgrade": nil]), "Upgrade: websocket"),
        ("Connection without upgrade", upgradeRequest(["Connection": "keep-alive"]), "Connection: Upgrade"),
        ("missing key", upgradeRequest(["Sec-WebSocket-Key": nil]), "Sec-WebSocket-Key"),
        ("key not base64", upgradeRequest(["Sec-WebSocket-Key": "not base64 at all!!!!!!!"]), "Sec-WebSocket-Key"),
        ("key of 15 bytes", upgradeRequest(["Sec-WebSocket-Key": "AAAAAAAAAAAAAAAAAAAA"]), "Sec-WebSocket-Key"),
        ("key of 17 bytes", upgradeRequest(["Sec-WebSocket-Key": "AAAAAAAAAAAAAAAAAAAAAAA="]), "Sec-WebSocket-Key"),
        ("HTTP/1.0", upgradeRequest(version: "HTTP/1.0"), "HTTP/1.1"),
    ])
    func rejectsMalformedUpgradeWith400(_ name: String, _ request: String, _ mentions: String) throws {
        try expectRejection(request, status: 400, mentioning: mentions)
    }

    @Test(arguments: [("missing", nil), ("8", "8"), ("14", "14"), ("list", "13, 8"), ("garbage", "x")] as [(String, String?)])
    func rejectsWrongVersionWith426(_ name: String, _ version: String?) throws {
        let response = try expectRejection(upgradeRequest(["Sec-WebSocket-Version": version]), status: 426,
                                           mentioning: "Sec-WebSocket-Version: 13")
        #expect(response.value(of: "Sec-WebSocket-Version") == "13", "RFC 6455 §4.4 names the supported version")
    }

    @Test(arguments: ["POST", "PUT", "HEAD"])
    func rejectsOtherMethodsWith405(_ method: String) throws {
        let response = try expectRejection(upgradeRequest(method: method), status: 405, mentioning: "GET")
        #expect(response.value(of: "Allow") == "GET")
    }

    @discardableResult
    func expectRejection(_ request: String, status: Int, mentioning: String,
                         sourceLocation: SourceLocation = #_sourceLocation) throws -> ParsedResponse {
        guard case .reject(let bytes, let rejectedStatus) = try decision(request) else {
            Issue.record("expected a \(status) rejection", sourceLocation: sourceLocation)
            throw Rejected()
        }
        #expect(rejectedStatus == status, sourceLocation: sourceLocation)
        let response = try ParsedResponse(bytes, sourceLocation: sourceLocation)
        #expect(response.status == status, sourceLocation: sourceLocation)
        #expect(response.value(of: "Content-Type")?.hasPrefix("text/plain") == true, sourceLocation: sourceLocation)
        #expect(response.value(of: "Connection") == "close", sourceLocation: sourceLocation)
        #expect(response.value(of: "Content-Length") == "\(response.body.utf8.count)", sourceLocation: sourceLocation)
        #expect(response.body.hasSuffix("\n") && response.body.dropLast().allSatisfy { $0 != "\n" },
                "one line", sourceLocation: sourceLocation)
        #expect(response.body.contains(mentioning), "body \(response.body) should say what was wrong",
                sourceLocation: sourceLocation)
        return response
    }

    struct Rejected: Error {}

    @Test func recognisesUpgradeRequests() throws {
        let (upgrade, _) = try #require(try parseHead(upgradeRequest()))
        let (plain, _) = try #require(try parseHead("GET / HTTP/1.1\r\nHost: a\r\n\r\n"))
        #expect(WebSocketHandshake.isUpgradeRequest(upgrade))
        #expect(!WebSocketHandshake.isUpgradeRequest(plain))
    }

    @Test func randomKeysAreSixteenFreshBytes() {
        let keys = (0 ..< 8).map { _ in WebSocketHandshake.randomKey() }
        #expect(keys.allSatisfy { Base64.decode($0)?.count == 16 })
        #expect(Set(keys).count == keys.count)
    }

    @Test func clientRequestIsAcceptedByServerAndResponseValidatedByClient() throws {
        let key = WebSocketHandshake.randomKey()
        let request = WebSocketHandshake.clientRequest(host: "localhost:8080", path: "/ws?room=1", key: key,
                                                       extraHeaders: [("Origin", "http://localhost")])
        let (head, length) = try #require(try request.withUnsafeBytes { (bytes) throws(HTTPRequestError) in
            try HTTPRequestHead.parse(bytes)
        })
        #expect(length == request.count)
        #expect(head.value(of: "origin") == "http://localhost")
        #expect(head.path == "/ws")
        guard case .accept(let response) = WebSocketHandshake.serverResponse(to: head) else {
            Issue.record("our own client request was rejected")
            return
        }
        let frames = hex("81 02 68 69")
        let validated = try (response + frames).withUnsafeBytes { (bytes) throws(WebSocketHandshake.HandshakeError) in
            try WebSocketHandshake.validateServerResponse(bytes, key: key)
        }
        #expect(validated == response.count, "frames start right after the head")
    }

    @Test func clientWaitsForCompleteResponse() throws {
        let key = "dGhlIHNhbXBsZSBub25jZQ=="
        let response = Array(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n").utf8)
        for length in 0 ..< response.count {
            let result = try response[..<length].withUnsafeBytes { (bytes) throws(WebSocketHandshake.HandshakeError) in
                try WebSocketHandshake.validateServerResponse(bytes, key: key)
            }
            #expect(result == nil, "prefix of \(length)")
        }
    }

    // MARK: Sec-WebSocket-Extensions (RFC 6455 §9.1, RFC 7692 §5)

    @Test func serverResponseStatesTheAgreedExtensionsInOneHeaderLine() throws {
        let (head, _) = try #require(try parseHead(upgradeRequest(["Sec-WebSocket-Extensions": "permessage-deflate"])))
        let extensions = "permessage-deflate; client_no_context_takeover; server_max_window_bits=11"
        guard case .accept(let bytes) = WebSocketHandshake.serverResponse(to: head, extensions: extensions) else {
            Issue.record("expected the upgrade to be accepted")
            return
        }
        #expect(String(decoding: bytes, as: UTF8.self) == "HTTP/1.1 101 Switching Protocols\r\n"
            + "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"
            + "Sec-WebSocket-Extensions: \(extensions)\r\n\r\n")
        // An offer alone does not make the server answer with an extension: the caller decides.
        guard case .accept(let declined) = WebSocketHandshake.serverResponse(to: head) else {
            Issue.record("expected the upgrade to be accepted")
            return
        }
        #expect(try ParsedResponse(declined).value(of: "Sec-WebSocket-Extensions") == nil)
    }

    /// A 101 for RFC 6455 §1.3's key with `extensions` as its `Sec-WebSocket-Extensions` lines.
    static func response(extensions: [String]) -> [UInt8] {
        Array(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"
            + extensions.map { "Sec-WebSocket-Extensions: \($0)\r\n" }.joined() + "\r\n").utf8)
    }

    /// What a client offering `permessage-deflate; client_max_window_bits` makes of `bytes`.
    static func acceptance(_ bytes: [UInt8], offered: PerMessageDeflate.Parameters? = WebSocketHandshakeTests.chromiumOffer)
        throws -> WebSocketHandshake.ServerAcceptance?
    {
        try bytes.withUnsafeBytes { (bytes) throws(WebSocketHandshake.HandshakeError) in
            try WebSocketHandshake.validateServerResponse(bytes, key: "dGhlIHNhbXBsZSBub25jZQ==",
                                                          offeredDeflate: offered)
        }
    }

    /// `permessage-deflate; client_max_window_bits`, the offer browsers and our client make.
    static let chromiumOffer: PerMessageDeflate.Parameters = {
        var parameters = PerMessageDeflate.Parameters()
        parameters.clientMaxWindowBits = .supported
        return parameters
    }()

    @Test func clientTakesTheAgreedParameters() throws {
        let head = Self.response(extensions: ["permessage-deflate; client_no_context_takeover; server_max_window_bits=11"])
        // A compressed "Hello" frame right behind the head (RFC 7692 §7.2.3.1).
        let frames = hex("c1 07 f2 48 cd c9 c9 07 00")
        let acceptance = try #require(try Self.acceptance(head + frames))
        var expected = PerMessageDeflate.Parameters()
        expected.clientNoContextTakeover = true
        expected.serverMaxWindowBits = .bits(11)
        #expect(acceptance.length == head.count, "frames start right after the head")
        #expect(acceptance.deflate == expected)
        // Declined: no header, no extension; incomplete: nil, whatever was offered.
        #expect(try Self.acceptance(Self.response(extensions: []))?.deflate == nil)
        #expect(try Self.acceptance(Array(head.dropLast())) == nil)
    }

    @Test func clientRejectsAnExtensionItDidNotOffer() {
        #expect(throws: WebSocketHandshake.HandshakeError.unexpectedExtension) {
            try Self.acceptance(Self.response(extensions: ["permessage-deflate"]), offered: nil)
        }
        // Another extension than the one offered.
        #expect(throws: WebSocketHandshake.HandshakeError.unexpectedExtension) {
            try Self.acceptance(Self.response(extensions: ["x-webkit-deflate-frame"]))
        }
        // permessage-deflate twice, over two header lines.
        #expect(throws: WebSocketHandshake.HandshakeError.unexpectedExtension) {
            try Self.acceptance(Self.response(extensions: ["permessage-deflate", "permessage-deflate"]))
        }
    }

    @Test(arguments: [
        "permessage-deflate; mystery",
        "permessage-deflate; server_max_window_bits=16",
        "permessage-deflate; server_max_window_bits",
        "permessage-deflate; client_no_context_takeover=1",
        // client_max_window_bits without a value is for offers only (RFC 7692 §7.1.2.2).
        "permessage-deflate; client_max_window_bits",
        // Not an extension list at all.
        "permessage-deflate; =",
        "permessage-deflate; x=\"open",
    ])
    func clientRejectsABadParameter(_ extensions: String) throws {
        let error = #expect(throws: WebSocketHandshake.HandshakeError.self) {
            try Self.acceptance(Self.response(extensions: [extensions]))
        }
        guard case .invalidExtension(let why)? = error else {
            Issue.record("expected invalidExtension, got \(String(describing: error))")
            return
        }
        #expect(!why.isEmpty)
    }

    @Test(arguments: [
        ("HTTP/1.1 426 Upgrade Required\r\nSec-WebSocket-Version: 13\r\n\r\n", WebSocketHandshake.HandshakeError.unexpectedStatus(426)),
        ("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n", .missingUpgrade),
        ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n", .missingConnectionUpgrade),
        ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: AAAAAAAAAAAAAAAAAAAAAAAAAAA=\r\n\r\n", .invalidAccept),
        ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n", .invalidAccept),
        ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\nSec-WebSocket-Extensions: permessage-deflate\r\n\r\n", .unexpectedExtension),
        ("HTTP/1.1 1O1 Switching Protocols\r\n\r\n", .malformed("invalid status line")),
    ])
    func clientRejectsBadResponses(_ response: String, _ error: WebSocketHandshake.HandshakeError) {
        #expect(throws: error) {
            try Array(response.utf8).withUnsafeBytes { (bytes) throws(WebSocketHandshake.HandshakeError) in
                try WebSocketHandshake.validateServerResponse(bytes, key: "dGhlIHNhbXBsZSBub25jZQ==")
            }
        }
    }
}

extension String {
    /// Replaces every occurrence of `target` (no Foundation in this package).
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
