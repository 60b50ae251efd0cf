import Testing
import WebSocket
@testable import Transport

@Suite struct TransportCountersTests {
    /// Counters with every field set to a different value.
    static func sample(_ base: Int) -> TransportCounters {
        var counters = TransportCounters()
        counters.accepted = base + 1
        counters.acceptFailures = base + 2
        counters.connectionsRefused = base + 3
        counters.httpRequests = base + 4
        counters.badRequests = base + 5
        counters.upgrades = base + 6
        counters.handshakeFailures = base + 7
        counters.requestTimeouts = base + 8
        counters.pingTimeouts = base + 9
        counters.slowConsumers = base + 10
        counters.messagesIn = base + 11
        counters.messagesOut = base + 12
        counters.bytesIn = base + 13
        counters.bytesOut = base + 14
        counters.openConnections = base + 15
        counters.handshakeBytesIn = base + 16
        counters.handshakeBytesOut = base + 17
        counters.compressedConnections = base + 18
        return counters
    }

    @Test func addingSumsEveryCounter() {
        var total = Self.sample(0)
        total.add(Self.sample(100))
        let expected = (1...18).map { 2 * $0 + 100 }
        #expect([total.accepted, total.acceptFailures, total.connectionsRefused, total.httpRequests,
                 total.badRequests, total.upgrades, total.handshakeFailures, total.requestTimeouts,
                 total.pingTimeouts, total.slowConsumers, total.messagesIn, total.messagesOut, total.bytesIn,
                 total.bytesOut, total.openConnections, total.handshakeBytesIn, total.handshakeBytesOut,
                 total.compressedConnections] == expected)
    }

    @Test func closesAreCountedByCodeWith1006ForNoCloseFrame() {
        var one = TransportCounters()
        one.recordClose(.normalClosure)
        one.recordClose(nil)
        var other = TransportCounters()
        other.recordClose(.normalClosure)
        one.add(other)
        #expect(one.closesByCode == [1000: 2, 1006: 1])
    }
}
