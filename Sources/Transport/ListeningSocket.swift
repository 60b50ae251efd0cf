#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// A non-blocking TCP listening socket (IPv4 or IPv6).
///
/// Each event loop owns one, all bound to the same port with `SO_REUSEPORT`, so the kernel spreads new
/// connections over the loops without a shared accept lock.
struct ListeningSocket: ~Copyable {
    let fd: Int32
    let port: Int

    /// Binds and listens on `host:port`. `host` is a numeric address; `"::"` listens on IPv6 and, where the
    /// system allows dual stack, IPv4 too. Port 0 picks an ephemeral port (read it back from `port`).
    init(host: String, port: Int, backlog: Int32 = 1024) throws(SystemError) {
        guard let (address, length, family) = SocketAddress.numeric(host: host, port: port) else {
            throw SystemError("inet_pton(\(host))", errno: EINVAL)
        }
        var storage = address
        let fd = try retryingEINTR("socket") {
            socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        var on: Int32 = 1
        var off: Int32 = 0
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, socklen_t(MemoryLayout<Int32>.size))
        if family == AF_INET6 {
            // Dual stack: one socket on "::" also takes IPv4 clients as v4-mapped addresses.
            setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &off, socklen_t(MemoryLayout<Int32>.size))
        }
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        if bound != 0 {
            let error = errno
            close(fd)
            throw SystemError("bind(\(host):\(port))", errno: error)
        }
        if listen(fd, backlog) != 0 {
            let error = errno
            close(fd)
            throw SystemError("listen", errno: error)
        }
        self.fd = fd
        self.port = ListeningSocket.boundPort(fd)
    }

    deinit {
        close(fd)
    }

    private static func boundPort(_ fd: Int32) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return SocketAddress(storage).port
    }
}

