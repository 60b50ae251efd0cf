#if canImport(Glibc)
import Glibc
#endif

/// Blocking I/O on descriptors no event loop owns: the Redis connection, a test's client socket.
public enum BlockingSocket {
    /// Writes all of `bytes` to the blocking descriptor `fd`: again after EINTR, on after a short write.
    ///
    /// - Parameters:
    ///   - fd: a descriptor in blocking mode.
    ///   - bytes: what to write.
    /// - Throws: `SystemError` of the write that failed; a write that took nothing counts as failed (EIO).
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let written = try Syscall.retryingEINTR("write") {
                bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            }
            guard written > 0 else { throw SystemError("write", errno: EIO) }
            offset += written
        }
    }
}
