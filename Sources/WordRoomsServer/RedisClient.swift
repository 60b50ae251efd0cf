#if canImport(Glibc)
import Glibc
#endif

/// A small blocking Redis client: one TCP connection, one command at a time, reconnecting after errors.
///
/// Used only from the shared lobby's own thread, never from an event loop or a room.
final class RedisClient {
    let host: String
    let port: Int
    private var fd: Int32 = -1
    private var buffer: [UInt8] = []

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(address: String) {
        let colon = address.lastIndex(of: ":")!
        var host = String(address[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.host = host == "localhost" ? "127.0.0.1" : host
        self.port = Int(address[address.index(after: colon)...]) ?? 6379
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// Sends one command and returns its reply; a Redis error reply is returned, not thrown.
    func command(_ arguments: String...) throws(Failure) -> RESPValue {
        try command(arguments)
    }

    func command(_ arguments: [String]) throws(Failure) -> RESPValue {
        do {
            if fd < 0 { try connect() }
            try send(RESPValue.encode(arguments))
            return try receive()
        } catch {
            disconnect()
            throw error
        }
    }

    private func connect() throws(Failure) {
        let isV6 = host.contains(":")
        let socketFD = socket(isV6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socketFD >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(socketFD, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socketFD, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var result: Int32
        if isV6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else {
                close(socketFD)
                throw Failure(description: "Redis host must be a numeric address, not '\(host)'")
            }
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
                close(socketFD)
                throw Failure(description: "Redis host must be a numeric address, not '\(host)'")
            }
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard result == 0 else {
            let error = errno
            close(socketFD)
            throw Failure(description: "cannot connect to Redis at \(host):\(port): \(String(cString: strerror(error)))")
        }
        fd = socketFD
        buffer.removeAll()
    }

    private func disconnect() {
        if fd >= 0 { close(fd) }
        fd = -1
        buffer.removeAll()
    }

    private func send(_ bytes: [UInt8]) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw Failure(description: "Redis write failed: \(String(cString: strerror(errno)))") }
            offset += n
        }
    }

    private func receive() throws(Failure) -> RESPValue {
        while true {
            do {
                if let (value, length) = try RESPValue.parse(buffer[...]) {
                    buffer.removeFirst(length)
                    return value
                }
            } catch {
                throw Failure(description: "Redis sent a malformed reply: \(error)")
            }
            var chunk = [UInt8](repeating: 0, count: 16384)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                throw Failure(description: n == 0 ? "Redis closed the connection" : "Redis read failed: \(String(cString: strerror(errno)))")
            }
            buffer.append(contentsOf: chunk[..<n])
        }
    }
}

@available(*, unavailable)
extension RedisClient: Sendable {}
