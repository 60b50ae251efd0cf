#if canImport(Glibc)
import Glibc
#endif
import Testing

/// A connected pair of non-blocking local stream sockets with small buffers: what `OutboundQueue` writes to,
/// without a network, and full after a few kilobytes so partial writes happen on demand.
final class SocketPair {
    let writer: Int32
    let reader: Int32

    init(sourceLocation: SourceLocation = #_sourceLocation) throws {
        var fds: [Int32] = [-1, -1]
        let result = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &fds)
        try #require(result == 0, "socketpair failed: errno \(errno)", sourceLocation: sourceLocation)
        writer = fds[0]
        reader = fds[1]
        var small: Int32 = 4096
        setsockopt(writer, SOL_SOCKET, SO_SNDBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(reader, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit {
        close(writer)
        if reader >= 0 { close(reader) }
    }

    /// Everything readable now.
    func readAvailable() -> [UInt8] {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(reader, $0.baseAddress!, $0.count, 0) }
            guard n > 0 else { return received }
            received.append(contentsOf: chunk[..<n])
        }
    }

    /// Closes the reading end: the next write fails with EPIPE.
    func closeReader() {
        close(reader)
    }
}
