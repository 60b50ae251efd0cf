import Runtime
import Transport
import WordGames

/// Everything `wordrooms-bots` can be told on its command line.
public struct BotOptions: Sendable, Equatable {
    /// What the bots do.
    public enum Scenario: String, Sendable, CaseIterable {
        /// Rooms of bots playing real games.
        case play
        /// Connections that only stay open and answer pings.
        case idle
        /// Raw transport throughput and round trips against an echo endpoint.
        case echo
        /// Bots that drop their connection, resume with token and seq, verify the state and leave, in a loop.
        case churn
        /// Rooms of `roomSize` clients on `/fanout/NAME`, each message broadcast to its whole room.
        case fanout
        /// Rooms of players whose connections all drop at once (`--drop`); each resumes its seat (see `AvalancheRun`).
        case avalanche
    }

    /// avalanche: who ends the connections.
    public enum DropMode: String, Sendable, CaseIterable {
        /// The bots drop every connection at once, `--drop-after` seconds into the run.
        case clients
        /// The bots wait for the server to go away (a restart under them) and come back.
        case server
    }

    /// Which game the rooms play: one of `GameCatalog`'s (by id), or all of them.
    public enum GameChoice: Sendable, Equatable {
        /// Every room plays the game of this id.
        case only(String)
        /// Rooms take the catalog's games in turn: room `i` plays game `i % count`.
        case mixed

        /// `--game`'s value.
        public var rawValue: String {
            switch self {
            case .only(let id): id
            case .mixed: "mixed"
            }
        }

        /// `--game`'s value parsed: a game of the catalog with a bot, or `mixed`.
        public init?(rawValue: String) {
            if rawValue == "mixed" {
                self = .mixed
            } else if GameCatalog.bot(forGame: rawValue) != nil {
                self = .only(rawValue)
            } else {
                return nil
            }
        }

        /// What `--game` accepts, for its help and its error: "a, b or mixed".
        static var accepted: String {
            GameCatalog.bots.map { $0.gameID }.joined(separator: ", ") + " or mixed"
        }
    }

    public var scenario = Scenario.play
    public var url = WebSocketURL(host: "127.0.0.1", port: 8080, path: nil)
    public var rooms = 100
    /// Players per room, the host included.
    public var players = 8
    /// Spectators per room (play and churn).
    public var spectators = 0
    /// Churn: players per room that drop, resume and leave in a loop (on top of `players`).
    public var churners = 2
    public var game = GameChoice.mixed
    /// play/churn: moves per bot per second. echo: messages per connection per second; nil sends as fast as the
    /// window of `depth` messages in flight allows.
    public var rate: Double?
    public var duration: Double = 60
    /// Seconds from the start during which moves and echoes are counted but not timed (ramp-up effects).
    public var warmup: Double = 0
    /// Connections opened per second while ramping up.
    public var ramp: Double = 2000
    public var threads = TransportConfiguration.processorCount
    /// idle, echo and fanout: connections to open.
    public var connections = 100
    /// fanout: clients per room (the last room takes what is left of `connections`).
    public var roomSize = 8
    /// echo: messages in flight per connection.
    public var depth = 1
    /// echo and fanout: bytes of text per message (fanout: `fanoutDefaultSize` unless given).
    public var size = 32
    /// The share of game moves made invalid on purpose, in games whose bot can (`GameBot.choose`).
    public var invalidShare = 0.1
    /// Share of a player's ticks without a game move (not its turn, no move left, between rounds or games)
    /// rounds) on which it sends a chat line instead, so that every bot moves `rate` times a second.
    public var chatShare = 1.0
    /// Seconds to wait after the run for replies still in flight.
    public var grace: Double = 5
    /// Where to write the report as JSON.
    public var jsonPath: String?
    /// Where to write the report as a self-contained HTML page with charts over time.
    public var htmlPath: String?
    /// Read the server's memory and CPU from `/proc/PID` instead of its `/metrics` (for servers without one).
    public var serverPID: Int?
    /// Largest message the bots accept (a welcome of a full room is a few tens of KB).
    public var maxMessageBytes = 1 << 20
    /// Randomness of the bots (word choice, jitter); the same seed gives the same choices.
    public var seed: UInt64?
    /// Offer permessage-deflate (RFC 7692) on every connection (`--deflate`).
    public var deflate = false
    /// Microseconds between polls of an idle bot loop; 0 sleeps in epoll (see `--poll-us`).
    public var pollMicroseconds = 0
    /// Loopback addresses the bots connect from when the server is on IPv4 loopback (`--source-addresses`).
    public var sourceAddresses = 64
    /// No progress lines.
    public var quiet = false
    /// avalanche: who drops the connections.
    public var dropMode = DropMode.clients
    /// avalanche: seconds from the start until the drop (`clients`), or until the bots expect it (`server`).
    public var dropAfter: Double = 5
    /// avalanche: seconds from the drop after which bots not back in their seats count as lost.
    public var giveUp: Double = 30

