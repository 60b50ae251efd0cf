/// A token bucket: `burst` messages at once, refilled at `perSecond`. Time is passed in, so it is testable.
struct RateLimiter {
    let perSecond: Double
    let burst: Double
    private var tokens: Double
    private var updatedAt: Double

    init(perSecond: Double, burst: Double, now: Double) {
        self.perSecond = perSecond
        self.burst = burst
        self.tokens = burst
        self.updatedAt = now
    }

    /// Takes one token; false when the bucket is empty.
    mutating func allow(now: Double) -> Bool {
        tokens = min(burst, tokens + (now - updatedAt) * perSecond)
        updatedAt = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
