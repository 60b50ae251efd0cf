import Synchronization

/// A token bucket per client address, shared by every event loop: handshakes per second, failed joins.
///
/// Loopback is not limited (see `ConnectionsPerAddress`). Buckets that have refilled are forgotten once the
/// table grows, so memory stays bounded however many addresses come by.
final class AddressRateLimiter: Sendable {
    private let buckets = Mutex<[String: RateLimiter]>([:])
    let perSecond: Double
    let burst: Double
    private static let pruneAbove = 10_000

    init(perSecond: Double, burst: Double) {
        self.perSecond = perSecond
        self.burst = burst
    }

    /// Takes a token for `address`; false when its bucket is empty.
    func allow(_ address: String, now: Double) -> Bool {
        guard !ConnectionsPerAddress.isLoopback(address) else { return true }
        return buckets.withLock { buckets in
            if buckets.count > Self.pruneAbove {
                buckets = buckets.filter { !$0.value.isFull(now: now) }
            }
            var bucket = buckets[address] ?? RateLimiter(perSecond: perSecond, burst: burst, now: now)
            let allowed = bucket.allow(now: now)
            buckets[address] = bucket
            return allowed
        }
    }

    /// True while `address` has no token left (without taking one).
    func isExhausted(_ address: String, now: Double) -> Bool {
        guard !ConnectionsPerAddress.isLoopback(address) else { return false }
        return buckets.withLock { buckets in
            guard var bucket = buckets[address] else { return false }
            let exhausted = !bucket.hasToken(now: now)
            buckets[address] = bucket
            return exhausted
        }
    }
}
