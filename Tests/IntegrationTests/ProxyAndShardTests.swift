#if canImport(Glibc)
import Glibc
#endif
import Foundation
import JSON
import WordGames
import Testing
import WebSocket
@testable import WordRoomsServer

/// Running behind a proxy and as one of several instances: origins, client addresses, shard codes, the room in
/// the URL, readiness, and the lobby shared through Redis.
@Suite struct ProxyAndShardTests {
    private func upgrade(_ port: Int, path: String = "/ws", headers: [String: String]) throws -> (TestClient, String) {
        try TestClient.upgrade(port: port, path: path, headers: headers)
    }

    @Test func foreignOriginsGet403AndListedOnesConnect() async throws {
        try await withServer(options: { $0.allowedOrigins = ["https://play.example.com"] }) { server in
            let (_, refused) = try upgrade(server.port, headers: ["Origin": "https://evil.example"])
            #expect(refused.hasPrefix("HTTP/1.1 403"))
            let (_, accepted) = try upgrade(server.port, headers: ["Origin": "https://PLAY.example.com"])
            #expect(accepted.hasPrefix("HTTP/1.1 101"))
            let (_, bot) = try upgrade(server.port, headers: [:])
            #expect(bot.hasPrefix("HTTP/1.1 101"))
        }
    }

