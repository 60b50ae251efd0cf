/// The opening handshake (RFC 6455 §4), both sides.
public enum WebSocketHandshake {
    /// RFC 6455 §1.3: appended to the client's key before hashing into `Sec-WebSocket-Accept`.
    public static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
    /// RFC 6455 §4.1: the only protocol version this implementation speaks.
    public static let version = "13"
    /// RFC 6455 §4.1: the key is 16 random bytes, base64-encoded.
    static let keyByteCount = 16

    /// RFC 6455 §4.2.2: base64(SHA-1(key + GUID)), proving the server read this handshake.
    ///
    /// - Parameter key: the client's `Sec-WebSocket-Key` value as sent.
    /// - Returns: the `Sec-WebSocket-Accept` value.
    public static func acceptValue(forKey key: String) -> String {
        var sha = SHA1()
        sha.update(key.utf8)
        sha.update(guid.utf8)
        return Base64.encode(sha.finalize())
    }

    /// Whether the request asks for a protocol upgrade at all (has an `Upgrade` header, whatever its value),
    /// i.e. should go to `serverResponse(to:)` rather than be served as plain HTTP.
    public static func isUpgradeRequest(_ head: HTTPRequestHead) -> Bool {
        head.value(of: "upgrade") != nil
    }

    /// The server's verdict on an upgrade request.
    public enum ServerDecision: Sendable {
        /// The complete `101 Switching Protocols` response; frames follow it.
        case accept([UInt8])
        /// A complete error response (`Connection: close`) and its status; close after writing it.
        case reject([UInt8], status: Int)
    }

    /// Validates an upgrade request (RFC 6455 §4.2.1) and builds the response (§4.2.2).
    ///
    /// Rejections: 405 with `Allow: GET` when the method is not GET; 426 with `Sec-WebSocket-Version: 13` when
    /// the version is missing or not 13 (§4.2.2); 400 for anything else malformed. No subprotocol is
    /// negotiated; the extensions are the caller's choice (`PerMessageDeflate.accept`).
    ///
    /// - Parameters:
    ///   - head: a parsed request head.
    ///   - extensions: the `Sec-WebSocket-Extensions` value agreed to (RFC 6455 §9.1), or nil for none.
    /// - Returns: the decision, with the bytes to write.
    public static func serverResponse(to head: HTTPRequestHead, extensions: String? = nil) -> ServerDecision {
        func reject(_ status: Int, _ message: String, _ extraHeaders: [(String, String)] = []) -> ServerDecision {
            .reject(HTTPResponse.rejection(status: status, message: message, extraHeaders: extraHeaders),
                    status: status)
        }
        // RFC 6455 §4.2.1 item 1: the method MUST be GET and the version at least HTTP/1.1.
        guard head.method == "GET" else {
            return reject(405, "WebSocket upgrade requires GET, not \(head.method)", [("Allow", "GET")])
        }
        guard head.versionMinor >= 1 else { return reject(400, "WebSocket upgrade requires HTTP/1.1") }
        // Item 2 (and RFC 7230 §5.4: exactly one Host).
        let hosts = head.headers.filter { HTTPHead.equalsIgnoringCase($0.name, "host") }
        guard hosts.count == 1 else { return reject(400, "expected exactly one Host header") }
        // Items 3 and 4: the tokens compare ASCII case-insensitively.
        guard head.tokens(of: "upgrade").contains("websocket") else {
            return reject(400, "expected Upgrade: websocket")
        }
        guard head.tokens(of: "connection").contains("upgrade") else {
            return reject(400, "expected Connection: Upgrade")
        }
        // Item 6 and §4.4: any version but 13 gets 426 naming the one we speak.
        guard head.tokens(of: "sec-websocket-version") == [version] else {
            return reject(426, "expected Sec-WebSocket-Version: 13", [("Sec-WebSocket-Version", version)])
        }
        // Item 5: the key must decode to 16 bytes.
        let keys = head.headers.filter { HTTPHead.equalsIgnoringCase($0.name, "sec-websocket-key") }
        guard keys.count == 1, let key = keys.first?.value, Base64.decode(key)?.count == keyByteCount else {
            return reject(400, "expected one Sec-WebSocket-Key of 16 base64-encoded bytes")
        }
        var response = "HTTP/1.1 101 Switching Protocols\r\n"
            + "Upgrade: websocket\r\n"
            + "Connection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: \(acceptValue(forKey: key))\r\n"
        if let extensions {
            response += "Sec-WebSocket-Extensions: \(extensions)\r\n"
        }
        response += "\r\n"
        return .accept(Array(response.utf8))
    }

