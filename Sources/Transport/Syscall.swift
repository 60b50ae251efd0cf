#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// Result of a non-blocking I/O call: "would block" is a value, not an error (NIO's `IOResult`).
enum IOResult<T> {
    case processed(T)
    case wouldBlock
}

/// The system calls of the transport, each in one wrapper: EINTR is retried, EAGAIN comes back as
/// `IOResult.wouldBlock` where a call can block, and any other failure throws a `SystemError` naming the call and
/// its errno. Errnos that can only mean a bug in this process (a bad descriptor, a bad pointer or flag) are
/// preconditions, not errors to handle.
enum Syscall {
    /// Runs a call returning -1 on failure, retrying on EINTR.
    @inline(__always)
    static func retryingEINTR<T: BinaryInteger>(_ call: StaticString, _ body: () -> T) throws(SystemError) -> T {
        while true {
            let result = body()
            if result >= 0 { return result }
            let error = Glibc.errno
            if error == EINTR { continue }
            throw SystemError("\(call)", errno: error)
        }
    }

    /// Like `retryingEINTR`, but EAGAIN/EWOULDBLOCK becomes `.wouldBlock`.
    @inline(__always)
    static func nonBlocking<T: BinaryInteger>(_ call: StaticString, _ body: () -> T) throws(SystemError) -> IOResult<T> {
        while true {
            let result = body()
            if result >= 0 { return .processed(result) }
            let error = Glibc.errno
            if error == EINTR { continue }
            if error == EAGAIN || error == EWOULDBLOCK { return .wouldBlock }
            throw SystemError("\(call)", errno: error)
        }
    }

    /// Traps on errnos that only a bug in this process causes (a closed descriptor, a bad pointer or argument).
    @inline(__always)
    private static func checkNotABug(_ error: SystemError) {
        precondition(error.errno != EBADF && error.errno != EFAULT && error.errno != ENOTSOCK, "\(error)")
    }

    // MARK: Sockets

