import Testing
@testable import WordRoomsServer

@Suite struct RESPValueTests {
    @Test func encodesCommandsAsArraysOfBulkStrings() {
        #expect(RESPValue.encode(["SET", "k", "é"]) == Array("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$2\r\né\r\n".utf8))
    }

    @Test(arguments: [
        ("+OK\r\n", RESPValue.simple("OK")),
        ("-ERR wrong\r\n", .error("ERR wrong")),
        (":42\r\n", .integer(42)),
        ("$5\r\nhello\r\n", .bulk(Array("hello".utf8))),
        ("$-1\r\n", .bulk(nil)),
        ("*-1\r\n", .array(nil)),
        ("*2\r\n$1\r\na\r\n:7\r\n", .array([.bulk([97]), .integer(7)])),
    ])
    func parsesEveryReplyType(text: String, expected: RESPValue) throws {
        let bytes = Array(text.utf8)
        let (value, length) = try #require(try RESPValue.parse(bytes[...]))
        #expect(value == expected)
        #expect(length == bytes.count)
        // Every strict prefix needs more bytes.
        for cut in 0..<bytes.count {
            #expect(try RESPValue.parse(bytes[..<cut]) == nil)
        }
    }

    @Test(arguments: ["?x\r\n", ":x\r\n", "$-5\r\n", "$3\r\nabcde\r\n", "*x\r\n"])
    func refusesMalformedReplies(text: String) {
        #expect(throws: RESPValue.ParseError.self) { try RESPValue.parse(Array(text.utf8)[...]) }
    }
}

@Suite struct ClientAddressTests {
    private func request(forwardedFor: String?) -> HTTPRequestHead {
        HTTPRequestHead(method: "GET", target: "/ws", headers: forwardedFor.map { [("X-Forwarded-For", $0)] } ?? [])
    }

    @Test func untrustedPeersAreTakenAtTheirWord() throws {
        #expect(ClientAddress.resolve(host: "203.0.113.9", request: request(forwardedFor: "1.2.3.4"),
                                      trustedProxies: try AddressRanges(["127.0.0.1"])) == "203.0.113.9")
    }

    @Test func trustedProxyNamesTheClient() throws {
        #expect(ClientAddress.resolve(host: "127.0.0.1", request: request(forwardedFor: "6.6.6.6, 198.51.100.7"),
                                      trustedProxies: try AddressRanges(["127.0.0.1"])) == "198.51.100.7")
    }

    @Test func chainsOfTrustedProxiesAreSkipped() throws {
        #expect(ClientAddress.resolve(host: "127.0.0.1", request: request(forwardedFor: "198.51.100.7, 10.0.0.2"),
                                      trustedProxies: try AddressRanges(["127.0.0.1", "10.0.0.0/8"])) == "198.51.100.7")
    }

    @Test func trustedProxyWithoutHeaderIsTheClient() throws {
        #expect(ClientAddress.resolve(host: "127.0.0.1", request: request(forwardedFor: nil),
                                      trustedProxies: try AddressRanges(["127.0.0.1"])) == "127.0.0.1")
    }

    /// Hops are parsed as IP addresses and given back in canonical form (one client, one key).
    @Test(arguments: [
        ("198.51.100.7", "198.51.100.7"), ("198.51.100.7:5123", "198.51.100.7"),
        ("2001:DB8::1", "2001:db8::1"), ("[2001:db8::1]", "2001:db8::1"), ("[2001:db8::1]:443", "2001:db8::1"),
        ("::ffff:198.51.100.7", "198.51.100.7"),
    ])
    func readsEachHopAsAnAddress(_ hop: String, _ client: String) throws {
        #expect(ClientAddress.resolve(host: "127.0.0.1", request: request(forwardedFor: "6.6.6.6, \(hop)"),
                                      trustedProxies: try AddressRanges(["127.0.0.1"])) == client)
    }

    /// A hop that a trusted proxy should have written as an address but is not one makes the header unreadable
    /// (the request gets 400), rather than letting the text pass for an address, as `127.evil` passed for loopback.
    @Test(arguments: ["127.evil", "unknown", "localhost", "1.2.3", "01.2.3.4", "1.2.3.4:http", "[::1", "fe80::1%eth0",
                      "1.2.3.4.5", "999.1.1.1"])
    func garbageHopsAreUnreadable(_ hop: String) throws {
        #expect(ClientAddress.resolve(host: "127.0.0.1", request: request(forwardedFor: "198.51.100.7, \(hop)"),
                                      trustedProxies: try AddressRanges(["127.0.0.1"])) == nil)
    }

    /// Hops left of the client's are the client's own words and are not read.
    @Test func garbageLeftOfTheClientIsNotRead() throws {
        #expect(ClientAddress.resolve(host: "127.0.0.1", request: request(forwardedFor: "127.evil, 198.51.100.7"),
                                      trustedProxies: try AddressRanges(["127.0.0.1"])) == "198.51.100.7")
    }

    @Test(arguments: [
        ("127.0.0.1", true), ("127.255.3.4", true), ("::1", true), ("::ffff:127.0.0.9", true),
        ("127.evil", false), ("127.0.0.1.example.com", false), ("128.0.0.1", false), ("::2", false),
        ("2001:db8::1", false), ("", false), ("localhost", false),
    ])
    func loopbackIsTestedOnTheNumbers(_ address: String, _ loopback: Bool) {
        #expect(ConnectionsPerAddress.isLoopback(address) == loopback)
    }
}

