#if canImport(Glibc)
import Glibc
#endif
import Testing
import Transport
import WebSocket

/// A blocking TCP client with timeouts for talking to the real server in tests: raw bytes in and out, plus
/// just enough WebSocket to read frames the server sends.
final class TestClient {
    let fd: Int32
    private var buffer: [UInt8] = []

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// - Parameters:
    ///   - source: a local address to connect from, such as `127.0.0.2`: Linux routes all of 127.0.0.0/8 to
    ///     loopback, so a test can be a second client address without leaving the machine.
    init(port: Int, host: String = "127.0.0.1", timeoutSeconds: Int = 15, receiveBuffer: Int32? = nil,
         source: String? = nil) throws {
        guard receiveBuffer != nil || source != nil else {
            fd = try SocketAddress.connectBlocking(host: host, port: port, timeoutSeconds: timeoutSeconds)
            return
        }
        // A small receive window must be set before connecting to take effect.
        let (storage, length, family) = SocketAddress.numeric(host: host, port: port)!
        fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let source {
            var (local, localLength, _) = SocketAddress.numeric(host: source, port: 0)!
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, localLength) }
            }
            // A throw from here on leaves the descriptor to `deinit`, like every other failure below.
            guard bound == 0 else { throw Failure(description: "bind to \(source): errno \(errno)") }
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = storage
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) }
        }
        guard result == 0 else { throw Failure(description: "connect to \(host):\(port): errno \(errno)") }
    }

    private var closed = false

    deinit {
        if !closed { close(fd) }
    }

    /// Drops the TCP connection without a close frame, as a lost network would.
    func abort() {
        guard !closed else { return }
        closed = true
        close(fd)
    }

    /// Connects and completes a WebSocket handshake on `path`.
    static func webSocket(port: Int, path: String = "/echo", host: String = "127.0.0.1",
                          extraHeaders: [(String, String)] = []) throws -> TestClient {
        let client = try TestClient(port: port, host: host)
        let key = WebSocketHandshake.randomKey()
        try client.send(WebSocketHandshake.clientRequest(host: "localhost:\(port)", path: path, key: key,
                                                         extraHeaders: extraHeaders))
        let head = try client.readHTTPHead()
        guard head.hasPrefix("HTTP/1.1 101") else { throw Failure(description: "handshake refused: \(head)") }
        guard head.contains(WebSocketHandshake.acceptValue(forKey: key)) else {
            throw Failure(description: "wrong accept key in \(head)")
        }
        return client
    }

    /// Connects, sends an opening handshake for `path` with RFC 6455 §1.3's sample key (whose accept value is
    /// `s3pPLMBiTxaQ9kYGzzhZRbK+xOo=`), `connection` as its Connection header and `headers` after the usual ones,
    /// and reads the response head, whatever its status.
    static func upgrade(port: Int, path: String = "/ws", connection: String = "Upgrade",
                        headers: [String: String] = [:]) throws -> (client: TestClient, head: String) {
        let client = try TestClient(port: port)
        var request = "GET \(path) HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: \(connection)\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        try client.send(request + "\r\n")
        return (client, try client.readHTTPHead())
    }

    func send(_ bytes: [UInt8]) throws {
        do {
            try BlockingSocket.writeAll(fd, bytes)
        } catch {
            throw Failure(description: "write failed: errno \(error.errno)")
        }
    }

    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// Sends one masked frame, as a client must (RFC 6455 §5.3).
    func sendFrame(_ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true) throws {
        try send(FrameEncoder.encode(opcode, payload: payload, fin: fin, maskingKey: FrameEncoder.randomMaskingKey()))
    }

    /// Reads more bytes into the buffer; false on orderly EOF.
    @discardableResult
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                throw Failure(description: "timed out waiting for the server")
            }
            if n < 0 { throw Failure(description: "read failed: errno \(errno)") }
            if n == 0 { return false }
            buffer.append(contentsOf: chunk[..<n])
            return true
        }
    }

    /// Reads an HTTP response head (through the blank line) and returns it as text.
    func readHTTPHead() throws -> String {
        while true {
            if let end = buffer.firstRange(of: [13, 10, 13, 10]) {
                let head = String(decoding: buffer[..<end.upperBound], as: UTF8.self)
                buffer.removeSubrange(..<end.upperBound)
                return head
            }
            guard try fill() else { throw Failure(description: "connection closed before a response head") }
        }
    }

    /// Reads a full HTTP response: head and a `Content-Length` body.
    func readHTTPResponse() throws -> (status: Int, head: String, body: [UInt8]) {
        let head = try readHTTPHead()
        let status = Int(head.split(separator: " ")[1]) ?? 0
        var length = 0
        for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
            length = Int(line.split(separator: ":")[1].trimmingPrefix(" ")) ?? 0
        }
        while buffer.count < length {
            guard try fill() else { throw Failure(description: "connection closed inside a body") }
        }
        let body = Array(buffer[..<length])
        buffer.removeSubrange(..<length)
        return (status, head, body)
    }

    struct Frame {
        var fin: Bool
        var opcode: UInt8
        var payload: [UInt8]

        var text: String { String(decoding: payload, as: UTF8.self) }
        /// The status code of a close frame (RFC 6455 §5.5.1).
        var closeCode: UInt16? { payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil }
    }

    /// Reads one server frame (unmasked, as servers send).
    func readFrame() throws -> Frame {
        func need(_ n: Int) throws {
            while buffer.count < n {
                guard try fill() else { throw Failure(description: "connection closed inside a frame") }
            }
        }
        try need(2)
        let fin = buffer[0] & 0x80 != 0
        let opcode = buffer[0] & 0x0F
        guard buffer[1] & 0x80 == 0 else { throw Failure(description: "server sent a masked frame") }
        var length = Int(buffer[1] & 0x7F)
        var header = 2
        if length == 126 {
            try need(4)
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            header = 4
        } else if length == 127 {
            try need(10)
            length = (2..<10).reduce(0) { $0 << 8 | Int(buffer[$1]) }
            header = 10
        }
        try need(header + length)
        let payload = Array(buffer[header..<header + length])
        buffer.removeSubrange(..<(header + length))
        return Frame(fin: fin, opcode: opcode, payload: payload)
    }

    /// Reads frames until a data frame arrives, answering nothing (pings are returned too when `skipPings` is false).
    func readMessage() throws -> Frame {
        var frame = try readFrame()
        while frame.opcode == 0x9 || frame.opcode == 0xA { frame = try readFrame() }
        return frame
    }

    /// Everything the server sends until it closes the connection (bytes already buffered included), or nil
    /// when it is still open after `timeoutSeconds`.
    func readUntilEOF() -> [UInt8]? {
        guard waitForEOF() else { return nil }
        defer { buffer = [] }
        return buffer
    }

    /// True when the server closed the TCP connection (EOF or reset) before `timeoutSeconds`.
    func waitForEOF() -> Bool {
        while true {
            do {
                if try !fill() { return true }
            } catch let failure as Failure {
                return failure.description.hasPrefix("read failed")
            } catch {
                return false
            }
        }
    }
}
