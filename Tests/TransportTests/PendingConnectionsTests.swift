import Testing
import WebSocket
@testable import Transport

/// The per-address count of connections not yet upgraded: its cap, its exemptions, and whom a newcomer evicts
/// when the server is full.
@Suite struct PendingConnectionsTests {
    final class NoApplication: HTTPApplication {
        func webSocketEndpoint(for path: String) -> (any WebSocketEndpoint)? { nil }
        func respond(to request: HTTPRequestHead, from peer: SocketAddress) -> HTTPReply { .now(.text("", status: 404)) }
    }

    /// Handles on a loop that never runs: only their identity matters here.
    private let loop: EventLoop
    private static let attacker = SocketAddress(numericHost: "203.0.113.9")!
    private static let player = SocketAddress(numericHost: "198.51.100.7")!

    init() throws {
        loop = try EventLoop(index: 0, listenFD: -1, application: NoApplication(), configuration: TransportConfiguration())
    }

    private func handle(_ fd: Int32) -> ConnectionHandle {
        ConnectionHandle(loop: loop, fd: fd, generation: UInt32(fd))
    }

    @Test func anAddressAtItsCapIsOverIt() {
        let pending = PendingConnections(capPerAddress: 3, isExempt: { $0.isLoopback })
        for fd in 0..<3 {
            #expect(!pending.isOverCap(Self.attacker))
            pending.add(Self.attacker, handle(Int32(fd)))
        }
        #expect(pending.isOverCap(Self.attacker))
        #expect(!pending.isOverCap(Self.player), "the cap is per address")
        #expect(pending.remove(Self.attacker, handle(1)))
        #expect(!pending.isOverCap(Self.attacker), "an upgrade or a close frees a place")
    }

    @Test func ipv6AddressesOfOneNetworkShareTheCap() {
        let pending = PendingConnections(capPerAddress: 2, ipv6PrefixBits: 64, isExempt: { $0.isLoopback })
        // Two addresses of one /64: a client rotating through its network's host bits.
        pending.add(SocketAddress(numericHost: "2001:db8:1:2::1")!, handle(0))
        pending.add(SocketAddress(numericHost: "2001:db8:1:2:ffff:ffff:ffff:fffe")!, handle(1))
        #expect(pending.isOverCap(SocketAddress(numericHost: "2001:db8:1:2::9")!))
        #expect(!pending.isOverCap(SocketAddress(numericHost: "2001:db8:1:3::1")!), "another /64 is another client")
        #expect(pending.remove(SocketAddress(numericHost: "2001:db8:1:2::1")!, handle(0)))
        #expect(!pending.isOverCap(SocketAddress(numericHost: "2001:db8:1:2::9")!))

        let perAddress = PendingConnections(capPerAddress: 1, ipv6PrefixBits: 128, isExempt: { _ in false })
        perAddress.add(SocketAddress(numericHost: "2001:db8:1:2::1")!, handle(2))
        #expect(!perAddress.isOverCap(SocketAddress(numericHost: "2001:db8:1:2::2")!), "/128 counts each address")
    }

    @Test func aNetworkKeepsItsLeadingBitsOnly() {
        #expect(SocketAddress(numericHost: "2001:db8:aa:bb:cc:dd:ee:ff")!.network(ipv6PrefixBits: 64).host
                == "2001:db8:aa:bb::")
        #expect(SocketAddress(numericHost: "2001:db8:aa:bb:cc:dd:ee:ff")!.network(ipv6PrefixBits: 56).host
                == "2001:db8:aa::")
        #expect(SocketAddress(numericHost: "2001:db8:aa:bb:ccdd:dd:ee:ff")!.network(ipv6PrefixBits: 72).host
                == "2001:db8:aa:bb:cc00::")
        #expect(SocketAddress(numericHost: "203.0.113.9")!.network(ipv6PrefixBits: 64).host == "203.0.113.9",
                "IPv4 addresses count alone")
    }

    @Test func exemptAddressesAndCapZeroAreNotCapped() {
        let loopback = SocketAddress(numericHost: "127.0.0.1")!
        let pending = PendingConnections(capPerAddress: 1, isExempt: { $0.isLoopback })
        pending.add(loopback, handle(1))
        pending.add(loopback, handle(2))
        #expect(!pending.isOverCap(loopback))
        let uncapped = PendingConnections(capPerAddress: 0, isExempt: { _ in false })
        uncapped.add(Self.attacker, handle(1))
        #expect(!uncapped.isOverCap(Self.attacker))
    }

    @Test func aNewcomerEvictsTheOldestOfTheLargestHolder() {
        let pending = PendingConnections(capPerAddress: 0, isExempt: { _ in false })
        for fd in 10..<15 { pending.add(Self.attacker, handle(Int32(fd))) }
        pending.add(Self.player, handle(20))
        #expect(pending.claimVictim(for: SocketAddress(numericHost: "192.0.2.1")!) == handle(10))
        #expect(pending.claimVictim(for: Self.player) == handle(11))
        #expect(pending.count(Self.attacker) == 3)
        // A claimed connection is off the count: its upgrade is refused.
        #expect(!pending.remove(Self.attacker, handle(10)))
    }

    @Test func theLargestHolderDoesNotEvictItselfOrItsEqual() {
        let pending = PendingConnections(capPerAddress: 0, isExempt: { _ in false })
        for fd in 0..<4 { pending.add(Self.attacker, handle(Int32(fd))) }
        #expect(pending.claimVictim(for: Self.attacker) == nil)
        for fd in 10..<13 { pending.add(Self.player, handle(Int32(fd))) }
        #expect(pending.claimVictim(for: Self.player) == nil, "4 against 3: the swap would only turn the tables")
        #expect(PendingConnections(capPerAddress: 0, isExempt: { _ in false }).claimVictim(for: Self.player) == nil)
    }

    @Test func portsDoNotSplitAnAddress() {
        let pending = PendingConnections(capPerAddress: 2, isExempt: { _ in false })
        pending.add(Self.attacker, handle(1))
        pending.add(SocketAddress(numericHost: "::ffff:203.0.113.9")!, handle(2))
        #expect(pending.isOverCap(Self.attacker))
    }
}
