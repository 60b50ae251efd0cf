#if canImport(Glibc)
import Glibc
#endif
import Transport

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
        do {
            fd = try SocketAddress.connectBlocking(host: host, port: port, timeoutSeconds: 2)
        } catch {
            throw Failure(description: "cannot connect to Redis at \(host):\(port): \(error)")
        }
        buffer.removeAll()
    }

    private func disconnect() {
        if fd >= 0 { close(fd) }
        fd = -1
        buffer.removeAll()
    }

    private func send(_ bytes: [UInt8]) throws(Failure) {
        do {
            try BlockingSocket.writeAll(fd, bytes)
        } catch {
            throw Failure(description: "Redis write failed: \(String(cString: strerror(error.errno)))")
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