    @Test func connectionsPerAddressCountTheForwardedClient() async throws {
        try await withServer(behindProxy: true, options: { $0.maxConnectionsPerIP = 2 }) { server in
            var open: [TestClient] = []
            for _ in 0..<2 {
                let (client, head) = try upgrade(server.port, headers: ["X-Forwarded-For": "198.51.100.7"])
                #expect(head.hasPrefix("HTTP/1.1 101"))
                open.append(client)
            }
            let (third, _) = try upgrade(server.port, headers: ["X-Forwarded-For": "198.51.100.7"])
            #expect(try third.readFrame().closeCode == 1008)
            // Another client behind the same proxy is counted on its own.
            let (other, head) = try upgrade(server.port, headers: ["X-Forwarded-For": "198.51.100.8"])
            #expect(head.hasPrefix("HTTP/1.1 101"))
            try other.sendFrame(.text, Array(#"{"type":"lobby"}"#.utf8))
            #expect(try other.readFrame().text.contains("\"lobby\""))
        }
    }

    private func metricsStatus(_ port: Int, headers: [String: String]) throws -> Int {
        let client = try TestClient(port: port)
        var request = "GET /metrics HTTP/1.1\r\nHost: x\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        try client.send(request + "\r\n")
        return try client.readHTTPResponse().status
    }

    /// Before: `/metrics` answered every address. Other addresses are simulated through a trusted proxy.
    @Test func metricsAreForLoopbackAllowedNetworksAndTheToken() async throws {
        let token = "scrape-token-0123456789"
        try await withServer(behindProxy: true, options: {
            $0.metricsAllow = ["192.0.2.0/24"]
            $0.metricsToken = token
        }) { server in
            let asked: [[String: String]] = [
                [:],                                            // loopback itself
                ["X-Forwarded-For": "127.3.4.5"],               // loopback, as a number
                ["X-Forwarded-For": "203.0.113.9"],             // anyone else
                ["X-Forwarded-For": "192.0.2.77"],              // --metrics-allow
                ["X-Forwarded-For": "203.0.113.9", "Authorization": "Bearer \(token)"],
                ["X-Forwarded-For": "203.0.113.9", "Authorization": "Bearer wrong-token-0123456789"],
            ]
            let statuses = try asked.map { try metricsStatus(server.port, headers: $0) }
            #expect(statuses == [200, 200, 403, 200, 200, 403])
        }
    }

    /// Before: a forwarded `127.evil` passed for loopback by its prefix, which no per-address limit applies to
    /// and which may read `/metrics`. Now it is no address, and the request is refused.
    @Test func aForwardedHopThatIsNoAddressIsRefused() async throws {
        try await withServer(behindProxy: true, options: { $0.maxConnectionsPerIP = 1 }) { server in
            #expect(try metricsStatus(server.port, headers: ["X-Forwarded-For": "127.evil"]) == 400)
            let (_, head) = try upgrade(server.port, headers: ["X-Forwarded-For": "127.evil"])
            #expect(head.hasPrefix("HTTP/1.1 400"))
            // Loopback is tested on the numbers: a forwarded ::ffff:127.0.0.1 is loopback, so not capped.
            var open: [TestClient] = []
            for _ in 0..<2 {
                let (client, head) = try upgrade(server.port, headers: ["X-Forwarded-For": "::ffff:127.0.0.1"])
                #expect(head.hasPrefix("HTTP/1.1 101"))
                open.append(client)
            }
            try open[1].sendFrame(.text, Array(#"{"type":"lobby"}"#.utf8))
            #expect(try open[1].readFrame().text.contains("\"lobby\""), "the second was not closed as over the cap")
        }
    }

    @Test func shardedCodesNameTheShardAndJoinByURL() async throws {
        try await withServer(options: { $0.shard = 2 }) { server in
            let host = try GameClient.create(port: server.port, game: "snowman", name: "Ana")
            let code = try #require(host.code)
            #expect(code.count == 5)
            #expect(code.hasPrefix("C"))
            let guest = try GameClient(port: server.port, path: "/ws/\(code)")
            try guest.send(["type": "join", "code": JSONValue(code.lowercased()), "name": "Bob"])
            try guest.receive { $0["type"]?.stringValue == "welcome" }
            #expect(guest.you == "p2")
        }
    }

    @Test func readinessAndConfigAreServed() async throws {
        try await withServer(options: { $0.publicURL = "https://play.example.com/"; $0.shard = 1 }) { server in
            let ready = try TestClient(port: server.port)
            try ready.send("GET /readyz HTTP/1.1\r\nHost: x\r\n\r\nGET /api/config HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try ready.readHTTPResponse().status == 200)
            let config = try JSONParser().parse(try ready.readHTTPResponse().body)
            #expect(config["publicUrl"]?.stringValue == "https://play.example.com/")
            #expect(config["shard"]?.intValue == 1)
            #expect(server.url == "https://play.example.com/")
            // Each game's settings with the bounds the server checks: the web client's steppers are built from them.
            let games = try #require(config["games"]?.arrayValue)
            #expect(games.compactMap { $0["id"]?.stringValue } == GameCatalog.games.map { $0.id })
            let snowman = try #require(games.first?["settings"]?.arrayValue)
            #expect(snowman.compactMap { $0["key"]?.stringValue } == ["maxWrongGuesses", "turnSeconds"])
            #expect(snowman[0]["min"]?.intValue == SnowmanSettings.maxWrongGuessesRange.lowerBound)
            #expect(snowman[0]["max"]?.intValue == SnowmanSettings.maxWrongGuessesRange.upperBound)
            #expect(snowman[0]["initial"]?.intValue == SnowmanSettings.defaultMaxWrongGuesses)
            #expect(snowman[0].objectValue?["off"] == nil, "the wrong-guess limit cannot be switched off")
            #expect(snowman[1].objectValue?["off"] == .null, "the turn timer can be switched off")
            #expect(snowman[1]["unit"]?.stringValue == "s")
            let scramble = try #require(games.first { $0["id"]?.stringValue == "scramble" }?["settings"]?.arrayValue)
            #expect(scramble.compactMap { $0["key"]?.stringValue }
                == ["rounds", "roundSeconds", "minWordLength", "breakSeconds"])
            #expect(scramble[1]["step"]?.intValue == 15)
        }
    }

    @Test func lobbyIsSharedThroughRedis() async throws {
        let redis = try FakeRedis()
        defer { redis.stop() }
        // Another instance's rooms, as it would have published them.
        redis.set("wordrooms:rooms:0", #"[{"code":"AQQQQ","game":"scramble","players":3,"spectators":0,"maxPlayers":16,"status":"playing"}]"#)
        try await withServer(options: { $0.shard = 1; $0.redis = "127.0.0.1:\(redis.port)" }) { server in
            let host = try GameClient.create(port: server.port, game: "snowman", name: "Ana")
            var codes: [String] = []
            for _ in 0..<50 where codes.count < 2 {
                Thread.sleep(forTimeInterval: 0.2)
                let http = try TestClient(port: server.port)
                try http.send("GET /api/rooms HTTP/1.1\r\nHost: x\r\n\r\n")
                let body = try JSONParser().parse(try http.readHTTPResponse().body)
                codes = body["rooms"]?.arrayValue?.compactMap { $0["code"]?.stringValue } ?? []
            }
            #expect(codes == ["AQQQQ", host.code!])
            #expect(redis.get("wordrooms:rooms:1")?.contains(host.code!) == true)
        }
    }
}

/// Just enough of a Redis server for the shared lobby: SET (with EX), GET, KEYS prefix*, MGET.
final class FakeRedis: @unchecked Sendable {
    private let listener: Int32
    let port: Int
    private let lock = NSLock()
    private var values: [String: String] = [:]
    private var running = true

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        listen(listener, 8)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        self.port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    func set(_ key: String, _ value: String) {
        lock.lock(); values[key] = value; lock.unlock()
    }

    func get(_ key: String) -> String? {
        lock.lock(); defer { lock.unlock() }
        return values[key]
    }

    func stop() {
        running = false
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while running {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            Thread { [self] in serve(fd) }.start()
        }
    }

    private func serve(_ fd: Int32) {
        defer { close(fd) }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let (value, length) = try? RESPValue.parse(buffer[...]), case .array(let items?) = value {
                buffer.removeFirst(length)
                let words = items.compactMap { item -> String? in
                    if case .bulk(let bytes?) = item { return String(decoding: bytes, as: UTF8.self) }
                    return nil
                }
                let reply = answer(words)
                _ = reply.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
                continue
            }
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            guard n > 0 else { return }
            buffer += chunk[..<n]
        }
    }

    private func bulk(_ text: String?) -> String {
        guard let text else { return "$-1\r\n" }
        return "$\(text.utf8.count)\r\n\(text)\r\n"
    }

    private func answer(_ words: [String]) -> [UInt8] {
        lock.lock(); defer { lock.unlock() }
        switch words.first?.uppercased() {
        case "SET" where words.count >= 3:
            values[words[1]] = words[2]
            return Array("+OK\r\n".utf8)
        case "GET" where words.count == 2:
            return Array(bulk(values[words[1]]).utf8)
        case "KEYS" where words.count == 2:
            let prefix = String(words[1].dropLast())
            let keys = values.keys.filter { $0.hasPrefix(prefix) }.sorted()
            return Array(("*\(keys.count)\r\n" + keys.map { bulk($0) }.joined()).utf8)
        case "MGET":
            let found = words.dropFirst().map { bulk(values[$0]) }
            return Array(("*\(found.count)\r\n" + found.joined()).utf8)
        default:
            return Array("-ERR unknown command\r\n".utf8)
        }
    }
}
