#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// A non-blocking TCP listening socket (IPv4 or IPv6).
///
/// Each event loop owns one, all bound to the same port with `SO_REUSEPORT`, so the kernel spreads new
/// connections over the loops without a shared accept lock.
///
/// `SO_REUSEPORT` alone would also let a second server process bind the port: the kernel would then split new
/// connections between the two processes, and a player would reach a process that does not host their room. So
/// the first listener of a process is bound without `SO_REUSEPORT` (`exclusive`): Linux refuses that bind with
/// `EADDRINUSE` while any other socket listens on the port, reuseport or not, IPv4 or dual-stack `::` alike.
/// Only once it is bound does the first listener set `SO_REUSEPORT` (before `listen`, so the kernel puts it in
/// a reuseport group), and the process's other listeners join it. A second `wordrooms` binds its own first
/// listener the same way, and fails. Probing with a throwaway socket instead would leave a window between the
/// probe and the real bind; here the socket that checks is the one that keeps the port.
struct ListeningSocket: ~Copyable {
    let fd: Int32
    let port: Int

    /// Connections the kernel may hold for a listener before `accept`: as many as it allows. Linux silently
    /// lowers this to `net.core.somaxconn` (4096 by default since 5.4); a deploy's reconnect storm brings
    /// thousands at once, and a SYN dropped from a full queue costs its client a second-long retransmission.
    static let defaultBacklog: Int32 = 65535

    /// Binds and listens on `host:port`. `host` is a numeric address; `"::"` listens on IPv6 and, where the
    /// system allows dual stack, IPv4 too. Port 0 picks an ephemeral port (read it back from `port`).
    ///
    /// - Parameters:
    ///   - exclusive: the process's first listener: the bind fails when any other socket listens on the port
    ///     (see the type's comment). The others pass false and join the first one's port.
    /// - Throws: `SystemError`; for a port another process holds, its `call` says so in words.
    init(host: String, port: Int, exclusive: Bool,
         backlog: Int32 = ListeningSocket.defaultBacklog) throws(SystemError) {
        guard let (address, length, family) = SocketAddress.numeric(host: host, port: port) else {
            throw SystemError("inet_pton(\(host))", errno: EINVAL)
        }
        var storage = address
        let fd = try Syscall.tcpSocket(family: family)
        do {
            try Syscall.setOption(fd, SOL_SOCKET, SO_REUSEADDR, Int32(1), "SO_REUSEADDR")
            // Every loop binds the same port: without it the second bind fails.
            if !exclusive { try Syscall.setOption(fd, SOL_SOCKET, SO_REUSEPORT, Int32(1), "SO_REUSEPORT") }
        } catch {
            Syscall.close(fd)
            throw error
        }
        if family == AF_INET6 {
            // Dual stack: one socket on "::" also takes IPv4 clients as v4-mapped addresses. Without it (a
            // system that forbids dual stack) the server still serves IPv6.
            do {
                try Syscall.setOption(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, Int32(0), "IPV6_V6ONLY")
            } catch {
                Log.error("\(error): IPv4 clients cannot reach \(host)")
            }
        }
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        if bound != 0 {
            let error = errno
            Syscall.close(fd)
            if error == EADDRINUSE && exclusive {
                throw SystemError("port \(port) on \(host) is taken by another process (another wordrooms or another "
                                  + "server listens on it; stop it or choose another port)", errno: error)
            }
            throw SystemError("bind(\(host):\(port))", errno: error)
        }
        do {
            // Now that the port is this process's, its other loops may share it.
            if exclusive { try Syscall.setOption(fd, SOL_SOCKET, SO_REUSEPORT, Int32(1), "SO_REUSEPORT") }
        } catch {
            Syscall.close(fd)
            throw error
        }
        if listen(fd, backlog) != 0 {
            let error = errno
            Syscall.close(fd)
            throw SystemError("listen", errno: error)
        }
        guard let port = ListeningSocket.boundPort(fd) else {
            let error = errno
            Syscall.close(fd)
            throw SystemError("getsockname", errno: error)
        }
        self.fd = fd
        self.port = port
    }

    deinit {
        Syscall.close(fd)
    }

    private static func boundPort(_ fd: Int32) -> Int? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return result == 0 ? SocketAddress(storage).port : nil
    }
}

