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
            default:
                throw ParseError(description: "unknown option '\(argument)'")
            }
        }
        return .run(options)
    }

    private static func isNumericAddress(_ host: String) -> Bool {
        let v4 = host.split(separator: ".", omittingEmptySubsequences: false)
        if v4.count == 4, v4.allSatisfy({ UInt8($0) != nil }) { return true }
        return host.contains(":") && host.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    }
}