    /// A fresh `Sec-WebSocket-Key`: 16 bytes from the system's secure random source, base64-encoded.
    ///
    /// RFC 6455 §4.1: the nonce MUST be randomly selected for each connection.
    public static func randomKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64.encode((0..<keyByteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// The client's upgrade request (RFC 6455 §4.1).
    ///
    /// - Parameters:
    ///   - host: the `Host` value (host, or host:port).
    ///   - path: the request target, e.g. `/ws?room=abc`.
    ///   - key: from `randomKey()`; keep it to validate the response.
    ///   - extraHeaders: e.g. `Origin` or `Sec-WebSocket-Protocol`.
    /// - Returns: the request bytes.
    public static func clientRequest(host: String, path: String, key: String,
                                     extraHeaders: [(String, String)] = []) -> [UInt8] {
        var request = "GET \(path) HTTP/1.1\r\n"
            + "Host: \(host)\r\n"
            + "Upgrade: websocket\r\n"
            + "Connection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\n"
            + "Sec-WebSocket-Version: \(version)\r\n"
        for (name, value) in extraHeaders {
            request += "\(name): \(value)\r\n"
        }
        request += "\r\n"
        return Array(request.utf8)
    }

    /// Why a server's handshake response is refused (RFC 6455 §4.1, "the client MUST Fail the WebSocket
    /// Connection").
    public enum HandshakeError: Error, Hashable, Sendable {
        /// The response head breaks HTTP syntax; the text says how.
        case malformed(String)
        /// No end of the response head within the size limit.
        case headersTooLarge
        /// The status was not 101 (e.g. 426 or 403); the connection is not upgraded.
        case unexpectedStatus(Int)
        /// No `Upgrade: websocket`.
        case missingUpgrade
        /// No `Connection: Upgrade`.
        case missingConnectionUpgrade
        /// `Sec-WebSocket-Accept` missing or not derived from our key.
        case invalidAccept
        /// The server named an extension we did not ask for.
        case unexpectedExtension
        /// The server's permessage-deflate response breaks RFC 7692 §7.1 (the client must fail, §5); says how.
        case invalidExtension(String)
    }

    /// A valid 101: where the frames start, and the permessage-deflate parameters the server agreed to.
    public struct ServerAcceptance: Sendable, Hashable {
        /// The response head's length: frames start right after it.
        public var length: Int
        /// The agreed parameters when the server accepted the offer, nil when it declined (or none was made).
        public var deflate: PerMessageDeflate.Parameters?
    }

    /// Validates the server's response to `clientRequest` (RFC 6455 §4.1), with the extension check of RFC 7692 §5.
    ///
    /// - Parameters:
    ///   - bytes: received bytes; frames may follow the head.
    ///   - key: the key sent in the request.
    ///   - offeredDeflate: the parameters of the one permessage-deflate offer sent, or nil when none was.
    /// - Returns: nil when the head is incomplete; else where frames start and what was agreed.
    /// - Throws: as `validateServerResponse(_:key:)`, and `invalidExtension` / `unexpectedExtension` when the
    ///   extension response must fail the connection.
    public static func validateServerResponse(_ bytes: UnsafeRawBufferPointer, key: String,
                                              offeredDeflate: PerMessageDeflate.Parameters?)
        throws(HandshakeError) -> ServerAcceptance?
    {
        guard let (length, headers) = try validateHead(bytes, key: key) else { return nil }
        let values = headers.filter { HTTPHead.equalsIgnoringCase($0.name, "sec-websocket-extensions") }.map(\.value)
        guard !values.isEmpty else { return ServerAcceptance(length: length, deflate: nil) }
        // RFC 6455 §4.1 item 5: an extension not requested fails the connection.
        guard let offeredDeflate else { throw .unexpectedExtension }
        do {
            let elements = try ExtensionOffer.parse(values)
            let agreed = try PerMessageDeflate.check(elements, offered: offeredDeflate)
            return ServerAcceptance(length: length, deflate: agreed)
        } catch let error as ExtensionOffer.ParseError {
            throw .invalidExtension("malformed Sec-WebSocket-Extensions (\(error))")
        } catch let error as PerMessageDeflate.Parameters.Refusal {
            if case .unexpectedExtension = error { throw .unexpectedExtension }
            throw .invalidExtension("\(error)")
        } catch {
            throw .invalidExtension("\(error)")
        }
    }

    /// Validates the server's response to `clientRequest` (RFC 6455 §4.1, the client's checks).
    ///
    /// - Parameters:
    ///   - bytes: received bytes; frames may follow the head.
    ///   - key: the key sent in the request.
    /// - Returns: nil when the head is incomplete; else its length (frames start right after it).
    /// - Throws: when the response is malformed, its status is not 101, or the `Upgrade`, `Connection` or
    ///   `Sec-WebSocket-Accept` headers are wrong.
    public static func validateServerResponse(_ bytes: UnsafeRawBufferPointer,
                                              key: String) throws(HandshakeError) -> Int? {
        guard let (length, headers) = try validateHead(bytes, key: key) else { return nil }
        // RFC 6455 §4.1 item 5: we request no extension, so any in the response fails the connection.
        guard HTTPHead.value(of: "sec-websocket-extensions", in: headers) == nil else { throw .unexpectedExtension }
        return length
    }

    /// The checks every 101 must pass: status, `Upgrade`, `Connection`, `Sec-WebSocket-Accept`.
    private static func validateHead(_ bytes: UnsafeRawBufferPointer, key: String)
        throws(HandshakeError) -> (Int, [(name: String, value: String)])?
    {
        let length: Int
        let statusLine: UnsafeRawBufferPointer
        let headers: [(name: String, value: String)]
        do throws(HTTPRequestError) {
            guard let headLength = try HTTPHead.length(of: bytes, maxLength: 8192) else { return nil }
            length = headLength
            (statusLine, headers) = try HTTPHead.split(UnsafeRawBufferPointer(rebasing: bytes[..<length]))
        } catch {
            switch error {
            case .headersTooLarge: throw .headersTooLarge
            case .malformed(let what): throw .malformed(what)
            case .versionNotSupported: throw .malformed(error.description)
            }
        }
        // RFC 7230 §3.1.2: HTTP-version SP status-code SP reason-phrase.
        let parts = statusLine.split(separator: HTTPHead.space, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, (try? HTTPHead.versionMinor(UnsafeRawBufferPointer(rebasing: parts[0]))) != nil,
              parts[1].count == 3, parts[1].allSatisfy({ HTTPHead.digit($0) != nil }) else {
            throw .malformed("invalid status line")
        }
        let status = parts[1].reduce(0) { $0 * 10 + HTTPHead.digit($1)! }
        guard status == 101 else { throw .unexpectedStatus(status) }
        guard HTTPHead.tokens(of: "upgrade", in: headers).contains("websocket") else { throw .missingUpgrade }
        guard HTTPHead.tokens(of: "connection", in: headers).contains("upgrade") else {
            throw .missingConnectionUpgrade
        }
        guard HTTPHead.value(of: "sec-websocket-accept", in: headers) == acceptValue(forKey: key) else {
            throw .invalidAccept
        }
        return (length, headers)
    }
}
