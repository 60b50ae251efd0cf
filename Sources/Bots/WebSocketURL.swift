/// A `ws://` address as the event loops need it: a numeric host, a port and an optional path.
public struct WebSocketURL: Sendable, Equatable, CustomStringConvertible {
    /// Numeric IPv4 or IPv6 address (`localhost` is mapped to 127.0.0.1: the loops connect to numbers only).
    public var host: String
    public var port: Int
    /// The path as given, or nil to use the scenario's default.
    public var path: String?

    public init(host: String, port: Int, path: String?) {
        self.host = host
        self.port = port
        self.path = path
    }

    /// Why a URL was refused.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Parses `ws://HOST[:PORT][/PATH]`; IPv6 hosts go in brackets (`ws://[::1]:8080`).
    ///
    /// - Parameter text: The URL.
    /// - Throws: `ParseError` saying what part is wrong (`wss://` is refused: the bots speak plain TCP).
    public init(parsing text: String) throws(ParseError) {
        guard text.hasPrefix("ws://") else {
            if text.hasPrefix("wss://") {
                throw ParseError(description: "wss:// is not supported (the bots have no TLS); use ws://")
            }
            throw ParseError(description: "expected ws://HOST:PORT, not '\(text)'")
        }
        var rest = Substring(text.dropFirst("ws://".count))
        var path: String?
        if let slash = rest.firstIndex(of: "/") {
            path = String(rest[slash...])
            rest = rest[..<slash]
        }
        var host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else {
                throw ParseError(description: "unclosed '[' in '\(text)'")
            }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw ParseError(description: "expected ':PORT' after ']' in '\(text)'") }
                portText = after.dropFirst()
            }
        } else if let colon = rest.firstIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            host = rest
        }
        if host == "localhost" { host = "127.0.0.1" }
        guard Self.isNumericAddress(host) else {
            throw ParseError(description: "the host must be localhost or a numeric IPv4 or IPv6 address, not '\(host)'")
        }
        var port = 80
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number) else {
                throw ParseError(description: "the port must be a number from 1 to 65535, not '\(portText)'")
            }
            port = number
        }
        self.init(host: String(host), port: port, path: path == "/" ? nil : path)
    }

    /// The `Host` header: the address as written in a URL.
    public var hostHeader: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    public var description: String {
        "ws://\(hostHeader)\(path ?? "")"
    }

    static func isNumericAddress(_ host: Substring) -> Bool {
        let v4 = host.split(separator: ".", omittingEmptySubsequences: false)
        if v4.count == 4, v4.allSatisfy({ UInt8($0) != nil }) { return true }
        return host.contains(":") && host.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    }
}
