#if canImport(Glibc)
import Glibc
#endif

/// The process's limit on open descriptors: every connection is one, and both the server and the load tester
/// hold thousands.
public enum OpenFileLimit {
    /// Raises the soft limit to the hard limit.
    ///
    /// - Returns: The soft limit now in force, or -1 if it could not be read.
    public static func raiseToHardLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return -1 }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return limit.rlim_cur > UInt(Int.max) ? Int.max : Int(limit.rlim_cur)
    }
}
