import Testing
@testable import Bots

@Suite struct AvalancheBackoffTests {
    let backoff = AvalancheBackoff()

    @Test func theFirstAttemptIsSpreadOverTheWholeFirstStep() {
        #expect(backoff.delay(attempt: 0, unit: 0) == 0)
        #expect(backoff.delay(attempt: 0, unit: 0.5) == 100_000_000)
        #expect(backoff.delay(attempt: 0, unit: 0.999_999) < 200_000_000)
    }

    @Test(arguments: [
        // (attempt, ceiling in milliseconds): 200 ms doubling, capped at 3.2 s
        (1, 400), (2, 800), (3, 1600), (4, 3200), (5, 3200), (60, 3200),
    ].map { ($0.0, UInt64($0.1) * 1_000_000) })
    func laterAttemptsWaitBetweenHalfAndAllOfTheirCeiling(attempt: Int, ceiling: UInt64) {
        #expect(backoff.ceiling(attempt: attempt) == ceiling)
        #expect(backoff.delay(attempt: attempt, unit: 0) == ceiling / 2)
        #expect(backoff.delay(attempt: attempt, unit: 1) == ceiling)
        for unit in stride(from: 0.0, to: 1.0, by: 0.05) {
            let delay = backoff.delay(attempt: attempt, unit: unit)
            #expect(delay >= ceiling / 2 && delay <= ceiling)
        }
    }

    @Test func jitterSpreadsBotsRefusedTogether() {
        // Bots given different random numbers for the same attempt wait different times, in order.
        let delays = [0.1, 0.4, 0.7, 0.95].map { backoff.delay(attempt: 2, unit: $0) }
        #expect(delays == delays.sorted())
        #expect(Set(delays).count == delays.count)
    }

    @Test func theDelayNeverShrinksFromOneAttemptToTheNext() {
        for attempt in 1..<20 {
            #expect(backoff.delay(attempt: attempt + 1, unit: 0) >= backoff.delay(attempt: attempt, unit: 0))
        }
    }

    @Test func outOfRangeRandomNumbersAreClamped() {
        #expect(backoff.delay(attempt: 3, unit: -1) == 800_000_000)
        #expect(backoff.delay(attempt: 3, unit: 7) == 1_600_000_000)
    }
}
