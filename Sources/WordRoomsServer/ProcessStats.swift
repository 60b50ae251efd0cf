#if canImport(Glibc)
import Glibc
#endif
import Transport

/// This process's resource use, read from the kernel.
public struct ProcessStats: Sendable {
    public var residentBytes: Int
    public var cpuSeconds: Double
    public var openFiles: Int
    public var maxFiles: Int

    public static func current() -> ProcessStats {
        ProcessStats(residentBytes: residentBytes(), cpuSeconds: cpuSeconds(), openFiles: openFiles(),
                     maxFiles: OpenFileLimit.current ?? 0)
    }

    /// User and system CPU time so far. With `residentBytes()`, what the dashboard reads every second: unlike
    /// `openFiles()` neither walks anything that grows with the connections.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    /// Second field of /proc/self/statm, in pages.
    static func residentBytes() -> Int {
        guard let statm = ProcessFiles.read("/proc/self/statm", limit: 128) else { return 0 }
        let fields = statm.split(separator: UInt8(ascii: " "))
        guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    private static func openFiles() -> Int {
        guard let directory = opendir("/proc/self/fd") else { return 0 }
        defer { closedir(directory) }
        var count = 0
        while readdir(directory) != nil { count += 1 }
        return max(0, count - 3)  // ".", ".." and the directory's own descriptor
    }
}
