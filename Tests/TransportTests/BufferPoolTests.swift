import Testing
@testable import Transport

@Suite struct BufferPoolTests {
    @Test func newBuffersHaveRoomForSeveralFrames() {
        let buffer = BufferPool().take()
        #expect(buffer.isEmpty)
        #expect(buffer.capacity >= 4096)
    }

    @Test func givenBuffersComeBackEmptyWithTheirCapacity() {
        let pool = BufferPool()
        var buffer = pool.take()
        buffer += [1, 2, 3]
        let capacity = buffer.capacity
        pool.give(buffer)
        let again = pool.take()
        #expect(again.isEmpty)
        #expect(again.capacity == capacity)
        #expect(pool.idleBuffers == 0)
    }

    @Test func keepsNoMoreThanItsLimitAndNoOversizedOrUnallocatedBuffers() {
        let pool = BufferPool(maxSpare: 2, maxRetainedCapacity: 8192)
        let buffers = [pool.take(), pool.take(), pool.take()]
        for buffer in buffers { pool.give(buffer) }
        #expect(pool.idleBuffers == 2)
        _ = pool.take()
        var big: [UInt8] = []
        big.reserveCapacity(100_000)
        pool.give(big)
        pool.give([])
        #expect(pool.idleBuffers == 1)
    }
}
