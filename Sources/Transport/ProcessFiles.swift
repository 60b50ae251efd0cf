/// Small kernel files of this process (`/proc/self/...`), read through the transport's one set of syscall wrappers.
public enum ProcessFiles {
    /// The bytes of `path` up to `limit`, or nil when it cannot be read.
    public static func read(_ path: String, limit: Int = 4096) -> [UInt8]? {
        try? Syscall.readFile(path, limit: limit)
    }
}
