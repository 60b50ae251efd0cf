// libFuzzer target for the opening handshake: the HTTP head parser (with its body-length rules), upgrade
// validation, the client's response check, Base64 and SHA-1. Every invariant violation traps, which libFuzzer
// reports as a crash.
import WebSocket

func parse(_ bytes: ArraySlice<UInt8>, maxLength: Int) -> Result<(head: HTTPRequestHead, length: Int)?, HTTPRequestError> {
    bytes.withUnsafeBytes { buffer in
        Result { () throws(HTTPRequestError) in try HTTPRequestHead.parse(buffer, maxLength: maxLength) }
    }
}

/// Checks that `response` is one complete HTTP/1.1 response whose Content-Length matches its body.
func checkResponse(_ response: [UInt8], status: Int) {
    let text = String(decoding: response, as: UTF8.self)
    precondition(text.hasPrefix("HTTP/1.1 \(status) "), "wrong status line")
    let parts = text.split(separator: "\r\n\r\n", maxSplits: 1, omittingEmptySubsequences: false)
    precondition(parts.count == 2, "no end of head")
    if status != 101 {
        let lengthLine = parts[0].split(separator: "\r\n").first { $0.hasPrefix("Content-Length: ") }
        precondition(lengthLine.flatMap { Int($0.dropFirst(16)) } == parts[1].utf8.count, "bad Content-Length")
        precondition(parts[0].contains("Connection: close"), "rejection without Connection: close")
    } else {
        precondition(parts[1].isEmpty, "body after 101")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let maxLength = size > 0 && bytes[0] & 1 == 1 ? 64 : 8192

    // The request parser never traps; a head it finds parses again identically alone, and one byte short of it
    // is incomplete.
    switch parse(bytes[...], maxLength: maxLength) {
    case .success(let parsed?):
        let (head, length) = parsed
        precondition(length > 0 && length <= size && length <= maxLength, "head length out of range")
        guard case .success(let again?) = parse(bytes[..<length], maxLength: maxLength), again.length == length,
              again.head.target == head.target, again.head.headers.count == head.headers.count else {
            preconditionFailure("head does not parse the same alone")
        }
        guard case .success(nil) = parse(bytes[..<(length - 1)], maxLength: maxLength) else {
            preconditionFailure("the head minus its last byte is not simply incomplete")
        }
        precondition(head.path.utf8.count <= head.target.utf8.count, "path longer than target")
        // RFC 9112 §6.3: an accepted head has one body length at most, so no second request hides in a body.
        let lengths = head.headers.filter { $0.name.lowercased() == "content-length" }
        precondition(lengths.count <= 1, "two Content-Length headers accepted")
        precondition(lengths.isEmpty || head.value(of: "transfer-encoding") == nil,
                     "Content-Length and Transfer-Encoding accepted together")
        if let length = lengths.first {
            precondition(!length.value.isEmpty && length.value.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 },
                         "a Content-Length that is not digits accepted")
            precondition(head.contentLength != nil, "an accepted Content-Length does not read as a length")
        }
        switch WebSocketHandshake.serverResponse(to: head) {
        case .accept(let response):
            checkResponse(response, status: 101)
            let key = head.value(of: "sec-websocket-key") ?? ""
            precondition(Base64.decode(key)?.count == 16, "accepted a bad key")
            // Our client accepts what our server answers.
            let validated = response.withUnsafeBytes { buffer in
                Result { () throws(WebSocketHandshake.HandshakeError) in
                    try WebSocketHandshake.validateServerResponse(buffer, key: key)
                }
            }
            guard case .success(response.count?) = validated else { preconditionFailure("client refused our 101") }
        case .reject(let response, let status):
            precondition([400, 405, 426].contains(status), "unexpected rejection status \(status)")
            checkResponse(response, status: status)
        }
    case .success(nil):
        precondition(size < maxLength, "incomplete head beyond the limit")
    case .failure(let error):
        precondition([400, 431, 505].contains(error.status), "unexpected error status")
        checkResponse(error.response, status: error.status)
    }

    // The client's response check never traps and never reports a length beyond the input.
    let validated = bytes.withUnsafeBytes { buffer in
        Result { () throws(WebSocketHandshake.HandshakeError) in
            try WebSocketHandshake.validateServerResponse(buffer, key: "dGhlIHNhbXBsZSBub25jZQ==")
        }
    }
    if case .success(let length?) = validated { precondition(length <= size, "response length out of range") }

    // Base64 decoding is strict: whatever decodes re-encodes to the same text; encoding round trips.
    if let decoded = Base64.decode(bytes: bytes) {
        precondition(Array(Base64.encode(decoded).utf8) == bytes, "non-canonical base64 accepted")
    }
    precondition(Base64.decode(Base64.encode(bytes)) == bytes, "base64 round trip failed")

    // SHA-1 gives the same digest however the input is fed.
    let whole = SHA1.hash(bytes)
    var split = SHA1()
    let cut = size == 0 ? 0 : Int(bytes[0]) % (size + 1)
    split.update(bytes[..<cut])
    split.update(bytes[cut...])
    precondition(split.finalize() == whole && whole.count == 20, "SHA-1 split digest differs")
    return 0
}
