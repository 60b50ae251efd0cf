import Foundation
import JSON
import Testing
@testable import WordRoomsServer

/// The lobby under many rooms: `GET /api/rooms` pages, caps and caches, is limited per address, and the lobby's
/// subscribers get their page once and then only what changed in it.
@Suite struct LobbyListingTests {
    /// Creates `count` public rooms (every `scrambleEvery`-th one a Word Scramble room, none when nil), their
    /// hosts kept connected, and waits until the lobby lists them all.
    private static func createRooms(_ port: Int, count: Int, scrambleEvery: Int? = 4) throws -> [GameClient] {
        let hosts = Locked<[GameClient]>([])
        let threads = 6
        onThreads(threads) { thread in
            for index in stride(from: thread, to: count, by: threads) {
                let game = scrambleEvery.map { index % $0 == 0 } == true ? "scramble" : "snowman"
                guard let host = try? GameClient.create(port: port, game: game, name: "Host \(index)") else { continue }
                hosts.withLock { $0.append(host) }
            }
        }
        for _ in 0..<50 {
            let listed = try JSONParser().parse(try get(port, "/api/rooms").body)["total"]?.intValue
            if listed == count { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return hosts.withLock { $0 }
    }

    private static func get(_ port: Int, _ target: String, forwardedFor: String? = nil) throws
        -> (status: Int, head: String, body: [UInt8]) {
        let http = try TestClient(port: port)
        var request = "GET \(target) HTTP/1.1\r\nHost: x\r\n"
        if let forwardedFor { request += "X-Forwarded-For: \(forwardedFor)\r\n" }
        try http.send(request + "\r\n")
        return try http.readHTTPResponse()
    }

    private static func codes(_ body: [UInt8]) throws -> [String] {
        try JSONParser().parse(body)["rooms"]?.arrayValue?.compactMap { $0["code"]?.stringValue } ?? []
    }

    @Test func roomsAreServedInBoundedCachedPages() async throws {
        try await withServer { server in
            let hosts = try Self.createRooms(server.port, count: 120)
            try #require(hosts.count == 120)
            let first = try Self.get(server.port, "/api/rooms")
            #expect(first.status == 200)
            let page = try JSONParser().parse(first.body)
            #expect(page["rooms"]?.arrayValue?.count == 50)
            #expect(page["total"]?.intValue == 120)
            #expect(page["limit"]?.intValue == 50)
            #expect(page["counts"]?["scramble"]?.intValue == 30)
            #expect(page["counts"]?["snowman"]?.intValue == 90)
            // 50 rooms of about 100 bytes: the page stays small however many rooms there are.
            #expect(first.body.count < 8_000)
            // The same request, again: the same bytes, cut once from the listing.
            #expect(try Self.get(server.port, "/api/rooms").body == first.body)
            // A limit above the maximum is served as the maximum.
            let capped = try JSONParser().parse(try Self.get(server.port, "/api/rooms?limit=5000").body)
            #expect(capped["rooms"]?.arrayValue?.count == 50)
            #expect(capped["limit"]?.intValue == 50)
            // The pages together hold every room once.
            var seen: [String] = []
            for offset in stride(from: 0, to: 150, by: 50) {
                seen += try Self.codes(try Self.get(server.port, "/api/rooms?offset=\(offset)&limit=50").body)
            }
            #expect(seen.count == 120)
            #expect(Set(seen) == Set(hosts.compactMap(\.code)))
            // One game's rooms.
            let scramble = try JSONParser().parse(try Self.get(server.port, "/api/rooms?game=scramble&limit=20").body)
            #expect(scramble["rooms"]?.arrayValue?.count == 20)
            #expect(scramble["rooms"]?.arrayValue?.allSatisfy { $0["game"]?.stringValue == "scramble" } == true)
            #expect(scramble["total"]?.intValue == 30)
        }
    }

    @Test(arguments: ["limit=0", "limit=many", "offset=-1", "offset=99999999", "game=chess"])
    func badPageQueriesGet400(query: String) async throws {
        try await withServer { server in
            let reply = try Self.get(server.port, "/api/rooms?\(query)")
            #expect(reply.status == 400)
            let name = String(query.prefix { $0 != "=" })
            #expect(String(decoding: reply.body, as: UTF8.self).contains("\"\(name)\""))
        }
    }

    @Test func roomListFloodsFromOneAddressGet429() async throws {
        var limits = GameLimits()
        limits.lobbyRequestsPerSecond = 0.5
        limits.lobbyRequestBurst = 3
        try await withServer(limits: limits, behindProxy: true) { server in
            var statuses: [Int] = []
            var refusal = ""
            for _ in 0..<4 {
                let reply = try Self.get(server.port, "/api/rooms", forwardedFor: "203.0.113.20")
                statuses.append(reply.status)
                if reply.status == 429 { refusal = reply.head }
            }
            #expect(statuses == [200, 200, 200, 429])
            #expect(refusal.contains("Retry-After: 2"))
            // Another address behind the same proxy has its own budget.
            #expect(try Self.get(server.port, "/api/rooms", forwardedFor: "203.0.113.21").status == 200)
        }
    }

    @Test func subscribersGetTheirPageThenOnlyWhatChanged() async throws {
        try await withServer { server in
            let hosts = try Self.createRooms(server.port, count: 60, scrambleEvery: nil)
            try #require(hosts.count == 60)
            let watcher = try GameClient(port: server.port)
            try watcher.send(["type": "lobby", "game": "snowman"])
            let whole = try watcher.receive { $0["type"]?.stringValue == "lobby" }
            let page = try #require(whole["rooms"]?.arrayValue)
            #expect(page.count == 50)
            #expect(whole["total"]?.intValue == 60)
            #expect(whole["game"]?.stringValue == "snowman")
            let wholeBytes = try #require(watcher.received.last).count

            // A second player in the room listed last moves it to the top of the page; the room that was 50th
            // drops out of it.
            let sorted = hosts.compactMap(\.code).sorted()
            let pageCodes = page.compactMap { $0["code"]?.stringValue }
            let snowmanOutside = try #require(sorted.last { code in
                !pageCodes.contains(code) && hosts.contains { $0.code == code }
            })
            let guest = try GameClient.join(port: server.port, code: snowmanOutside, name: "Guest")
            let delta = try watcher.receive { $0["type"]?.stringValue == "lobby-delta" }
            let deltaBytes = try #require(watcher.received.last).count
            let changed = try #require(delta["rooms"]?.arrayValue)
            #expect(changed.map { $0["code"]?.stringValue } == [snowmanOutside])
            #expect(changed.first?["players"]?.intValue == 2)
            #expect(delta["removed"]?.arrayValue?.map(\.stringValue) == [pageCodes.last])
            #expect(deltaBytes * 10 < wholeBytes)
            #expect(guest.code == snowmanOutside)
        }
    }
}

/// A value shared by test threads under a lock.
private final class Locked<T>: @unchecked Sendable {
    private var value: T
    private let lock = NSLock()

    init(_ value: T) {
        self.value = value
    }

    func withLock<R>(_ body: (inout T) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