    public init() {}

    /// Moves or messages per second, with the scenario's default.
    public var effectiveRate: Double? {
        if let rate { return rate }
        switch scenario {
        case .play, .churn, .fanout, .avalanche: return 1
        case .idle, .echo: return nil
        }
    }

    /// The WebSocket path: the URL's, else `/echo` for echo, `/fanout` for fanout (the rooms' paths are under
    /// it) and `/ws` for the rest.
    public var path: String {
        if let path = url.path { return path }
        switch scenario {
        case .echo: return "/echo"
        case .fanout: return "/fanout"
        case .play, .churn, .idle, .avalanche: return "/ws"
        }
    }

    /// fanout: the rooms, `connections` / `roomSize` rounded up.
    public var fanoutRooms: Int {
        (connections + roomSize - 1) / roomSize
    }

    /// fanout: the path of room `index`, under `path`.
    public func fanoutPath(ofRoom index: Int) -> String {
        let base = path.hasSuffix("/") ? String(path.dropLast()) : path
        return "\(base)/room-\(index)"
    }

    /// fanout: bytes per message without `--size`, about a chat line with its JSON around it.
    public static let fanoutDefaultSize = 200

    /// Connections the run opens at first (churners reconnect on top of these).
    public var plannedConnections: Int {
        switch scenario {
        case .play: rooms * (players + spectators)
        case .avalanche: rooms * players
        case .churn: rooms * (players + spectators + churners)
        case .idle, .echo, .fanout: connections
        }
    }

    /// What the bots offer with `--deflate`: a compressor far smaller than zlib's default (window 2^15, memLevel
    /// 8, about 270 KB a connection), because thousands of bots share one process and each compressing bot holds
    /// its own. About 9 KB with these: a 512-byte window still covers every message a bot sends (moves and chat
    /// lines are well under 200 bytes, and game sockets have the client reset its context after each message,
    /// `client_no_context_takeover`, so no longer history could help), and memLevel 1 keeps the match finder's
    /// tables at 1 KB. nil without `--deflate`: the bots offer no extension.
    public var compression: ClientCompression? {
        deflate ? Self.botCompression : nil
    }

    static let botCompression = ClientCompression(windowBits: 9, memoryLevel: 1)

    /// The bot of the game room `index` plays.
    public func game(ofRoom index: Int) -> any GameBot.Type {
        switch game {
        case .only(let id):
            // `--game` only parses to games of the catalog.
            guard let bot = GameCatalog.bot(forGame: id) else {
                preconditionFailure("\(id) is not a game of GameCatalog")
            }
            return bot
        case .mixed:
            let bots = GameCatalog.bots
            return bots[index % bots.count]
        }
    }

    /// The games the rooms of the run play.
    var gamesPlayed: [any GameBot.Type] {
        (0..<min(rooms, GameCatalog.bots.count)).map { game(ofRoom: $0) }
    }

