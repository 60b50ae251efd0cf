#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import Transport

@Suite struct OutboundQueueTests {
    private let scratch = IOVecs()
    private var iovecs: UnsafeMutablePointer<iovec> { scratch.pointer }

    /// `count` bytes counting up from `start`, so misordered or repeated bytes show.
    static func pattern(_ count: Int, from start: Int = 0) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: ($0 + start) * 7 + $0 / 256) }
    }

    /// Flushes and reads until the queue is empty: what the peer received in all.
    static func drain(_ queue: inout OutboundQueue, into sockets: SocketPair, pool: BufferPool,
                      iovecs: UnsafeMutablePointer<iovec>) throws -> [UInt8] {
        var received: [UInt8] = []
        while try !queue.flush(fd: sockets.writer, pool: pool, iovecs: iovecs) {
            received += sockets.readAvailable()
        }
        return received + sockets.readAvailable()
    }

    @Test func singleSharedFrameIsWrittenWhole() throws {
        let sockets = try SocketPair()
        let pool = BufferPool()
        var queue = OutboundQueue()
        // An unmasked text frame "Hi".
        queue.append(shared: [0x81, 0x02, 0x48, 0x69])
        let count = queue.count
        #expect(count == 4)
        let drained = try queue.flush(fd: sockets.writer, pool: pool, iovecs: iovecs)
        #expect(drained)
        let isEmpty = queue.isEmpty
        #expect(isEmpty)
        #expect(sockets.readAvailable() == [0x81, 0x02, 0x48, 0x69])
    }

    @Test func emptyFramesAreNotQueued() {
        var queue = OutboundQueue()
        queue.append(shared: [])
        let isEmpty = queue.isEmpty
        #expect(isEmpty)
    }

    @Test func partialWritesResumeWhereTheyStoppedAndKeepTheOrder() throws {
        let sockets = try SocketPair()
        let pool = BufferPool()
        var queue = OutboundQueue()
        let first = Self.pattern(300_000)
        let second = Self.pattern(300_000, from: 11)
        queue.append(shared: first)
        queue.appendOwned(pool: pool, [1, 2, 3])
        queue.append(shared: second)
        let count = queue.count
        #expect(count == 600_003)
        // The socket takes a few kilobytes, not all of it.
        let drained = try queue.flush(fd: sockets.writer, pool: pool, iovecs: iovecs)
        #expect(!drained)
        let taken = 600_003 - queue.count
        #expect(taken > 0)
        var received = sockets.readAvailable()
        #expect(received.count == taken)
        received += try Self.drain(&queue, into: sockets, pool: pool, iovecs: iovecs)
        let isEmpty = queue.isEmpty
        #expect(isEmpty)
        #expect(received == first + [1, 2, 3] + second)
    }

    @Test func moreChunksThanOneWritevTakesAreWrittenInOrder() throws {
        let sockets = try SocketPair()
        let pool = BufferPool()
        var queue = OutboundQueue()
        var expected: [UInt8] = []
        for index in 0..<150 {
            let frame = Self.pattern(100, from: index)
            queue.append(shared: frame)
            expected += frame
        }
        let received = try Self.drain(&queue, into: sockets, pool: pool, iovecs: iovecs)
        #expect(received == expected)
    }

    @Test func smallFramesShareOneOwnedBufferThatReturnsToThePool() throws {
        let sockets = try SocketPair()
        let pool = BufferPool()
        var queue = OutboundQueue()
        queue.appendOwned(pool: pool, [1, 2])
        queue.appendOwned(pool: pool, [3])
        let count = queue.count
        #expect(count == 3)
        #expect(pool.idleBuffers == 0)
        let drained = try queue.flush(fd: sockets.writer, pool: pool, iovecs: iovecs)
        #expect(drained)
        #expect(sockets.readAvailable() == [1, 2, 3])
        // Written out, the buffer is released: an idle connection holds none.
        #expect(pool.idleBuffers == 1)
        queue.appendOwned(pool: pool, [4])
        #expect(pool.idleBuffers == 0)
    }

    @Test func ownedWritesFillABufferThenStartTheNextAndKeepTheirOrder() throws {
        let sockets = try SocketPair()
        let pool = BufferPool()
        var queue = OutboundQueue()
        var expected: [UInt8] = []
        // 100 frames of 100 bytes overflow one 4-KiB buffer; the large one needs a buffer of its own; a shared
        // frame between them keeps its place.
        for index in 0..<100 {
            let frame = Self.pattern(100, from: index)
            queue.appendOwned(pool: pool, frame)
            expected += frame
        }
        let shared = Self.pattern(7, from: 200)
        queue.append(shared: shared)
        expected += shared
        let large = Self.pattern(3 * BufferPool.bufferBytes, from: 5)
        queue.appendOwned(pool: pool, large)
        queue.appendOwned(pool: pool, [42])
        expected += large + [42]
        let count = queue.count
        #expect(count == expected.count)
        let received = try Self.drain(&queue, into: sockets, pool: pool, iovecs: iovecs)
        #expect(received == expected)
        // The full-size buffers come back; the large one is not kept.
        #expect(pool.idleBuffers >= 3)
    }

    @Test func aReusedBufferSendsOnlyWhatWasWrittenIntoItThisTime() throws {
        let sockets = try SocketPair()
        let pool = BufferPool()
        var queue = OutboundQueue()
        queue.appendOwned(pool: pool, Self.pattern(500))
        #expect(try queue.flush(fd: sockets.writer, pool: pool, iovecs: iovecs))
        #expect(sockets.readAvailable() == Self.pattern(500))
        #expect(pool.idleBuffers == 1)
        queue.appendOwned(pool: pool, [7, 8])
        #expect(pool.idleBuffers == 0, "the same buffer, taken again")
        #expect(try queue.flush(fd: sockets.writer, pool: pool, iovecs: iovecs))
        #expect(sockets.readAvailable() == [7, 8], "not the 498 old bytes after them")
    }

    @Test func sharedFramesNeverGoToThePool() throws {
        let sockets = try SocketPair()
        let pool = BufferPool()
        var queue = OutboundQueue()
        queue.append(shared: [1])
        queue.append(shared: [2])
        let drained = try queue.flush(fd: sockets.writer, pool: pool, iovecs: iovecs)
        #expect(drained)
        #expect(pool.idleBuffers == 0)
    }

    @Test func droppingABacklogKeepsTheRestOfTheFrameBeingWritten() throws {
        let sockets = try SocketPair()
        let pool = BufferPool()
        var queue = OutboundQueue()
        let head = Self.pattern(200_000)
        queue.append(shared: head)
        let drained = try queue.flush(fd: sockets.writer, pool: pool, iovecs: iovecs)
        #expect(!drained)
        let unsentOfHead = queue.count
        queue.appendOwned(pool: pool, [9, 9, 9])
        queue.append(shared: Self.pattern(50_000, from: 3))
        queue.dropAllButHead(pool: pool)
        let count = queue.count
        #expect(count == unsentOfHead)
        #expect(pool.idleBuffers == 1)
        // What follows the cut (a close frame) comes right after the whole head frame.
        queue.append(shared: [0x88, 0x00])
        let received = try Self.drain(&queue, into: sockets, pool: pool, iovecs: iovecs)
        #expect(received == head + [0x88, 0x00])
    }

    @Test func removeAllEmptiesTheQueueAndReleasesOwnedBuffers() {
        let pool = BufferPool()
        var queue = OutboundQueue()
        queue.append(shared: [1, 2])
        queue.appendOwned(pool: pool, [3])
        queue.removeAll(pool: pool)
        let isEmpty = queue.isEmpty
        #expect(isEmpty)
        let count = queue.count
        #expect(count == 0)
        #expect(pool.idleBuffers == 1)
    }

    @Test func writingToAGonePeerThrowsWithTheCallAndErrno() throws {
        let sockets = try SocketPair()
        let pool = BufferPool()
        var queue = OutboundQueue()
        queue.append(shared: [1, 2, 3])
        sockets.closeReader()
        var thrown: SystemError?
        do {
            _ = try queue.flush(fd: sockets.writer, pool: pool, iovecs: iovecs)
        } catch {
            thrown = error
        }
        let error = try #require(thrown)
        #expect(error.call == "send")
        #expect(error.errno == EPIPE)
    }
}

/// The loop's scratch array for `sendmsg`, one per test (tests run in parallel).
private final class IOVecs {
    let pointer = UnsafeMutablePointer<iovec>.allocate(capacity: 64)
    deinit { pointer.deallocate() }
}

extension OutboundQueue {
    /// Writes `bytes` into an owned buffer, as a connection writes a frame.
    fileprivate mutating func appendOwned(pool: BufferPool, _ bytes: [UInt8]) {
        appendOwned(pool: pool, upTo: bytes.count) { destination in
            bytes.withUnsafeBytes { destination.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            return bytes.count
        }
    }
}
