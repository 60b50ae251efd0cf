import Testing
@testable import Bots

@Suite struct TimerHeapTests {
    private final class Sleeper: WakeableBot {
        var wakeAt: UInt64?
        func wake(now: UInt64) {}
    }

    @Test func popsDueEntriesEarliestFirstAndKeepsTheRest() {
        var heap = TimerHeap()
        let deadlines: [UInt64] = [50, 10, 40, 30, 20, 60, 10]
        for deadline in deadlines { heap.push(TimerHeap.Entry(deadline: deadline, bot: Sleeper())) }
        var popped: [UInt64] = []
        while let entry = heap.popDue(now: 40) { popped.append(entry.deadline) }
        #expect(popped == [10, 10, 20, 30, 40])
        #expect(heap.count == 2)
        #expect(heap.popDue(now: 49) == nil)
        #expect(heap.popDue(now: 100)?.deadline == 50)
    }

    @Test func emptyHeapHasNothingDue() {
        var heap = TimerHeap()
        #expect(heap.popDue(now: .max) == nil)
    }
}
