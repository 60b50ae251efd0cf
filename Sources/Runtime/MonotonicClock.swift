#if canImport(Glibc)
import Glibc
#endif

/// The process's one clock: every reading of time in the server and the bots goes through here.
///
/// Two sources, for two jobs. `CLOCK_MONOTONIC` measures latencies of a few microseconds and runs timers;
/// `CLOCK_MONOTONIC_COARSE` (a few milliseconds of resolution, no syscall cost worth naming) is what the event loops
/// read per event for idle and handshake deadlines. Neither moves when the wall clock is set. `wallSeconds` is only
/// for values shown to people or sent on the wire as times of day.
public enum MonotonicClock {
    /// Nanoseconds on the monotonic clock, comparable across the threads of this process.
    @inlinable
    public static func nanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// Seconds on the monotonic clock.
    @inlinable
    public static func seconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Milliseconds on the coarse monotonic clock: cheap enough to read on every event.
    @inlinable
    public static func coarseMilliseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &spec)
        return UInt64(spec.tv_sec) * 1000 + UInt64(spec.tv_nsec) / 1_000_000
    }

    /// Seconds on the coarse monotonic clock.
    @inlinable
    public static func coarseSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Seconds since 1970: deadlines on the wire and report timestamps, which people read as times of day.
    public static func wallSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Sleeps the calling thread (never a loop thread) for `nanoseconds`, resuming after signals.
    public static func sleep(nanoseconds: UInt64) {
        var request = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR {
            request = remaining
        }
    }
}