    /// The local address of the `index`-th connection a loop opens: one of `sourceAddresses` loopback addresses
    /// from 127.128.0.1 on, in turn, when the server is on IPv4 loopback (all of 127.0.0.0/8 is this host's, RFC
    /// 1122 §3.2.1.3); nil otherwise, and with `--source-addresses 1`, for the kernel's choice.
    ///
    /// Real players come from many addresses. Ten thousand bots on one address make every `connect` search
    /// that address's ephemeral ports past each open connection and TIME_WAIT to the same server: measured on
    /// 2026-12-04, 9,000 connects took 0.28 s on a fresh machine and 1.0 s with the TIME_WAITs of earlier runs,
    /// against 0.25-0.28 s either way spread over 64 addresses. In a reconnect storm that search was a fifth of
    /// the bots' core.
    public func sourceAddress(ofConnection index: Int) -> String? {
        guard sourceAddresses > 1, url.host.hasPrefix("127.") else { return nil }
        let host = 1 + index % sourceAddresses
        return "127.128.\(host >> 8).\(host & 255)"
    }

    /// Largest `--rate` for play and churn: the server refuses more than 20 messages a second per connection.
    public static let maxMoveRate: Double = 20

    /// The catalog's games for people: "A, B or C".
    private static var gameTitles: String {
        let titles = GameCatalog.games.filter { $0 is any BotPlayable.Type }.map { $0.title }
        return titles.count < 2 ? titles.joined() : titles.dropLast().joined(separator: ", ") + " or " + titles.last!
    }

    public static let usage = """
        Usage: wordrooms-bots [SCENARIO] [options]

        Load tester for WordRooms: bots that connect over WebSocket, play real games and measure.

        Scenarios:
          play      (default) rooms of bots playing \(gameTitles); one host per room creates it,
                    the others join by code; spectators only watch
          idle      hold --connections connections open and answer pings; report how many stayed up
          echo      raw throughput against /echo (wordrooms serves it with --bench-echo): --connections x
                    --depth messages in flight of --size bytes
          churn     play, plus --churners per room that drop the TCP connection, resume with token and seq,
                    check the resumed state against a fresh snapshot, leave and rejoin, in a loop
          fanout    --connections clients in rooms of --room-size on PATH/room-N (PATH: the URL's, default
                    /fanout; `wordrooms --bench-fanout`, or a peer of Tests/Bench/peers): each sends a --size
                    text message --rate times a second, at random points of each interval, and the server sends
                    every message to the whole room; each client times its own messages coming back
          avalanche the reconnect storm: --rooms x --players play; after --drop-after every connection ends
                    at once (--drop clients: the bots drop them; --drop server: the server goes away, e.g. a
                    restart); each bot reconnects with jittered exponential backoff and resumes its seat with
                    token and seq; then every bot checks its state against a fresh snapshot. Reports resume
                    latency from the drop, bots not back after --give-up, resyncs and rooms that differ

        Options:
          --url ws://HOST:PORT[/PATH]  server (default ws://127.0.0.1:8080; PATH defaults to /echo for echo,
                                    /fanout for fanout, /ws otherwise; HOST is numeric or localhost)
          --rooms N                 rooms (play, churn; default 100)
          --players N               players per room including the host, 1-16 (default 8)
          --spectators N            spectators per room, 0-256 (default 0)
          --churners N              churn: resuming players per room, 1-15 (default 2)
          --game G                  \(GameChoice.accepted) (default mixed: rooms take the games in turn)
          --rate X                  play, churn: moves per bot per second (default 1, at most 20);
                                    echo: messages per connection per second (default: as fast as --depth allows);
                                    fanout: messages per client per second (default 1)
          --invalid-share X         share of game moves made invalid on purpose (words that are not words),
                                    0-1 (default 0.1)
          --chat-share X            share of a player's ticks without a game move (not its turn, no move
                                    left, between rounds) filled with a chat line, 0-1 (default 1: every
                                    bot makes --rate moves a second; 0: bots wait for their turn)
          --connections N           idle, echo, fanout: connections (default 100)
          --room-size N             fanout: clients per room, 1-1000 (default 8)
          --depth N                 echo: messages in flight per connection (default 1)
          --size N                  echo, fanout: bytes of text per message (default 32; fanout 200, at
                                    least \(FanoutPayload.headerBytes))
          --duration S              seconds from the start to the end of the run, ramp included (default 60)
          --warmup S                moves and echo messages sent in the first S seconds are counted but not
                                    timed, so that latencies show the steady state (default 0)
          --ramp N                  connections opened per second while ramping up (default 2000)
          --threads N               event-loop threads of the bots (default: one per core, here \(TransportConfiguration.processorCount))
          --grace S                 seconds to wait at the end for replies in flight (default 5)
          --json FILE               also write the report as JSON to FILE, with the per-second timeline
          --html FILE               also write the report as one self-contained HTML page to FILE: latency
                                    percentiles, throughput, connections, errors and the server's CPU and
                                    memory over time, and the summary (no outside files: open it anywhere)
          --server-pid PID          read the server's memory and CPU from /proc/PID instead of its /metrics
          --max-message-bytes N     largest message the bots accept (default 1048576)
          --seed N                  seed of the bots' random choices
          --deflate                 offer permessage-deflate (RFC 7692) on every connection; the report then
                                    says how many negotiated it and sets wire bytes against payload bytes
                                    (the bots compress with a 512-byte window and memLevel 1: small, as
                                    thousands of them share this process)
          --poll-us N               idle bot loops poll every N microseconds instead of sleeping in epoll
                                    (default 0: sleep). On one machine a server pays for waking a sleeping
                                    client on every message (an interrupt to the bots' core), which clients
                                    elsewhere never cost it; polling takes that out, adding at most N us
          --source-addresses N      connect from N loopback addresses (127.128.0.1 on) when the server is
                                    on 127.x, as players come from many (default 64; 1: the kernel's
                                    choice). From one address, each connect searches its ports past every
                                    connection and TIME_WAIT to the same server
          --drop clients|server     avalanche: the bots drop their connections, or wait for the server to
                                    (default clients)
          --drop-after S            avalanche: seconds from the start to the drop, or (server) until the
                                    bots expect it, and at least until every bot is in its room (at most
                                    --give-up more; default 5)
          --give-up S               avalanche: seconds from the drop after which a bot not back counts as
                                    lost (default 30)
          --quiet                   no progress lines
          -h, --help                show this help

        Exit status: 0 when the run had no protocol errors, failed connections or unexpected disconnects
        (avalanche: every bot back in its seat and every room equal to the server's snapshot); 1 otherwise;
        2 for bad options.
        """