@Suite struct MetricsGateTests {
    private static let token = "scrape-token-0123456789"

    private func request(authorization: String? = nil) -> HTTPRequestHead {
        HTTPRequestHead(method: "GET", target: "/metrics", headers: authorization.map { [("Authorization", $0)] } ?? [])
    }

    private func gate(allow: [String] = []) throws -> MetricsGate {
        MetricsGate(allowed: try AddressRanges(allow, flag: "--metrics-allow"), token: Self.token)
    }

    @Test(arguments: ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"])
    func loopbackIsAlwaysAllowed(_ address: String) throws {
        #expect(try gate().refusal(request(), from: address) == nil)
    }

    @Test func otherAddressesGet403() throws {
        let refusal = try #require(try gate().refusal(request(), from: "203.0.113.9"))
        #expect(refusal.status == 403)
        #expect(try gate().refusal(request(), from: "127.evil")?.status == 403)
    }

    @Test func allowedNetworksAreLetIn() throws {
        let gate = try gate(allow: ["10.0.0.0/8", "2001:db8::/32"])
        #expect(gate.refusal(request(), from: "10.2.3.4") == nil)
        #expect(gate.refusal(request(), from: "2001:db8::7") == nil)
        #expect(gate.refusal(request(), from: "11.2.3.4")?.status == 403)
    }

    @Test func theTokenOpensItFromAnywhere() throws {
        #expect(try gate().refusal(request(authorization: "Bearer \(Self.token)"), from: "203.0.113.9") == nil)
        #expect(try gate().refusal(request(authorization: "Bearer \(Self.token)x"), from: "203.0.113.9")?.status == 403)
        #expect(try gate().refusal(request(authorization: Self.token), from: "203.0.113.9")?.status == 403)
    }

    @Test(arguments: [("short", "at least 16"), (String(repeating: "a", count: 257), "at most 256"),
                      ("has a space in it 1234", "visible ASCII")])
    func badTokensAreRefusedWithTheReason(_ token: String, _ reason: String) {
        #expect(MetricsGate.problem(withToken: token)?.contains(reason) == true)
    }
}

@Suite struct RateLimiterTests {
    @Test func allowsTheBurstThenTheRate() {
        var limiter = RateLimiter(perSecond: 2, burst: 3, now: 0)
        var results: [Bool] = []
        for now in [0, 0, 0, 0, 0.5, 0.5, 10] {
            results.append(limiter.allow(now: now))
        }
        #expect(results == [true, true, true, false, true, false, true])
    }
}

import WebSocket

@Suite struct AddressRangesTests {
    @Test func matchesAddressesAndNetworksOfBothFamilies() throws {
        let ranges = try AddressRanges(["127.0.0.1", "10.0.0.0/8", "fd00::/8", "192.168.1.0/24"])
        for inside in ["127.0.0.1", "10.200.3.4", "fd12::1", "192.168.1.77"] {
            #expect(ranges.contains(inside), "\(inside)")
        }
        for outside in ["127.0.0.2", "11.0.0.1", "fe80::1", "192.168.2.1", "::1", "not an address"] {
            #expect(!ranges.contains(outside), "\(outside)")
        }
    }

    @Test(arguments: ["10.0.0.0/33", "fd00::/129", "10.0.0/8", "proxy", "1.2.3.4/x"])
    func refusesMalformedEntries(entry: String) {
        #expect(throws: ServerOptions.ParseError.self) { try AddressRanges([entry]) }
    }
}
