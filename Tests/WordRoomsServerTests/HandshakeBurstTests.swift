import Testing
@testable import WordRoomsServer

/// The handshake burst per address: a NAT's players reconnecting together after a deploy are let in at once.
@Suite struct HandshakeBurstTests {
    @Test(arguments: [
        // (handshakes per second, connections per address, burst)
        (20.0, 256, 256.0),  // the defaults: every socket an address may hold can come back at once
        (20.0, 10, 40.0),    // a small cap: twice the rate still
        (200.0, 256, 400.0), // a high rate: twice the rate
    ])
    func burstIsTheLargerOfTwiceTheRateAndTheConnectionCap(rate: Double, cap: Int, burst: Double) {
        #expect(WordRoomsApplication.handshakeBurst(perSecond: rate, connectionsPerAddress: cap) == burst)
    }

    @Test func aLimiterWithTheDefaultBurstTakesAFullAddressAtOnceThenTheRate() {
        let limiter = AddressRateLimiter(perSecond: 20,
                                         burst: WordRoomsApplication.handshakeBurst(perSecond: 20, connectionsPerAddress: 256))
        let now = 1000.0
        let allowed = (0..<300).filter { _ in limiter.allow("203.0.113.7", now: now) }.count
        #expect(allowed == 256)
        // A second later, the rate's worth more.
        let later = (0..<300).filter { _ in limiter.allow("203.0.113.7", now: now + 1) }.count
        #expect(later == 20)
    }
}