    /// A command-line mistake, worded for the person who typed it.
    public typealias ParseError = ArgumentScanner.UsageError

    public typealias Parsed = ParsedCommandLine<BotOptions>

    /// Parses arguments (without the program name). Accepts `--flag value` and `--flag=value`; the scenario is
    /// the one positional argument.
    ///
    /// - Parameter arguments: The command-line arguments after the program name.
    /// - Returns: The options to run with, or `.help`.
    /// - Throws: `ParseError` naming the flag and what it needs.
    public static func parse(_ arguments: [String]) throws(ParseError) -> Parsed {
        var options = BotOptions()
        var scenarioSeen = false
        var sizeSeen = false
        var scanner = ArgumentScanner(arguments)
        while let argument = try scanner.next() {
            switch argument {
            case .positional(let text):
                guard !scenarioSeen else {
                    throw ParseError(description: "unexpected argument '\(text)': give one scenario at most")
                }
                guard let scenario = Scenario(rawValue: text) else {
                    throw ParseError(description: "unknown scenario '\(text)': use play, idle, echo, churn, fanout or avalanche")
                }
                options.scenario = scenario
                scenarioSeen = true
            case .flag("-h"), .flag("--help"):
                try scanner.noValue()
                return .help
            case .flag("--url"): options.url = try scanner.value(parsedBy: WebSocketURL.init(parsing:))
            case .flag("--rooms"): options.rooms = try scanner.integer(in: 1...100_000)
            case .flag("--players"): options.players = try scanner.integer(in: 1...16)
            case .flag("--spectators"): options.spectators = try scanner.integer(in: 0...256)
            case .flag("--churners"): options.churners = try scanner.integer(in: 1...15)
            case .flag("--game"): options.game = try scanner.value(expected: GameChoice.accepted, GameChoice.init)
            case .flag("--rate"): options.rate = try scanner.number(in: 0...1_000_000, exclusiveLower: true)
            case .flag("--invalid-share"): options.invalidShare = try scanner.number(in: 0...1)
            case .flag("--chat-share"): options.chatShare = try scanner.number(in: 0...1)
            case .flag("--connections"): options.connections = try scanner.integer(in: 1...1_000_000)
            case .flag("--depth"): options.depth = try scanner.integer(in: 1...65536)
            case .flag("--size"):
                options.size = try scanner.integer(in: 1...(16 << 20))
                sizeSeen = true
            case .flag("--room-size"): options.roomSize = try scanner.integer(in: 1...1000)
            case .flag("--duration"): options.duration = try scanner.number(in: 0...86400, exclusiveLower: true)
            case .flag("--warmup"): options.warmup = try scanner.number(in: 0...86400)
            case .flag("--ramp"): options.ramp = try scanner.number(in: 1...1_000_000)
            case .flag("--threads"): options.threads = try scanner.integer(in: 1...256)
            case .flag("--grace"): options.grace = try scanner.number(in: 0...600)
            case .flag("--json"): options.jsonPath = try scanner.value()
            case .flag("--html"): options.htmlPath = try scanner.value()
            case .flag("--server-pid"): options.serverPID = try scanner.integer(in: 1...Int(Int32.max))
            case .flag("--max-message-bytes"): options.maxMessageBytes = try scanner.integer(in: 1024...(1 << 30))
            case .flag("--poll-us"): options.pollMicroseconds = try scanner.integer(in: 0...100_000)
            case .flag("--source-addresses"): options.sourceAddresses = try scanner.integer(in: 1...4096)
            case .flag("--seed"): options.seed = try scanner.integer(in: 0...UInt64.max)
            case .flag("--deflate"): options.deflate = true
            case .flag("--quiet"): options.quiet = true
            case .flag("--drop"): options.dropMode = try scanner.value(expected: "clients or server", DropMode.init)
            case .flag("--drop-after"): options.dropAfter = try scanner.number(in: 0...86400)
            case .flag("--give-up"): options.giveUp = try scanner.number(in: 0...86400, exclusiveLower: true)
            case .flag:
                throw scanner.unknownOption(hint: " (see --help)")
            }
        }
        if options.scenario == .fanout, !sizeSeen { options.size = fanoutDefaultSize }
        try options.validate()
        return .run(options)
    }

