#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// Bytes waiting to be written to one socket, flushed with a single `writev`.
///
/// Two kinds of chunk share the queue in order: *shared* chunks are pre-encoded frames queued by reference to many
/// connections (a broadcast is encoded once), *owned* chunks are scratch buffers this connection writes small
/// frames into (echo replies) so that steady traffic allocates nothing. Owned buffers come from and return to
/// the event loop's `BufferPool`, so an idle connection holds no buffer at all.
struct OutboundQueue: ~Copyable {
    private struct Chunk {
        /// A shared frame, or an owned buffer: an array as long as its capacity, of which the first `length` bytes
        /// are queued and the rest is room that frames are written into in place.
        var bytes: [UInt8]
        /// The queued bytes of `bytes`: all of a shared frame.
        var length: Int
        var owned: Bool
    }

    /// The only frame queued, when it is a shared one: most connections of a game room get one patch at a time,
    /// so it is kept here, inline, rather than in `chunks`, whose storage (a different, cold, cache line for every
    /// connection of a broadcast) would be touched twice for each frame. `chunks` is empty while it is set.
    private var single: [UInt8]?
    private var chunks: [Chunk] = []
    /// Bytes of the first chunk (or of `single`) already written.
    private var headOffset = 0
    /// Free bytes at the end of the last chunk when it is an owned buffer, else 0: `appendOwned` checks this one
    /// number rather than the last chunk's fields, once per echoed message.
    private var tailRoom = 0
    /// Total bytes not yet written.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Queues a pre-encoded frame without copying it.
    mutating func append(shared bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        if count == 0, chunks.isEmpty {
            single = bytes
        } else {
            spillSingle()
            chunks.append(Chunk(bytes: bytes, length: bytes.count, owned: false))
            tailRoom = 0
        }
        count += bytes.count
    }

    /// Moves `single` into `chunks` before a second chunk joins it.
    private mutating func spillSingle() {
        guard let bytes = single else { return }
        single = nil
        chunks.append(Chunk(bytes: bytes, length: bytes.count, owned: false))
    }

    /// Lets `body` write up to `maxBytes` bytes at the tail of the queue, into an owned scratch buffer's free
    /// space; `body` returns how many it wrote.
    mutating func appendOwned(pool: BufferPool, upTo maxBytes: Int, _ body: (UnsafeMutableRawPointer) -> Int) {
        if tailRoom < maxBytes {
            spillSingle()
            let buffer = pool.take(minimumCount: maxBytes)
            tailRoom = buffer.count
            chunks.append(Chunk(bytes: buffer, length: 0, owned: true))
        }
        // One uniqueness check for the chunks and one for the buffer, not one per field touched: this runs for
        // every echoed message.
        let written = chunks.withUnsafeMutableBufferPointer { chunks in
            let last = chunks.count - 1
            let start = chunks[last].length
            let written = chunks[last].bytes.withUnsafeMutableBytes { body($0.baseAddress! + start) }
            precondition(written >= 0 && written <= maxBytes, "wrote past the room asked for")
            chunks[last].length = start + written
            return written
        }
        tailRoom -= written
        count += written
    }

    /// Drops everything but the rest of the chunk being written: a peer that fell behind gets whole frames up to
    /// the point where it stopped, then whatever is queued next (a close frame).
    mutating func dropAllButHead(pool: BufferPool) {
        guard chunks.count > 1 else { return }
        for index in 1..<chunks.count where chunks[index].owned {
            pool.give(takeBytes(index))
        }
        chunks.removeSubrange(1...)
        count = chunks[0].length - headOffset
        tailRoom = 0
    }

    /// Drops everything queued (the peer is gone).
    mutating func removeAll(pool: BufferPool) {
        single = nil
        for index in chunks.indices where chunks[index].owned {
            pool.give(takeBytes(index))
        }
        chunks.removeAll()
        headOffset = 0
        count = 0
        tailRoom = 0
    }

    /// Largest number of buffers handed to one `writev`; the kernel allows `IOV_MAX` (1024) but a burst this long
    /// already fills the socket buffer.
    private static let maxIOVecs = 64

