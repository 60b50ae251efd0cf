#if canImport(Glibc)
import WordGames
import Glibc
#endif
import Runtime
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
    /// `GET /api/rooms` per second from one client address (bursts of six times as many).
    public var lobbyRate = 5
    /// Directory where rooms are saved so a restart or crash loses no game; nil keeps rooms in memory only.
    public var dataDirectory: String?
    /// Seconds a dropped player's seat waits for them.
    public var resumeGraceSeconds = 120
    /// Seconds a room with nobody connected lives on.
    public var roomGraceSeconds = 300
    /// Seconds the turn of a player who disconnected waits for them before it passes on.
    public var awayTurnSeconds = 10
    /// Seconds a seated page that keeps the heartbeat may stay silent before it is closed and counted away.
    public var silenceSeconds = 15
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
    /// permessage-deflate (RFC 7692) on game sockets (one context per room) and `/echo`.
    public var compression = true
    /// Serve `/fanout/NAME`, the benchmarks' room broadcast (`--bench-fanout`; off by default: 404).
    public var benchFanout = false
    /// Private rooms open by their code alone, without a key (`--bench-keyless-rooms`), for benchmark clients
    /// written before keys (the shared `wsload`); off by default.
    public var benchKeylessRooms = false
    /// The token of the operator dashboard `/admin`; nil: one is made at start and printed in the start lines.
    public var adminToken: AdminToken?
    /// Serve `/echo`, the conformance suite's and benchmarks' echo socket (`--bench-echo`; off by default: 404).
    public var benchEcho = false
    /// Addresses and networks besides loopback that may read `/metrics` (`--metrics-allow`).
    public var metricsAllow: [String] = []
    /// A token that opens `/metrics` from any address, sent as `Authorization: Bearer TOKEN` (`--metrics-token`).
    public var metricsToken: String?
    /// Connections one address may hold before they upgrade to a WebSocket (HTTP requests, handshakes under way,
    /// idle keep-alive); 0 for no cap. Loopback and `--trusted-proxy` addresses are not capped.
    public var maxPendingPerIP = 256
    /// Rooms per server (`--max-rooms`).
    public var maxRooms = 10_000
    /// Rooms alive at once created from one client address (`--rooms-per-address`).
    public var roomsPerAddress = 20
    /// Rooms one client address may create a minute, bursts of as many (`--room-creations-per-minute`).
    public var roomCreationsPerMinute = 10
    /// Seconds a room nobody but its creator joined lives on once the creator is gone (`--creator-only-grace`).
    public var creatorOnlyGraceSeconds = 45
    /// Members one client address may have in one room (`--members-per-address`).
    public var membersPerAddress = 8
    /// Broadcast bytes a second one room's chat, renames and reactions may cost (`--room-chat-budget`).
    public var roomChatBudget = 1 << 20
    /// Leading bits of an IPv6 address that per-address limits count as one client (`--ipv6-prefix`).
    public var ipv6Prefix = 64

    public init() {}

    public static let usage = """
        Usage: wordrooms [options]

        Hosts WordRooms word-game rooms (\(GameCatalog.games.map { $0.title }.joined(separator: ", "))) and their web client.

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
          --silence-seconds S       seconds a seated page may miss its heartbeat before it counts as away (default 15)
          --public-url URL          address people use to reach this server (behind a proxy)
          --trusted-proxy ADDR,...  proxies (addresses or networks like 10.0.0.0/8) whose X-Forwarded-For names the client
          --allowed-origin URL,...  browser origins allowed to open game sockets (others get 403)
          --message-rate N          messages per second per game connection, bursts of 2N (default 20)
          --handshake-rate N        WebSocket handshakes per second per client address, bursts of 2N (default 20)
          --max-outbound-bytes N    bytes queued to one client before it is cut off as too slow (default 4194304)
          --max-connections N       open connections in all, beyond which clients get 503 (default: file limit - 64)
          --max-connections-per-ip N  open WebSocket connections per client address (default 256; loopback unlimited)
          --max-rooms N             rooms per server, beyond which creating one gets server-full (default 10000)
          --rooms-per-address N     rooms alive at once created from one client address (default 20; loopback unlimited)
          --room-creations-per-minute N  rooms one client address may create a minute, bursts of N (default 10)
          --creator-only-grace S    seconds a room nobody but its creator joined lives on after they leave (default 45)
          --members-per-address N   members one client address may have in one room (default 8; loopback unlimited)
          --room-chat-budget BYTES  broadcast bytes a second of one room's chat, renames and reactions (default 1048576)
          --ipv6-prefix N           IPv6 addresses count per network of N bits for every per-address limit, 32-128 (default 64)
          --no-compression          do not offer permessage-deflate (by default each room's broadcasts are compressed once)
          --shard N|auto            shard number 0-21 when running several instances (auto: from the hostname)
          --redis HOST:PORT         share the public room list with other instances through Redis
          --lobby-rate N            GET /api/rooms per second per client address, bursts of 6N (default 5)
          --admin-token TOKEN       token of the operator dashboard /admin (16-256 letters, digits, - . _ ~;
                                    default: a random one, printed once at start as an /admin#token=... link)
          --bench-fanout            also serve ws://HOST:PORT/fanout/NAME for benchmarks: every message a client
                                    sends goes to every client on the same NAME (off by default: 404)
          --bench-echo              also serve ws://HOST:PORT/echo, which sends every message back (for the
                                    conformance suite and benchmarks; off by default: 404)
          --bench-keyless-rooms     private rooms open by their code alone, without the key of their link (for
                                    benchmark clients that predate keys; never with real players)
          --metrics-allow ADDR,...  addresses or networks (like 10.0.0.0/8) that may read /metrics besides loopback
          --metrics-token TOKEN     /metrics also opens to "Authorization: Bearer TOKEN" (16-256 characters)
          --max-pending-per-ip N    connections per client address not yet upgraded to a WebSocket (default 256,
                                    0 for no cap; loopback and trusted proxies uncapped)
          -h, --help                show this help
        """

    /// A command-line mistake, worded for the person who typed it.
    public typealias ParseError = ArgumentScanner.UsageError

    public typealias Parsed = ParsedCommandLine<ServerOptions>

    /// Parses arguments (without the program name). Accepts `--flag value` and `--flag=value`.
    ///
    /// - Parameter arguments: The command-line arguments after the program name.
    /// - Returns: The options to serve with, or `.help`.
    /// - Throws: `ParseError` naming the flag and what it needs.
    public static func parse(_ arguments: [String]) throws(ParseError) -> Parsed {
        var options = ServerOptions()
        var scanner = ArgumentScanner(arguments)
        while let argument = try scanner.next() {
            switch argument {
            case .flag("-h"), .flag("--help"):
                try scanner.noValue()
                return .help
            case .flag("--host"):
                options.host = try scanner.value(expected: "localhost or a numeric IPv4 or IPv6 address such as 127.0.0.1 or ::") {
                    $0 == "localhost" ? "127.0.0.1" : isNumericAddress($0) ? $0 : nil
                }
            case .flag("--port"): options.port = try scanner.integer(in: 0...65535)
            case .flag("--threads"): options.threads = try scanner.integer(in: 1...256)
            case .flag("--web"): options.webDirectory = try scanner.value()
            case .flag("--max-message-bytes"): options.maxMessageBytes = try scanner.integer(in: 125...(1 << 30))
            case .flag("--words"): options.wordsFile = try scanner.value()
            case .flag("--data"): options.dataDirectory = try scanner.value()
            case .flag("--resume-grace"): options.resumeGraceSeconds = try scanner.integer(in: 1...86_400)
            case .flag("--room-grace"): options.roomGraceSeconds = try scanner.integer(in: 1...86_400)
            case .flag("--away-turn-seconds"): options.awayTurnSeconds = try scanner.integer(in: 1...3_600)
            case .flag("--silence-seconds"): options.silenceSeconds = try scanner.integer(in: 1...3_600)
            case .flag("--public-url"):
                options.publicURL = try scanner.value(expected: "an http:// or https:// URL") { (url: String) -> String? in
                    isHTTPURL(url) ? (url.hasSuffix("/") ? url : url + "/") : nil
                }
            case .flag("--trusted-proxy"):
                let entries = try scanner.value().split(separator: ",").map(String.init)
                _ = try AddressRanges(entries)
                options.trustedProxies += entries
            case .flag("--metrics-allow"):
                let entries = try scanner.value().split(separator: ",").map(String.init)
                _ = try AddressRanges(entries, flag: "--metrics-allow")
                options.metricsAllow += entries
            case .flag("--metrics-token"):
                // The refusal never repeats the value: it is a secret.
                let text = try scanner.value()
                if let problem = MetricsGate.problem(withToken: text) {
                    throw ParseError(description: "--metrics-token: \(problem)")
                }
                options.metricsToken = text
            case .flag("--max-pending-per-ip"): options.maxPendingPerIP = try scanner.integer(in: 0...1_000_000)
            case .flag("--bench-echo"):
                try scanner.noValue()
                options.benchEcho = true
            case .flag("--allowed-origin"):
                for origin in try scanner.value().split(separator: ",").map(String.init) {
                    guard isHTTPURL(origin), !origin.hasSuffix("/") else {
                        throw scanner.invalid(origin, expected: "origins like https://play.example.com (no path)")
                    }
                    options.allowedOrigins.append(origin.lowercased())
                }
            case .flag("--message-rate"): options.messageRate = try scanner.integer(in: 1...100_000)
            case .flag("--handshake-rate"): options.handshakeRate = try scanner.integer(in: 1...100_000)
            case .flag("--max-outbound-bytes"): options.maxOutboundBytes = try scanner.integer(in: 16_384...(1 << 30))
            case .flag("--max-connections"): options.maxConnections = try scanner.integer(in: 1...10_000_000)
            case .flag("--max-connections-per-ip"): options.maxConnectionsPerIP = try scanner.integer(in: 1...1_000_000)
            case .flag("--max-rooms"): options.maxRooms = try scanner.integer(in: 1...10_000_000)
            case .flag("--rooms-per-address"): options.roomsPerAddress = try scanner.integer(in: 1...10_000_000)
            case .flag("--room-creations-per-minute"):
                options.roomCreationsPerMinute = try scanner.integer(in: 1...1_000_000)
            case .flag("--creator-only-grace"): options.creatorOnlyGraceSeconds = try scanner.integer(in: 1...86_400)
            case .flag("--members-per-address"): options.membersPerAddress = try scanner.integer(in: 1...100_000)
            case .flag("--room-chat-budget"): options.roomChatBudget = try scanner.integer(in: 1_024...(1 << 30))
            case .flag("--ipv6-prefix"): options.ipv6Prefix = try scanner.integer(in: AddressBuckets.prefixRange)
            case .flag("--no-compression"):
                try scanner.noValue()
                options.compression = false
            case .flag("--admin-token"):
                // The refusal never repeats the value: it is a secret.
                options.adminToken = try scanner.value(parsedBy: AdminToken.init(parsing:))
            case .flag("--bench-fanout"):
                try scanner.noValue()
                options.benchFanout = true
            case .flag("--bench-keyless-rooms"):
                try scanner.noValue()
                options.benchKeylessRooms = true
            case .flag("--shard"):
                let text = try scanner.value()
                if text == "auto" {
                    guard let number = shardFromHostname() else {
                        throw ParseError(description: "--shard auto needs a hostname ending in a number (like wordrooms-2)")
                    }
                    options.shard = number
                } else if let number = Int(text), (0...21).contains(number) {
                    options.shard = number
                } else {
                    throw scanner.invalid(text, expected: "a number from 0 to 21 or 'auto'")
                }
            case .flag("--redis"):
                options.redis = try scanner.value(expected: "HOST:PORT") { (address: String) -> String? in
                    guard let colon = address.lastIndex(of: ":"),
                          Int(address[address.index(after: colon)...]) != nil else { return nil }
                    return address
                }
            case .flag("--lobby-rate"): options.lobbyRate = try scanner.integer(in: 1...100_000)
            case .flag, .positional:
                throw scanner.unknownOption()
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

    private static func isHTTPURL(_ text: String) -> Bool {
        text.hasPrefix("http://") || text.hasPrefix("https://")
    }

    private static func isNumericAddress(_ host: String) -> Bool {
        let v4 = host.split(separator: ".", omittingEmptySubsequences: false)
        if v4.count == 4, v4.allSatisfy({ UInt8($0) != nil }) { return true }
        return host.contains(":") && host.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    }
}
