#if canImport(Glibc)
import Glibc
#endif
import Transport

/// Everything `wordrooms` can be told on its command line.
public struct ServerOptions: Sendable, Equatable {
    public var host = "::"
    public var port = 8080
    public var threads = TransportConfiguration.processorCount
    /// Directory of the web client; nil picks `web/` of the package (see `WebRoot`).
    public var webDirectory: String?
    /// Largest WebSocket message accepted on game sockets and `/echo`.
    public var maxMessageBytes = 64 * 1024
    /// Custom secret-word list for Snowman (one word per line).
    public var wordsFile: String?
    /// The address people use to reach the server (behind a proxy), for the start line and share links.
    public var publicURL: String?
    /// Proxies whose `X-Forwarded-For` names the real client.
    public var trustedProxies: [String] = []
    /// Browser origins allowed to open game sockets; empty allows any.
    public var allowedOrigins: [String] = []
    /// This instance's shard when rooms are spread over several instances (0-21); nil when alone.
    public var shard: Int?
    /// Redis `host:port` for the lobby shared by all instances.
    public var redis: String?
    /// Directory where rooms are saved so a restart or crash loses no game; nil keeps rooms in memory only.
    public var dataDirectory: String?
    /// Seconds a dropped player's seat waits for them.
    public var resumeGraceSeconds = 120
    /// Seconds a room with nobody connected lives on.
    public var roomGraceSeconds = 300
    /// Seconds the turn of a player who disconnected waits for them before it passes on.
    public var awayTurnSeconds = 10
    /// Messages per second one game connection may send (bursts of twice as many).
    public var messageRate = 20
    /// WebSocket handshakes per second from one client address (bursts of twice as many).
    public var handshakeRate = 20
    /// Bytes that may wait to be written to one connection before it is cut off as too slow.
    public var maxOutboundBytes = 4 << 20
    /// Open connections in all; 0 derives it from the open-files limit.
    public var maxConnections = 0
    /// Open WebSocket connections allowed from one client address.
    public var maxConnectionsPerIP = 256

    public init() {}

    public static let usage = """
        Usage: wordrooms [options]

        Hosts WordRooms word-game rooms (Snowman, Word Scramble) and their web client.

        Options:
          --host ADDRESS            address to listen on (default ::, all IPv6 and IPv4 addresses)
          --port N                  TCP port, 0 for any free port (default 8080)
          --threads N               event-loop threads (default: one per core, here \(TransportConfiguration.processorCount))
          --web DIR                 directory of the web client (default: the package's web/)
          --max-message-bytes N     largest WebSocket message accepted (default 65536)
          --words FILE              Snowman secret words, one per line (default: the bundled list)
          --data DIR                save rooms in DIR: games survive restarts and crashes
          --resume-grace S          seconds a dropped player's seat waits for them (default 120)
          --room-grace S            seconds a room with nobody connected lives on (default 300)
          --away-turn-seconds S     seconds the turn of a disconnected player waits before it passes (default 10)
          --public-url URL          address people use to reach this server (behind a proxy)
          --trusted-proxy ADDR,...  proxies (addresses or networks like 10.0.0.0/8) whose X-Forwarded-For names the client
          --allowed-origin URL,...  browser origins allowed to open game sockets (others get 403)
          --message-rate N          messages per second per game connection, bursts of 2N (default 20)
          --handshake-rate N        WebSocket handshakes per second per client address, bursts of 2N (default 20)
          --max-outbound-bytes N    bytes queued to one client before it is cut off as too slow (default 4194304)
          --max-connections N       open connections in all, beyond which clients get 503 (default: file limit - 64)
          --max-connections-per-ip N  open WebSocket connections per client address (default 256; loopback unlimited)
          --shard N|auto            shard number 0-21 when running several instances (auto: from the hostname)
          --redis HOST:PORT         share the public room list with other instances through Redis
          -h, --help                show this help
        """