    /// Checks combinations no single flag can.
    func validate() throws(ParseError) {
        if scenario == .play || scenario == .churn || scenario == .avalanche, let rate, rate > Self.maxMoveRate {
            throw ParseError(description: "--rate for \(scenario.rawValue) is moves per bot per second, at most \(formatNumber(Self.maxMoveRate)) (the server's per-connection limit), not \(formatNumber(rate))")
        }
        if scenario == .churn, players + churners > 16 {
            throw ParseError(description: "--players plus --churners must be at most 16 (a room's seats), not \(players + churners)")
        }
        if warmup >= duration {
            throw ParseError(description: "--warmup (\(formatNumber(warmup)) s) must be shorter than --duration (\(formatNumber(duration)) s)")
        }
        if scenario == .avalanche, htmlPath != nil {
            throw ParseError(description: "--html is not available for avalanche yet (its figures are in the summary and --json)")
        }
        if scenario == .echo, path == "/ws" {
            throw ParseError(description: "echo needs an echoing path such as /echo, not /ws")
        }
        if scenario == .fanout {
            if size < FanoutPayload.headerBytes {
                throw ParseError(description: "--size for fanout must be at least \(FanoutPayload.headerBytes) bytes (sender, number and send time), not \(size)")
            }
            if path == "/ws" || path == "/echo" {
                throw ParseError(description: "fanout needs a room broadcast path such as /fanout, not \(path)")
            }
        }
    }
}
