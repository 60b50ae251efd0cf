#if canImport(Glibc)
import Glibc
#endif

/// Nanoseconds on the monotonic clock, comparable across the threads of this process.
///
/// `CLOCK_MONOTONIC` rather than the coarse clock the event loops use for timeouts: latencies of a few
/// microseconds must be measurable.
enum MonotonicClock {
    static func nanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// Sleeps the calling thread (never a loop thread) for `nanoseconds`.
    static func sleep(nanoseconds: UInt64) {
        var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR {
            request = remaining
        }
    }

    /// Seconds since 1970, for the report's timestamps.
    static func wallSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
