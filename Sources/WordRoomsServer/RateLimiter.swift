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
        refill(now: now)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// Whether a token is available, without taking it.
    mutating func hasToken(now: Double) -> Bool {
        refill(now: now)
        return tokens >= 1
    }

    /// Whether the bucket is back to its full burst (nothing to remember about this client).
    func isFull(now: Double) -> Bool {
        min(burst, tokens + (now - updatedAt) * perSecond) >= burst
    }

    private mutating func refill(now: Double) {
        tokens = min(burst, tokens + max(0, now - updatedAt) * perSecond)
        updatedAt = now
    }
}
