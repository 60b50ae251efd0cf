import Testing
@testable import Transport

@Suite struct BufferPoolTests {
    @Test func newBuffersAreAllRoomForSeveralFrames() {
        let buffer = BufferPool().take()
        #expect(buffer.count == BufferPool.bufferBytes)
        #expect(BufferPool.bufferBytes >= 4096)
    }

    @Test func givenBuffersComeBackAsTheyWere() {
        let pool = BufferPool()
        var buffer = pool.take()
        buffer[0] = 9
        pool.give(buffer)
        #expect(pool.idleBuffers == 1)
        let again = pool.take()
        #expect(again.count == BufferPool.bufferBytes)
        #expect(again[0] == 9, "the same buffer, not a new one: old bytes are written over, never cleared")
        #expect(pool.idleBuffers == 0)
    }

    @Test func aLargerRequestGetsABufferOfItsOwnThatIsNotKept() {
        let pool = BufferPool()
        pool.give(pool.take())
        let large = pool.take(minimumCount: 3 * BufferPool.bufferBytes)
        #expect(large.count == 3 * BufferPool.bufferBytes)
        #expect(pool.idleBuffers == 1, "the spare buffer is too small for it and stays")
        pool.give(large)
        #expect(pool.idleBuffers == 1)
    }

    @Test func keepsNoMoreThanItsLimitAndNoBufferOfAnotherSize() {
        let pool = BufferPool(maxSpare: 2)
        let buffers = [pool.take(), pool.take(), pool.take()]
        for buffer in buffers { pool.give(buffer) }
        #expect(pool.idleBuffers == 2)
        _ = pool.take()
        pool.give([UInt8](repeating: 0, count: 100_000))
        pool.give([])
        #expect(pool.idleBuffers == 1)
    }
}
