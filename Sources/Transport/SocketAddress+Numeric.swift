#if canImport(Glibc)
import Glibc
#endif
import CLinux

extension SocketAddress {
    /// A `sockaddr` for a numeric IPv4 or IPv6 address and port, ready for `bind` or `connect`.
    ///
    /// - Returns: nil when `host` is not a numeric address.
    public static func numeric(host: String, port: Int) -> (storage: sockaddr_storage, length: socklen_t, family: Int32)? {
        let networkPort = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
        if host.contains(":") {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = networkPort
            guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else { return nil }
            return stored(address, family: AF_INET6)
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = networkPort
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return nil }
        return stored(address, family: AF_INET)
    }

    /// `address` (a `sockaddr_in` or `sockaddr_in6`) in a `sockaddr_storage`, with its length.
    private static func stored<Address>(_ address: Address, family: Int32)
        -> (storage: sockaddr_storage, length: socklen_t, family: Int32)
    {
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: Address.self) }
        return (storage, socklen_t(MemoryLayout<Address>.size), family)
    }

    /// A blocking TCP connection with send and receive timeouts, for small helpers outside the event loops
    /// (the Redis client, metrics scrapers, tests).
    ///
    /// - Returns: the connected descriptor; the caller closes it.
    public static func connectBlocking(host: String, port: Int, timeoutSeconds: Int) throws(SystemError) -> Int32 {
        guard let (storage, length, family) = numeric(host: host, port: port) else {
            throw SystemError("connect: '\(host)' is not a numeric address", errno: EINVAL)
        }
        let fd = try Syscall.retryingEINTR("socket") {
            socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        let timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        do {
            // Without them a helper could hang forever on a silent peer.
            try Syscall.setOption(fd, SOL_SOCKET, SO_RCVTIMEO, timeout, "SO_RCVTIMEO")
            try Syscall.setOption(fd, SOL_SOCKET, SO_SNDTIMEO, timeout, "SO_SNDTIMEO")
        } catch {
            Syscall.close(fd)
            throw error
        }
        var address = storage
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) }
        }
        guard result == 0 else {
            let error = errno
            Syscall.close(fd)
            throw SystemError("connect to \(host):\(port)", errno: error)
        }
        return fd
    }
}
