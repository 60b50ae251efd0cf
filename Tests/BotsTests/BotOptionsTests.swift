import Testing
import WordGames
@testable import Bots

@Suite struct BotOptionsTests {
    private func parsed(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> BotOptions {
        let result = try BotOptions.parse(arguments)
        guard case .run(let options) = result else {
            Issue.record("expected options, got \(result)", sourceLocation: sourceLocation)
            return BotOptions()
        }
        return options
    }

    @Test func defaultsArePlayAgainstLocalPort8080() throws {
        let options = try parsed([])
        #expect(options.scenario == .play)
        #expect(options.url == WebSocketURL(host: "127.0.0.1", port: 8080, path: nil))
        #expect(options.path == "/ws")
        #expect(options.effectiveRate == 1)
        #expect(options.game == .mixed)
    }

    @Test func theIssueExampleParses() throws {
        let options = try parsed(["--url", "ws://127.0.0.1:8080", "--rooms", "1250", "--players", "8", "--game",
                                  "mixed", "--rate", "1", "--duration", "60", "--ramp", "2000", "--spectators", "2",
                                  "--json", "report.json"])
        #expect(options.rooms == 1250)
        #expect(options.players == 8)
        #expect(options.spectators == 2)
        #expect(options.rate == 1)
        #expect(options.duration == 60)
        #expect(options.ramp == 2000)
        #expect(options.jsonPath == "report.json")
        #expect(options.plannedConnections == 1250 * 10)
    }

    @Test func chatShareAndPollingParse() throws {
        let options = try parsed(["--chat-share", "0.25", "--poll-us", "200"])
        #expect(options.chatShare == 0.25)
        #expect(options.pollMicroseconds == 200)
        #expect(try parsed([]).chatShare == 1, "by default every tick is a move")
        #expect(try parsed([]).pollMicroseconds == 0, "by default idle loops sleep in epoll")
    }

    @Test func loopbackConnectionsComeFromSeveralAddressesInTurn() throws {
        let options = try parsed([])
        #expect(options.sourceAddresses == 64)
        #expect(options.sourceAddress(ofConnection: 0) == "127.128.0.1")
        #expect(options.sourceAddress(ofConnection: 1) == "127.128.0.2")
        #expect(options.sourceAddress(ofConnection: 63) == "127.128.0.64")
        #expect(options.sourceAddress(ofConnection: 64) == "127.128.0.1", "the 65th connection reuses the first")
        let all = Set((0..<1000).compactMap { options.sourceAddress(ofConnection: $0) })
        #expect(all.count == 64)

        let wide = try parsed(["--source-addresses", "300", "--url", "ws://localhost:9000"])
        #expect(wide.sourceAddress(ofConnection: 255) == "127.128.1.0")
        #expect(wide.sourceAddress(ofConnection: 299) == "127.128.1.44")

        #expect(try parsed(["--source-addresses", "1"]).sourceAddress(ofConnection: 5) == nil,
                "one address: the kernel chooses")
        #expect(try parsed(["--url", "ws://[::1]:8080"]).sourceAddress(ofConnection: 5) == nil,
                "IPv6 loopback has one address")
        #expect(try parsed(["--url", "ws://10.0.0.5:8080"]).sourceAddress(ofConnection: 5) == nil,
                "a server elsewhere: only this host's own address can reach it")
    }

    @Test func deflateOffersASmallCompressor() throws {
        #expect(try parsed([]).compression == nil, "by default the bots offer no extension")
        for scenario in BotOptions.Scenario.allCases {
            let options = try parsed([scenario.rawValue, "--deflate"])
            #expect(options.deflate)
            let compression = try #require(options.compression)
            #expect((9...10).contains(compression.windowBits))
            #expect((1...2).contains(compression.memoryLevel))
        }
        #expect(throws: BotOptions.ParseError(description: "--deflate takes no value")) {
            try BotOptions.parse(["--deflate=yes"])
        }
    }

    @Test func helpListsDeflate() {
        #expect(BotOptions.usage.contains("--deflate"))
    }

    @Test func scenarioIsThePositionalArgumentAnywhere() throws {
        #expect(try parsed(["echo"]).scenario == .echo)
        #expect(try parsed(["--connections", "5", "idle"]).scenario == .idle)
        #expect(try parsed(["churn", "--churners", "3"]).churners == 3)
    }

    @Test func echoDefaultsToTheEchoPathAndNoRate() throws {
        let options = try parsed(["echo", "--depth=32", "--size=32", "--connections=100"])
        #expect(options.path == "/echo")
        #expect(options.effectiveRate == nil)
        #expect(options.depth == 32)
        #expect(options.connections == 100)
    }

    @Test func fanoutDefaultsToRoomsOfEightOnFanoutPaths() throws {
        let options = try parsed(["fanout", "--connections", "2000"])
        #expect(options.scenario == .fanout)
        #expect(options.roomSize == 8)
        #expect(options.size == BotOptions.fanoutDefaultSize)
        #expect(options.effectiveRate == 1)
        #expect(options.path == "/fanout")
        #expect(options.fanoutRooms == 250)
        #expect(options.plannedConnections == 2000)
        #expect(options.fanoutPath(ofRoom: 17) == "/fanout/room-17")
    }

    @Test func fanoutTakesItsOptions() throws {
        let options = try parsed(["fanout", "--connections=5003", "--room-size=5", "--size", "64", "--rate", "2",
                                  "--url", "ws://127.0.0.1:9000/topics/"])
        #expect(options.roomSize == 5)
        #expect(options.size == 64)
        #expect(options.effectiveRate == 2)
        #expect(options.fanoutRooms == 1001, "the last room takes the 3 left over")
        #expect(options.fanoutPath(ofRoom: 0) == "/topics/room-0")
        #expect(try parsed(["echo"]).size == 32, "echo keeps its own default size")
        #expect(BotOptions.usage.contains("--room-size"))
    }

    @Test func urlPathOverridesTheDefault() throws {
        let options = try parsed(["idle", "--url", "ws://localhost:9000/echo"])
        #expect(options.path == "/echo")
        #expect(options.url.host == "127.0.0.1")
        #expect(options.url.port == 9000)
    }

    @Test func helpWins() throws {
        #expect(try BotOptions.parse(["--rooms", "3", "--help"]) == .help)
        #expect(try BotOptions.parse(["-h"]) == .help)
    }

    @Test(arguments: [
        (["--rooms"], "--rooms needs a value"),
        (["--rooms", "--players", "3"], "--rooms needs a value"),
        (["--rooms", "0"], "--rooms needs a whole number from 1 to 100000, not '0'"),
        (["--players", "17"], "--players needs a whole number from 1 to 16, not '17'"),
        (["--spectators", "-1"], "--spectators needs a whole number from 0 to 256, not '-1'"),
        (["--rate", "0"], "--rate needs a number more than 0 to 1000000, not '0'"),
        (["--rate", "fast"], "--rate needs a number more than 0 to 1000000, not 'fast'"),
        (["--rate", "21"], "--rate for play is moves per bot per second, at most 20 (the server's per-connection limit), not 21"),
        (["--invalid-share", "1.5"], "--invalid-share needs a number from 0 to 1, not '1.5'"),
        (["--game", "chess"],
         "--game needs \(GameCatalog.games.map { $0.id }.joined(separator: ", ")) or mixed, not 'chess'"),
        (["--duration", "nan"], "--duration needs a number more than 0 to 86400, not 'nan'"),
        (["--frobnicate"], "unknown option '--frobnicate' (see --help)"),
        (["dance"], "unknown scenario 'dance': use play, idle, echo, churn, fanout or avalanche"),
        (["fanout", "--size", "41"], "--size for fanout must be at least 42 bytes (sender, number and send time), not 41"),
        (["fanout", "--room-size", "0"], "--room-size needs a whole number from 1 to 1000, not '0'"),
        (["fanout", "--url", "ws://127.0.0.1:8080/ws"], "fanout needs a room broadcast path such as /fanout, not /ws"),
        (["play", "echo"], "unexpected argument 'echo': give one scenario at most"),
        (["--url", "http://127.0.0.1:8080"], "--url: expected ws://HOST:PORT, not 'http://127.0.0.1:8080'"),
        (["--url", "wss://127.0.0.1"], "--url: wss:// is not supported (the bots have no TLS); use ws://"),
        (["--url", "ws://example.com:80"], "--url: the host must be localhost or a numeric IPv4 or IPv6 address, not 'example.com'"),
        (["--url", "ws://127.0.0.1:99999"], "--url: the port must be a number from 1 to 65535, not '99999'"),
        (["churn", "--players", "15", "--churners", "2"], "--players plus --churners must be at most 16 (a room's seats), not 17"),
        (["echo", "--url", "ws://127.0.0.1:8080/ws"], "echo needs an echoing path such as /echo, not /ws"),
        (["--quiet=yes"], "--quiet takes no value"),
        (["--warmup", "60"], "--warmup (60 s) must be shorter than --duration (60 s)"),
        (["--seed", "-3"], "--seed needs a whole number from 0 to 18446744073709551615, not '-3'"),
        (["--chat-share", "2"], "--chat-share needs a number from 0 to 1, not '2'"),
        (["--poll-us", "200000"], "--poll-us needs a whole number from 0 to 100000, not '200000'"),
        (["--source-addresses", "0"], "--source-addresses needs a whole number from 1 to 4096, not '0'"),
    ])
    func badFlagsAreRefusedWithTheReason(arguments: [String], message: String) {
        #expect(throws: BotOptions.ParseError(description: message)) {
            try BotOptions.parse(arguments)
        }
    }

    @Test func rateAboveTheMoveLimitIsFineForEcho() throws {
        #expect(try parsed(["echo", "--rate", "500"]).effectiveRate == 500)
    }

    @Test func mixedRoomsAlternateGames() throws {
        let options = try parsed(["--game", "mixed"])
        // Room after room through the catalog, then around again.
        let ids = GameCatalog.games.map { $0.id }
        #expect(Array(ids.prefix(2)) == ["snowman", "scramble"])
        for room in 0..<(2 * ids.count) { #expect(options.game(ofRoom: room).gameID == ids[room % ids.count]) }
        #expect(try parsed(["--game", "scramble"]).game(ofRoom: 0).gameID == "scramble")
        #expect(try parsed(["--game", "snowman"]).game == .only("snowman"))
    }
}
