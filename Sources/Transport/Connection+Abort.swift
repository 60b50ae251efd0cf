#if canImport(Glibc)
import Glibc
#endif

extension Connection {
    /// Drops the TCP connection at once, without a close frame: what the peer sees when a client's process dies
    /// or its network goes away. The load tester uses it to exercise resuming.
    ///
    /// Both directions are shut down; the loop then reads end-of-file and the endpoint's `didClose` follows with
    /// a nil code (RFC 6455 §7.1.5: 1006). The peer reads end-of-file with no close frame before it.
    public func abort() {
        do {
            try Syscall.shutdown(fd, Int32(SHUT_RDWR))
        } catch {
            // The socket is unusable anyway; the loop's next read or write finds out and closes it.
            Log.error("abort: \(error)")
        }
    }
}
