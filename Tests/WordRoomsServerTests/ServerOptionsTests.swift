import Testing
@testable import WordRoomsServer

@Suite struct ServerOptionsTests {
    private func parse(_ arguments: [String]) throws(ServerOptions.ParseError) -> ServerOptions {
        guard case .run(let options) = try ServerOptions.parse(arguments) else {
            throw ServerOptions.ParseError(description: "asked for help")
        }
        return options
    }

    @Test func defaultsServeEverywhereOn8080() throws {
        let options = try parse([])
        #expect(options.host == "::")
        #expect(options.port == 8080)
        #expect(options.maxMessageBytes == 65536)
        #expect(options.shard == nil)
        #expect(options.awayTurnSeconds == 10)
    }

    @Test func readsEveryFlagInBothForms() throws {
        let options = try parse([
            "--host", "localhost", "--port=0", "--threads", "3", "--web", "/srv/web", "--max-message-bytes", "1000",
            "--words", "w.txt", "--public-url", "https://play.example.com", "--trusted-proxy", "10.0.0.0/8,::1",
            "--allowed-origin", "https://Play.example.com", "--shard", "2", "--redis", "127.0.0.1:6379",
            "--max-connections-per-ip", "9", "--away-turn-seconds=25",
        ])
        #expect(options.host == "127.0.0.1")
        #expect(options.port == 0)
        #expect(options.threads == 3)
        #expect(options.webDirectory == "/srv/web")
        #expect(options.maxMessageBytes == 1000)
        #expect(options.wordsFile == "w.txt")
        #expect(options.publicURL == "https://play.example.com/")
        #expect(options.trustedProxies == ["10.0.0.0/8", "::1"])
        #expect(options.allowedOrigins == ["https://play.example.com"])
        #expect(options.shard == 2)
        #expect(options.redis == "127.0.0.1:6379")
        #expect(options.maxConnectionsPerIP == 9)
        #expect(options.awayTurnSeconds == 25)
    }

    @Test func lobbyRateLimitsRoomListRequests() throws {
        #expect(try parse([]).lobbyRate == 5)
        #expect(try parse(["--lobby-rate", "2"]).lobbyRate == 2)
        #expect(try parse(["--lobby-rate=40"]).lobbyRate == 40)
        #expect(throws: ServerOptions.ParseError.self) { try parse(["--lobby-rate", "0"]) }
        #expect(throws: ServerOptions.ParseError.self) { try parse(["--lobby-rate", "lots"]) }
    }

    @Test func silenceSecondsDefaultsTo15AndIsBounded() throws {
        #expect(try parse([]).silenceSeconds == 15)
        #expect(try parse(["--silence-seconds", "7"]).silenceSeconds == 7)
        #expect(throws: ServerOptions.ParseError.self) { try parse(["--silence-seconds", "0"]) }
    }

    @Test func benchKeylessRoomsIsOffUnlessAsked() throws {
        #expect(try parse([]).benchKeylessRooms == false)
        #expect(try parse(["--bench-keyless-rooms"]).benchKeylessRooms)
        #expect(throws: ServerOptions.ParseError.self) { try parse(["--bench-keyless-rooms=yes"]) }
    }

    @Test func benchFanoutIsOffUnlessAsked() throws {
        #expect(try parse([]).benchFanout == false)
        #expect(try parse(["--bench-fanout"]).benchFanout)
        #expect(ServerOptions.usage.contains("--bench-fanout"))
        #expect(throws: ServerOptions.ParseError.self) { try parse(["--bench-fanout=yes"]) }
    }

    @Test func benchEchoIsOffUnlessAsked() throws {
        #expect(try parse([]).benchEcho == false)
        #expect(try parse(["--bench-echo"]).benchEcho)
        #expect(ServerOptions.usage.contains("--bench-echo"))
        #expect(throws: ServerOptions.ParseError.self) { try parse(["--bench-echo=yes"]) }
    }

    @Test func readsTheMetricsAndPendingFlags() throws {
        let options = try parse(["--metrics-allow", "10.0.0.0/8,fd00::/8", "--metrics-allow=192.0.2.1",
                                 "--metrics-token", "0123456789abcdef-XYZ", "--max-pending-per-ip", "12"])
        #expect(options.metricsAllow == ["10.0.0.0/8", "fd00::/8", "192.0.2.1"])
        #expect(options.metricsToken == "0123456789abcdef-XYZ")
        #expect(options.maxPendingPerIP == 12)
        let defaults = try parse([])
        #expect(defaults.metricsAllow.isEmpty && defaults.metricsToken == nil && defaults.maxPendingPerIP == 256)
    }

    @Test func badMetricsFlagsSayWhy() {
        #expect(throws: ServerOptions.ParseError(
            description: "--metrics-allow needs numeric addresses or networks like 10.0.0.0/8, not 'intranet'")) {
            try parse(["--metrics-allow", "intranet"])
        }
        #expect(throws: ServerOptions.ParseError(
            description: "--metrics-token: a metrics token needs at least 16 characters")) {
            try parse(["--metrics-token", "short"])
        }
    }

    @Test func readsTheRoomAbuseLimits() throws {
        let defaults = try parse([])
        #expect(defaults.maxRooms == 10_000)
        #expect(defaults.ipv6Prefix == 64)
        #expect(defaults.membersPerAddress == 8)
        let options = try parse([
            "--max-rooms", "500", "--rooms-per-address=3", "--room-creations-per-minute", "4",
            "--creator-only-grace", "30", "--members-per-address", "2", "--room-chat-budget", "65536",
            "--ipv6-prefix", "56",
        ])
        #expect(options.maxRooms == 500)
        #expect(options.roomsPerAddress == 3)
        #expect(options.roomCreationsPerMinute == 4)
        #expect(options.creatorOnlyGraceSeconds == 30)
        #expect(options.membersPerAddress == 2)
        #expect(options.roomChatBudget == 65536)
        #expect(options.ipv6Prefix == 56)
    }

    @Test func helpIsNotAnError() throws {
        #expect(try ServerOptions.parse(["--help"]) == .help)
        #expect(try ServerOptions.parse(["-h"]) == .help)
    }

    @Test(arguments: [
        (["--port", "70000"], "--port needs a whole number from 0 to 65535, not '70000'"),
        (["--port"], "--port needs a value"),
        (["--bogus"], "unknown option '--bogus'"),
        (["--host", "example.com"], "--host needs localhost or a numeric IPv4 or IPv6 address such as 127.0.0.1 or ::, not 'example.com'"),
        (["--shard", "22"], "--shard needs a number from 0 to 21 or 'auto', not '22'"),
        (["--redis", "redis"], "--redis needs HOST:PORT, not 'redis'"),
        (["--public-url", "play.example.com"], "--public-url needs an http:// or https:// URL, not 'play.example.com'"),
        (["--allowed-origin", "https://x.com/"], "--allowed-origin needs origins like https://play.example.com (no path), not 'https://x.com/'"),
        (["--ipv6-prefix", "16"], "--ipv6-prefix needs a whole number from 32 to 128, not '16'"),
        (["--max-rooms", "0"], "--max-rooms needs a whole number from 1 to 10000000, not '0'"),
        (["--trusted-proxy", "proxy.local"], "--trusted-proxy needs numeric addresses or networks like 10.0.0.0/8, not 'proxy.local'"),
    ])
    func badFlagsAreExplained(arguments: [String], message: String) {
        #expect(throws: ServerOptions.ParseError(description: message)) { try ServerOptions.parse(arguments) }
    }
}
