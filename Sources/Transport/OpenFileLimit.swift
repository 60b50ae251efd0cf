#if canImport(Glibc)
import Glibc
#endif

/// The process's limit on open descriptors: every connection is one, and both the server and the load tester
/// hold thousands. The one place that reads or changes `RLIMIT_NOFILE`.
public enum OpenFileLimit {
    /// The soft limit in force, or nil if it could not be read.
    public static var current: Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        return limit.rlim_cur > UInt(Int.max) ? Int.max : Int(limit.rlim_cur)
    }

    /// Raises the soft limit to the hard limit.
    ///
    /// - Returns: The soft limit now in force, or -1 if it could not be read.
    public static func raiseToHardLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return -1 }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) != 0 {
                Log.error("\(SystemError("setrlimit(RLIMIT_NOFILE)", errno: errno))")
            }
        }
        return current ?? -1
    }
}