    /// A command-line mistake, worded for the person who typed it.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    public enum Parsed: Equatable {
        case run(ServerOptions)
        case help
    }

    /// Parses arguments (without the program name). Accepts `--flag value` and `--flag=value`.
    public static func parse(_ arguments: [String]) throws(ParseError) -> Parsed {
        var options = ServerOptions()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws(ParseError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = remaining.popFirst(), !next.hasPrefix("--") else {
                    throw ParseError(description: "\(name) needs a value")
                }
                return next
            }
            func integer(_ range: ClosedRange<Int>) throws(ParseError) -> Int {
                let text = try value()
                guard let number = Int(text), range.contains(number) else {
                    throw ParseError(description: "\(name) needs a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
                }
                return number
            }
            switch name {
            case "-h", "--help":
                return .help
            case "--host":
                var host = try value()
                if host == "localhost" { host = "127.0.0.1" }
                guard isNumericAddress(host) else {
                    throw ParseError(description: "--host needs localhost or a numeric IPv4 or IPv6 address such as 127.0.0.1 or ::, not '\(host)'")
                }
                options.host = host
            case "--port":
                options.port = try integer(0...65535)
            case "--threads":
                options.threads = try integer(1...256)
            case "--web":
                options.webDirectory = try value()
            case "--max-message-bytes":
                options.maxMessageBytes = try integer(125...(1 << 30))
            case "--words":
                options.wordsFile = try value()
            case "--data":
                options.dataDirectory = try value()
            case "--resume-grace":
                options.resumeGraceSeconds = try integer(1...86_400)
            case "--room-grace":
                options.roomGraceSeconds = try integer(1...86_400)
            case "--away-turn-seconds":
                options.awayTurnSeconds = try integer(1...3_600)
            case "--public-url":
                let url = try value()
                guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
                    throw ParseError(description: "--public-url needs an http:// or https:// URL, not '\(url)'")
                }
                options.publicURL = url.hasSuffix("/") ? url : url + "/"
            case "--trusted-proxy":
                let entries = try value().split(separator: ",").map(String.init)
                _ = try AddressRanges(entries)
                options.trustedProxies += entries
            case "--allowed-origin":
                for origin in try value().split(separator: ",").map(String.init) {
                    guard origin.hasPrefix("http://") || origin.hasPrefix("https://"), !origin.hasSuffix("/") else {
                        throw ParseError(description: "--allowed-origin needs origins like https://play.example.com (no path), not '\(origin)'")
                    }
                    options.allowedOrigins.append(origin.lowercased())
                }
            case "--message-rate":
                options.messageRate = try integer(1...100_000)
            case "--handshake-rate":
                options.handshakeRate = try integer(1...100_000)
            case "--max-outbound-bytes":
                options.maxOutboundBytes = try integer(16_384...(1 << 30))
            case "--max-connections":
                options.maxConnections = try integer(1...10_000_000)
            case "--max-connections-per-ip":
                options.maxConnectionsPerIP = try integer(1...1_000_000)
            case "--shard":
                let text = try value()
                if text == "auto" {
                    guard let number = shardFromHostname() else {
                        throw ParseError(description: "--shard auto needs a hostname ending in a number (like wordrooms-2)")
                    }
                    options.shard = number
                } else if let number = Int(text), (0...21).contains(number) {
                    options.shard = number
                } else {
                    throw ParseError(description: "--shard needs a number from 0 to 21 or 'auto', not '\(text)'")
                }
            case "--redis":
                let address = try value()
                guard let colon = address.lastIndex(of: ":"), Int(address[address.index(after: colon)...]) != nil else {
                    throw ParseError(description: "--redis needs HOST:PORT, not '\(address)'")
                }
                options.redis = address
            default:
                throw ParseError(description: "unknown option '\(argument)'")
            }
        }
        return .run(options)
    }

    /// The trailing number of the host name, as in a StatefulSet pod `wordrooms-2`.
    static func shardFromHostname() -> Int? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let digits = name.reversed().prefix { $0.isNumber }
        guard !digits.isEmpty, let number = Int(String(digits.reversed())), (0...21).contains(number) else { return nil }
        return number
    }

    private static func isNumericAddress(_ host: String) -> Bool {
        let v4 = host.split(separator: ".", omittingEmptySubsequences: false)
        if v4.count == 4, v4.allSatisfy({ UInt8($0) != nil }) { return true }
        return host.contains(":") && host.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    }
}
