import Testing
import Transport
@testable import WordRoomsServer

/// The addresses `/api/config` offers the page for its invite link (issue 43: a page opened on `localhost` must not
/// hand friends a `localhost` link).
@Suite struct ServerOptionsNetworkAddressesTests {
    @Test func listeningEverywhereOffersTheMachinesShareableAddresses() {
        var options = ServerOptions()
        options.host = "::"
        #expect(options.networkAddresses == InterfaceAddresses.shareable(includingIPv6: true))
        options.host = "0.0.0.0"
        #expect(options.networkAddresses == InterfaceAddresses.shareable(includingIPv6: false))
        #expect(options.networkAddresses.allSatisfy { !$0.contains(":") }, "0.0.0.0 answers on IPv4 only")
    }

    @Test(arguments: ["127.0.0.1", "::1", "192.168.1.20"])
    func aSpecificHostOffersNone(host: String) {
        var options = ServerOptions()
        options.host = host
        #expect(options.networkAddresses.isEmpty, "the server answers on \(host) only")
    }

    @Test func aPublicURLReplacesThem() {
        var options = ServerOptions()
        options.publicURL = "https://play.example.com"
        #expect(options.networkAddresses.isEmpty)
    }

    @Test func onlyAPageOnThisMachineIsToldThem() {
        var options = ServerOptions()
        options.host = "::"
        for client in ["127.0.0.1", "127.3.4.5", "::1", "::ffff:127.0.0.1"] {
            #expect(options.networkAddresses(forClient: client) == options.networkAddresses, "\(client)")
        }
        for client in ["192.168.1.30", "203.0.113.5", "2001:db8::7", "::ffff:10.0.0.2", "1127.0.0.1"] {
            #expect(options.networkAddresses(forClient: client).isEmpty, "\(client) learns no private address")
        }
    }
}
