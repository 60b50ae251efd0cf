/// The syntax shared by request and response heads (RFC 7230 §3): finding the end of the head and splitting
/// header fields. `HTTPRequestHead` and the client handshake add their own start-line parsing on top.
enum HTTPHead {
    static let cr = UInt8(ascii: "\r")
    static let lf = UInt8(ascii: "\n")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let colon = UInt8(ascii: ":")

    /// The length of the head at the start of `bytes`, through its empty line.
    ///
    /// - Returns: nil when the head may still complete (fewer than `maxLength` bytes and no empty line yet).
    /// - Throws: `.malformed` on a bare LF or bare CR (RFC 7230 §3.5 lets a server reject them; we require CRLF),
    ///   `.headersTooLarge` when the first `maxLength` bytes hold no complete head.
    static func length(of bytes: UnsafeRawBufferPointer, maxLength: Int) throws(HTTPRequestError) -> Int? {
        let limit = min(bytes.count, maxLength)
        var lineStart = 0
        var index = 0
        while index < limit {
            let byte = bytes[index]
            if byte == lf {
                guard index > 0 && bytes[index - 1] == cr else {
                    throw .malformed("line ends with a bare LF, expected CRLF")
                }
                if index - 1 == lineStart && lineStart > 0 {
                    return index + 1
                }
                lineStart = index + 1
            } else if index > 0 && bytes[index - 1] == cr {
                throw .malformed("CR not followed by LF")
            }
            index += 1
        }
        if bytes.count >= maxLength {
            throw .headersTooLarge
        }
        return nil
    }

    /// Splits a complete head (as measured by `length(of:maxLength:)`) into its start line and header fields.
    ///
    /// RFC 7230 §3.2: `field-name ":" OWS field-value OWS`, the name a token with no whitespace before the
    /// colon (§3.2.4), obsolete line folding rejected (§3.2.4 allows a 400), and no control characters in
    /// values.
    static func split(_ head: UnsafeRawBufferPointer) throws(HTTPRequestError)
        -> (startLine: UnsafeRawBufferPointer, headers: [(name: String, value: String)]) {
        var lines: [UnsafeRawBufferPointer] = []
        var lineStart = 0
        // Each line ends with CRLF (checked by `length`); the last line is the empty one.
        for index in 0..<head.count where head[index] == lf {
            lines.append(UnsafeRawBufferPointer(rebasing: head[lineStart ..< index - 1]))
            lineStart = index + 1
        }
        guard let startLine = lines.first, !startLine.isEmpty else { throw .malformed("empty start line") }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst().dropLast() {
            headers.append(try field(line))
        }
        return (startLine, headers)
    }

    private static func field(_ line: UnsafeRawBufferPointer) throws(HTTPRequestError) -> (name: String, value: String) {
        guard let first = line.first, first != space && first != tab else {
            throw .malformed("obsolete line folding (header line starting with whitespace)")
        }
        guard let colon = line.firstIndex(of: colon) else {
            throw .malformed("header line without a colon")
        }
        let name = UnsafeRawBufferPointer(rebasing: line[..<colon])
        guard !name.isEmpty, name.allSatisfy(isTokenCharacter) else {
            throw .malformed("invalid header name")
        }
        var valueStart = colon + 1
        var valueEnd = line.count
        while valueStart < valueEnd && (line[valueStart] == space || line[valueStart] == tab) { valueStart += 1 }
        while valueEnd > valueStart && (line[valueEnd - 1] == space || line[valueEnd - 1] == tab) { valueEnd -= 1 }
        let value = UnsafeRawBufferPointer(rebasing: line[valueStart ..< valueEnd])
        // field-vchar = VCHAR / obs-text, with SP and HTAB allowed between them.
        guard value.allSatisfy({ $0 == space || $0 == tab || ($0 >= 0x21 && $0 != 0x7F) }) else {
            throw .malformed("control character in a header value")
        }
        return (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
    }

    /// RFC 7230 §3.2.6 tchar.
    static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// Parses `HTTP/1.x`, returning x; a syntactically valid other major version is `.versionNotSupported`.
    static func versionMinor(_ bytes: UnsafeRawBufferPointer) throws(HTTPRequestError) -> Int {
        let prefix = "HTTP/".utf8
        guard bytes.count == prefix.count + 3, bytes.starts(with: prefix), bytes[prefix.count + 1] == UInt8(ascii: "."),
              let major = digit(bytes[prefix.count]), let minor = digit(bytes[prefix.count + 2]) else {
            throw .malformed("invalid HTTP version, expected HTTP/1.1")
        }
        guard major == 1 else { throw .versionNotSupported }
        return minor
    }

    static func digit(_ byte: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }

    /// ASCII case-insensitive equality, as header names and tokens compare (RFC 7230 §3.2, §6.7).
    static func equalsIgnoringCase(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.count == rhs.utf8.count && zip(lhs.utf8, rhs.utf8).allSatisfy { lowercased($0) == lowercased($1) }
    }

    static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }

    /// The first value of header `name`.
    static func value(of name: String, in headers: [(name: String, value: String)]) -> String? {
        headers.first { equalsIgnoringCase($0.name, name) }?.value
    }

    /// All comma-separated elements of every `name` header, trimmed and lowercased (RFC 7230 §7 lists).
    static func tokens(of name: String, in headers: [(name: String, value: String)]) -> [String] {
        var tokens: [String] = []
        for header in headers where equalsIgnoringCase(header.name, name) {
            for element in header.value.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: true) {
                let trimmed = element.drop { $0 == space || $0 == tab }.reversed().drop { $0 == space || $0 == tab }
                if trimmed.isEmpty { continue }
                tokens.append(String(decoding: trimmed.reversed().map(lowercased), as: UTF8.self))
            }
        }
        return tokens
    }
}
