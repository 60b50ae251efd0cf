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
