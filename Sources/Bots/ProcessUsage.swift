#if canImport(Glibc)
import Glibc
#endif

/// CPU seconds spent in user space and in the kernel.
public struct CPUTime: Sendable, Equatable {
    public var user: Double
    public var system: Double

    public var total: Double { user + system }

    /// The time spent between `earlier` and this reading.
    public func since(_ earlier: CPUTime) -> CPUTime {
        CPUTime(user: user - earlier.user, system: system - earlier.system)
    }
}

/// The bots' own process: CPU time (getrusage) and the open-files limit.
public enum ProcessUsage {
    /// CPU time of this process so far.
    public static func cpuTime() -> CPUTime {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return CPUTime(user: seconds(usage.ru_utime), system: seconds(usage.ru_stime))
    }
}
