import Testing
@testable import WordRoomsServer

/// Every per-address limit counts an IPv6 client by its network, not by the address it drew in it.
@Suite struct AddressBucketsTests {
    @Test(arguments: [
        ("203.0.113.5", "203.0.113.5"),
        // Addresses of one /64, however written, are one bucket.
        ("2001:db8:1:2::a", "2001:db8:1:2::/64"),
        ("2001:0DB8:0001:0002:ffff:1:2:3", "2001:db8:1:2::/64"),
        ("2001:db8:1:3::a", "2001:db8:1:3::/64"),
        // RFC 4291 §2.5.5.2: an IPv4-mapped address is its IPv4 address.
        ("::ffff:198.51.100.7", "198.51.100.7"),
        ("::ffff:127.0.0.1", "127.0.0.1"),
        // Loopback stays loopback, which the limits exempt.
        ("::1", "::1"),
        // Not an address (the proxy wrote something else): its own bucket, unchanged.
        ("unknown", "unknown"),
        ("2001:db8::zz", "2001:db8::zz"),
    ])
    func keysBySlash64(address: String, key: String) {
        #expect(AddressBuckets().key(of: address) == key)
    }

    @Test func thePrefixIsConfigurable() {
        #expect(AddressBuckets(ipv6Prefix: 48).key(of: "2001:db8:1:2::a") == "2001:db8:1::/48")
        #expect(AddressBuckets(ipv6Prefix: 56).key(of: "2001:db8:1:2ff::a") == "2001:db8:1:200::/56")
        #expect(AddressBuckets(ipv6Prefix: 32).key(of: "2001:db8:1:2::a") == "2001:db8::/32")
        #expect(AddressBuckets(ipv6Prefix: 128).key(of: "2001:db8:1:2::a") == "2001:db8:1:2::a")
        #expect(AddressBuckets(ipv6Prefix: 128).key(of: "::ffff:198.51.100.7") == "198.51.100.7")
    }

    @Test func limitersKeyedByBucketShareOneBudget() {
        let buckets = AddressBuckets()
        let limiter = AddressRateLimiter(perSecond: 0.001, burst: 2)
        #expect(limiter.allow(buckets.key(of: "2001:db8:1:2::1"), now: 0))
        #expect(limiter.allow(buckets.key(of: "2001:db8:1:2::2"), now: 0))
        #expect(!limiter.allow(buckets.key(of: "2001:db8:1:2::3"), now: 0))
        #expect(limiter.allow(buckets.key(of: "2001:db8:1:4::1"), now: 0))
    }
}