    /// accept4(2) with `SOCK_NONBLOCK | SOCK_CLOEXEC`: the new descriptor and its peer, or `.wouldBlock` once the
    /// backlog is empty. ECONNABORTED (a peer that left while queued) is skipped like EINTR.
    static func accept(_ fd: Int32) throws(SystemError) -> IOResult<(fd: Int32, peer: SocketAddress)> {
        while true {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let accepted = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    clinux_accept4(fd, $0, &length, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
                }
            }
            if accepted >= 0 { return .processed((accepted, SocketAddress(storage))) }
            switch Glibc.errno {
            case EINTR, ECONNABORTED: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            case let error:
                let failure = SystemError("accept4", errno: error)
                checkNotABug(failure)
                throw failure
            }
        }
    }

    /// A non-blocking, close-on-exec TCP socket.
    static func tcpSocket(family: Int32) throws(SystemError) -> Int32 {
        try retryingEINTR("socket") {
            socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
    }

    /// connect(2) on a non-blocking socket: `.wouldBlock` when it is under way (EINPROGRESS).
    static func connect(_ fd: Int32, to address: sockaddr_storage, length: socklen_t) throws(SystemError) -> IOResult<Void> {
        var storage = address
        let result = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) }
        }
        if result == 0 { return .processed(()) }
        // EINTR: the connection still goes on asynchronously, as with EINPROGRESS.
        if errno == EINPROGRESS || errno == EINTR { return .wouldBlock }
        throw SystemError("connect", errno: errno)
    }

    /// bind(2) of a socket about to `connect` to a local address, leaving the port to `connect`.
    ///
    /// `IP_BIND_ADDRESS_NO_PORT` (Linux 4.2) defers the port: a plain bind to port 0 would pick one now, unique
    /// among every socket of the address, instead of unique for the connection's four values.
    static func bindForConnect(_ fd: Int32, to address: sockaddr_storage, length: socklen_t,
                               family: Int32) throws(SystemError) {
        if family == AF_INET {
            try setOption(fd, Int32(IPPROTO_IP), 24 /* IP_BIND_ADDRESS_NO_PORT */, Int32(1), "IP_BIND_ADDRESS_NO_PORT")
        }
        var storage = address
        let result = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, length) }
        }
        guard result == 0 else { throw SystemError("bind", errno: errno) }
    }

    /// setsockopt(2) for an option of type `T` (`Int32` for flags, `timeval` for timeouts).
    static func setOption<T>(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: T,
                             _ call: StaticString) throws(SystemError) {
        let result = withUnsafePointer(to: value) { setsockopt(fd, level, name, $0, socklen_t(MemoryLayout<T>.size)) }
        guard result == 0 else {
            let error = SystemError("setsockopt(\(call))", errno: errno)
            checkNotABug(error)
            throw error
        }
    }

    /// TCP_NODELAY: frames are written whole, so Nagle's algorithm would only delay them.
    static func disableNagle(_ fd: Int32) throws(SystemError) {
        try setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY, Int32(1), "TCP_NODELAY")
    }

    /// The pending error of a socket (SO_ERROR): 0 once a non-blocking connect succeeded.
    static func pendingError(_ fd: Int32) throws(SystemError) -> Int32 {
        var error: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size) == 0 else {
            let failure = SystemError("getsockopt(SO_ERROR)", errno: errno)
            checkNotABug(failure)
            throw failure
        }
        return error
    }

    /// shutdown(2). ENOTCONN (the peer already reset the connection) is not an error here: the socket is down.
    static func shutdown(_ fd: Int32, _ how: Int32) throws(SystemError) {
        guard Glibc.shutdown(fd, how) != 0, errno != ENOTCONN else { return }
        let error = SystemError("shutdown", errno: errno)
        checkNotABug(error)
        throw error
    }

    /// recv(2) into `buffer`: the count read (0 at end of file) or `.wouldBlock`.
    @inline(__always)
    static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> IOResult<Int> {
        // recv rather than read: it skips the file layer's checks on every call.
        try nonBlocking("recv") { recv(fd, buffer.baseAddress!, buffer.count, 0) }
    }

    /// No SIGPIPE when the peer has gone: the error is handled like any other.
    private static let sendFlags = Int32(MSG_NOSIGNAL)

    /// send(2) of `bytes`: the count written or `.wouldBlock`.
    @inline(__always)
    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) -> IOResult<Int> {
        // send rather than write: sockets only, and it skips the file layer's checks on every call.
        try nonBlocking("send") { Glibc.send(fd, bytes.baseAddress!, bytes.count, sendFlags) }
    }

    /// sendmsg(2) of `count` buffers: the count written or `.wouldBlock`.
    @inline(__always)
    static func send(_ fd: Int32, _ iovecs: UnsafeMutablePointer<iovec>, count: Int) throws(SystemError) -> IOResult<Int> {
        try nonBlocking("sendmsg") {
            var message = msghdr()
            message.msg_iov = iovecs
            message.msg_iovlen = count
            return Glibc.sendmsg(fd, &message, sendFlags)
        }
    }

    /// close(2). Never retried: on Linux the descriptor is released even when close reports EINTR. A failure
    /// (EIO on a socket is rare) is logged, there being nothing else to do with it.
    static func close(_ fd: Int32) {
        guard Glibc.close(fd) != 0, errno != EINTR else { return }
        let error = SystemError("close", errno: errno)
        checkNotABug(error)
        Log.error("\(error)")
    }

    // MARK: Files

    /// The bytes of a small regular file (a static asset, a `/proc` entry), read to its end or to `limit` bytes.
    static func readFile(_ path: String, limit: Int) throws(SystemError) -> [UInt8] {
        let fd = try retryingEINTR("open") { open(path, O_RDONLY | O_CLOEXEC) }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: limit)
        var count = 0
        while count < limit {
            let start = count
            let n = try retryingEINTR("read") {
                bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + start, limit - start) }
            }
            if n == 0 { break }
            count += n
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    // MARK: epoll and eventfd

    static func epollCreate() throws(SystemError) -> Int32 {
        try retryingEINTR("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
    }

    /// epoll_ctl(2) with the descriptor itself as the event's data. ENOMEM and ENOSPC (the watch limit) throw;
    /// EEXIST, ENOENT and EINVAL can only come from a bookkeeping bug.
    static func epollControl(_ epollFD: Int32, _ operation: Int32, fd: Int32, events: UInt32) throws(SystemError) {
        var event = epoll_event()
        event.events = events
        event.data.u64 = UInt64(UInt32(bitPattern: fd))
        guard epoll_ctl(epollFD, operation, fd, &event) != 0 else { return }
        let error = SystemError("epoll_ctl", errno: errno)
        checkNotABug(error)
        precondition(error.errno != EEXIST && error.errno != ENOENT && error.errno != EINVAL, "\(error)")
        throw error
    }

    /// epoll_wait(2); an interrupted wait returns no events (the loop comes round again).
    static func epollWait(_ epollFD: Int32, _ events: UnsafeMutablePointer<epoll_event>, max: Int32,
                          timeoutMillis: Int32) -> Int {
        let ready = epoll_wait(epollFD, events, max, timeoutMillis)
        if ready >= 0 { return Int(ready) }
        // Anything but EINTR is EBADF, EFAULT or EINVAL: our own descriptors or arguments are wrong.
        precondition(errno == EINTR, "\(SystemError("epoll_wait", errno: errno))")
        return 0
    }

    static func eventFD() throws(SystemError) -> Int32 {
        try retryingEINTR("eventfd") { eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC)) }
    }

    /// Adds one to an eventfd's counter. EAGAIN (the counter is saturated) means it is signalled already.
    static func signal(eventFD fd: Int32) {
        var one: UInt64 = 1
        onOwnEventFD("write(eventfd)") { Glibc.write(fd, &one, 8) }
    }

    /// Resets an eventfd's counter. EAGAIN: another wake-up was already drained.
    static func drain(eventFD fd: Int32) {
        var counter: UInt64 = 0
        onOwnEventFD("read(eventfd)") { Glibc.read(fd, &counter, 8) }
    }

    /// An 8-byte read or write on one of our own eventfds: it cannot fail but by a bug, and would-block is fine.
    private static func onOwnEventFD(_ call: StaticString, _ body: () -> Int) {
        do {
            _ = try nonBlocking(call, body)
        } catch {
            preconditionFailure("\(error)")
        }
    }
}