    /// Writes as much as the socket takes.
    ///
    /// - Returns: true when the queue is empty afterwards, false when the socket would block.
    /// - Throws: `SystemError` when the peer is gone (EPIPE, ECONNRESET...).
    mutating func flush(fd: Int32, pool: BufferPool, iovecs: UnsafeMutablePointer<iovec>) throws(SystemError) -> Bool {
        while count > 0 {
            let written: Int
            if let bytes = single {
                written = try Self.write(bytes, from: headOffset, to: bytes.count, fd: fd)
                if written < 0 { return false }
                count -= written
                headOffset += written
                if count == 0 {
                    single = nil
                    headOffset = 0
                }
                continue
            }
            if chunks.count == 1 {
                written = try writeSingle(fd: fd)
            } else {
                written = try writeGathered(fd: fd, iovecs: iovecs)
            }
            if written < 0 { return false }
            consume(written, pool: pool)
        }
        return true
    }

    private func writeSingle(fd: Int32) throws(SystemError) -> Int {
        try Self.write(chunks[0].bytes, from: headOffset, to: chunks[0].length, fd: fd)
    }

    /// Sends `bytes[offset..<end]`: the count written, or -1 when the socket would block.
    private static func write(_ bytes: [UInt8], from offset: Int, to end: Int, fd: Int32) throws(SystemError) -> Int {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(SystemError) in
                try Syscall.send(fd, UnsafeRawBufferPointer(rebasing: raw[offset..<end]))
            }
        }
        switch result {
        case .success(.processed(let n)): return n
        case .success(.wouldBlock): return -1
        case .failure(let error): throw error
        }
    }

    private func writeGathered(fd: Int32, iovecs: UnsafeMutablePointer<iovec>) throws(SystemError) -> Int {
        let n = min(chunks.count, Self.maxIOVecs)
        var result: Result<IOResult<Int>, SystemError> = .success(.wouldBlock)
        // Pointers into each chunk are only valid inside its `withUnsafeBytes`, so the iovec array is filled
        // by nesting one closure per chunk and calling sendmsg from the innermost.
        func gather(_ index: Int) {
            if index == n {
                result = Result { () throws(SystemError) in try Syscall.send(fd, iovecs, count: n) }
                return
            }
            chunks[index].bytes.withUnsafeBytes { raw in
                let skip = index == 0 ? headOffset : 0
                iovecs[index] = iovec(iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + skip),
                                      iov_len: chunks[index].length - skip)
                gather(index + 1)
            }
        }
        gather(0)
        switch result {
        case .success(.processed(let written)): return written
        case .success(.wouldBlock): return -1
        case .failure(let error): throw error
        }
    }

    /// Moves a chunk's buffer out so the pool gets the only reference (a shared one would be copied on reuse).
    private mutating func takeBytes(_ index: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        swap(&bytes, &chunks[index].bytes)
        return bytes
    }

    private mutating func consume(_ written: Int, pool: BufferPool) {
        count -= written
        var remaining = written
        var finished = 0
        while finished < chunks.count {
            let available = chunks[finished].length - headOffset
            if remaining < available {
                headOffset += remaining
                break
            }
            remaining -= available
            headOffset = 0
            if chunks[finished].owned {
                pool.give(takeBytes(finished))
            }
            finished += 1
        }
        if finished == chunks.count {
            chunks.removeAll(keepingCapacity: chunks.count <= 4)
            tailRoom = 0
        } else if finished > 0 {
            chunks.removeFirst(finished)
        }
    }
}

/// Scratch byte buffers recycled within one event loop, so replies need no allocation in steady state.
final class BufferPool {
    // Unchecked: a buffer taken and given back for most messages sent; ~53 instructions of dynamic checks per
    // echoed message (2.3% of 2,311).
    @exclusivity(unchecked) private var spare: [[UInt8]] = []
    private let maxSpare: Int

    init(maxSpare: Int = 256) {
        self.maxSpare = maxSpare
    }

    /// Buffers waiting to be reused.
    var idleBuffers: Int { spare.count }

    /// The size of a new buffer: room for a few frames.
    static let bufferBytes = 4096

    /// A buffer to write into, of at least `minimumCount` bytes: a recycled one, or a new one. Its bytes are all
    /// room (a buffer's array is as long as its capacity: see `OutboundQueue.Chunk`).
    func take(minimumCount: Int = 0) -> [UInt8] {
        if minimumCount <= Self.bufferBytes, let buffer = spare.popLast() { return buffer }
        return [UInt8](repeating: 0, count: max(minimumCount, Self.bufferBytes))
    }

    /// Keeps `buffer` for reuse unless enough are kept or it is too big to keep; its old bytes are left as
    /// they are, to be written over.
    func give(_ buffer: consuming [UInt8]) {
        guard spare.count < maxSpare, buffer.count == Self.bufferBytes else { return }
        spare.append(buffer)
    }
}

@available(*, unavailable)
extension BufferPool: Sendable {}
