/// When a bot of the reconnect storm tries again: jittered exponential backoff, pure so that its bounds are
/// tested without sockets.
///
/// The schedule, with the defaults (`base` 200 ms, `cap` 3.2 s): the first attempt after the loss waits a
/// uniformly random 0-200 ms ("full jitter": ten thousand bots dropped at the same instant arrive spread over
/// 200 ms, not in one burst); attempt `n` >= 1 waits between half and all of `min(cap, base x 2^n)`: 200-400 ms,
/// 400-800 ms, 0.8-1.6 s, then 1.6-3.2 s for every later attempt. Half of each delay is fixed so that a bot never
/// retries at once after a refusal, the other half random so that bots refused together do not return together.
struct AvalancheBackoff: Sendable, Equatable {
    /// Nanoseconds of the first step.
    var base: UInt64 = 200_000_000
    /// The longest delay, nanoseconds.
    var cap: UInt64 = 3_200_000_000

    /// The delay before attempt `attempt` (0 for the first after the loss).
    ///
    /// - Parameters:
    ///   - attempt: How many attempts failed since the connection was lost.
    ///   - unit: A random number in `0..<1`.
    /// - Returns: Nanoseconds to wait.
    func delay(attempt: Int, unit: Double) -> UInt64 {
        let unit = min(max(unit, 0), 1)
        if attempt <= 0 { return UInt64(Double(base) * unit) }
        let ceiling = self.ceiling(attempt: attempt)
        return ceiling / 2 + UInt64(Double(ceiling / 2) * unit)
    }

    /// The longest delay of attempt `attempt`: `min(cap, base x 2^attempt)` (the first attempt's is `base`).
    func ceiling(attempt: Int) -> UInt64 {
        guard attempt > 0 else { return base }
        // Past 2^40 the product is beyond any cap; stop doubling there rather than overflow.
        let shift = UInt64(min(attempt, 40))
        let (doubled, overflow) = base.multipliedReportingOverflow(by: 1 << shift)
        return overflow ? cap : min(cap, doubled)
    }
}
