import Testing
@testable import Bots

@Suite struct FanoutLedgerTests {
    private func payload(_ sequence: Int, sentAt: UInt64) -> FanoutPayload {
        FanoutPayload(sender: 3, sequence: sequence, sentAt: sentAt)
    }

    @Test func messagesComingBackInOrderAreTimedFromTheirSendTime() {
        var ledger = FanoutLedger()
        #expect(ledger.numberNext() == 0)
        #expect(ledger.numberNext() == 1)
        #expect(ledger.inFlight == 2)
        #expect(ledger.record(payload(0, sentAt: 1_000), now: 251_000, timingFrom: 0) == .inOrder(latency: 250_000))
        #expect(ledger.record(payload(1, sentAt: 2_000), now: 3_500, timingFrom: 0) == .inOrder(latency: 1_500))
        #expect(ledger.inFlight == 0)
        #expect(ledger.returned == 2)
        #expect(ledger.lost == 0)
    }

    @Test func warmUpMessagesAreCountedButNotTimed() {
        var ledger = FanoutLedger()
        _ = ledger.numberNext()
        _ = ledger.numberNext()
        #expect(ledger.record(payload(0, sentAt: 999), now: 5_000, timingFrom: 1_000) == .inOrder(latency: nil))
        #expect(ledger.record(payload(1, sentAt: 1_000), now: 5_000, timingFrom: 1_000) == .inOrder(latency: 4_000))
        #expect(ledger.returned == 2)
    }

    @Test func aLaterMessageFirstMeansTheEarlierAreLost() {
        var ledger = FanoutLedger()
        for _ in 0..<4 { _ = ledger.numberNext() }
        #expect(ledger.record(payload(2, sentAt: 10), now: 20, timingFrom: 0) == .afterGap(missing: 2, latency: 10))
        #expect(ledger.lost == 2)
        #expect(ledger.inFlight == 1)
        // The lost ones can no longer come back in order.
        #expect(ledger.record(payload(0, sentAt: 10), now: 20, timingFrom: 0) == .unexpected)
        #expect(ledger.record(payload(3, sentAt: 10), now: 30, timingFrom: 0) == .inOrder(latency: 20))
    }

    @Test func duplicatesAndNumbersNeverSentAreUnexpected() {
        var ledger = FanoutLedger()
        _ = ledger.numberNext()
        #expect(ledger.record(payload(1, sentAt: 0), now: 1, timingFrom: 0) == .unexpected, "never sent")
        #expect(ledger.record(payload(0, sentAt: 0), now: 1, timingFrom: 0) == .inOrder(latency: 1))
        #expect(ledger.record(payload(0, sentAt: 0), now: 1, timingFrom: 0) == .unexpected, "a duplicate")
        #expect(ledger.returned == 1)
    }

    @Test func aCloseGivesUpWhatWasInFlight() {
        var ledger = FanoutLedger()
        for _ in 0..<3 { _ = ledger.numberNext() }
        _ = ledger.record(payload(0, sentAt: 0), now: 1, timingFrom: 0)
        #expect(ledger.connectionClosed() == 2)
        #expect(ledger.inFlight == 0)
    }

    @Test func eachIntervalsMessageLeavesInsideThatInterval() {
        let second: UInt64 = 1_000_000_000
        #expect(FanoutLedger.sendTime(ofInterval: 0, from: 5_000, interval: second, unit: 0) == 5_000)
        #expect(FanoutLedger.sendTime(ofInterval: 3, from: 5_000, interval: second, unit: 0.5)
                == 5_000 + 3 * second + second / 2)
        for unit in [0, 0.25, 0.999_999] {
            let time = FanoutLedger.sendTime(ofInterval: 7, from: 0, interval: second, unit: unit)
            #expect((7 * second)..<(8 * second) ~= time)
        }
    }
}
