import Foundation
import Synchronization
import Testing
@testable import Runtime

/// The executor's timers: earliest first, ties in the order scheduled, cancelled ones never run, and the
/// memory of cancelled timers bounded.
@Suite struct TimerQueueTests {
    @Test func timersComeOutEarliestFirstAndTiesInTheOrderScheduled() {
        var queue = TimerQueue<Int>()
        var random = SplitMix(state: 7)
        var expected: [(deadline: Double, id: UInt64)] = []
        for id in UInt64(1)...1000 {
            // Few distinct deadlines, so that many timers share one.
            let deadline = Double(random.next() % 50)
            queue.insert(deadline: deadline, id: id, body: Int(id))
            expected.append((deadline, id))
        }
        expected.sort { $0.deadline != $1.deadline ? $0.deadline < $1.deadline : $0.id < $1.id }
        var popped: [UInt64] = []
        while let entry = queue.popDue(now: 100) {
            #expect(entry.body == Int(entry.id))
            popped.append(entry.id)
        }
        #expect(popped == expected.map(\.id))
        #expect(queue.earliestDeadline == nil)
    }

    @Test func onlyDueTimersComeOut() {
        var queue = TimerQueue<String>()
        queue.insert(deadline: 5, id: 1, body: "five")
        queue.insert(deadline: 2, id: 2, body: "two")
        let popped1 = queue.popDue(now: 1)
        #expect(popped1 == nil)
        #expect(queue.earliestDeadline == 2)
        let popped2 = queue.popDue(now: 3)
        #expect(popped2?.body == "two")
        let popped3 = queue.popDue(now: 3)
        #expect(popped3 == nil)
        let popped4 = queue.popDue(now: 5)
        #expect(popped4?.body == "five")
    }

    @Test func insertSaysWhetherTheTimerIsNowTheEarliest() {
        var queue = TimerQueue<Int>()
        let earliest1 = queue.insert(deadline: 10, id: 1, body: 0)
        #expect(earliest1)
        let earliest2 = queue.insert(deadline: 20, id: 2, body: 0)
        #expect(!earliest2)
        let earliest3 = queue.insert(deadline: 5, id: 3, body: 0)
        #expect(earliest3)
        // Equal to the earliest but scheduled later: it runs after it.
        let earliest4 = queue.insert(deadline: 5, id: 4, body: 0)
        #expect(!earliest4)
        queue.cancel(3)
        #expect(queue.earliestDeadline == 5, "id 4 is the earliest now")
        queue.cancel(4)
        #expect(queue.earliestDeadline == 10)
    }

    @Test func cancelledTimersNeverComeOut() {
        var queue = TimerQueue<Int>()
        for id in UInt64(1)...200 { queue.insert(deadline: Double(id), id: id, body: Int(id)) }
        for id in stride(from: UInt64(2), through: 200, by: 2) { queue.cancel(id) }
        // Cancelling what already ran, or never existed, changes nothing.
        _ = queue.popDue(now: 1)
        queue.cancel(1)
        queue.cancel(999)
        var popped: [Int] = []
        while let entry = queue.popDue(now: 1000) { popped.append(entry.body) }
        #expect(popped == Array(stride(from: 3, through: 199, by: 2)))
    }

    @Test func cancelledTimersDoNotPileUp() {
        // A room that moves its deadline later with every move: one live timer, ever more cancelled ones.
        var queue = TimerQueue<Int>()
        queue.insert(deadline: 1_000_000, id: 1, body: 0)
        var live: UInt64 = 2
        queue.insert(deadline: 100, id: live, body: 0)
        for id in UInt64(3)...20_000 {
            queue.cancel(live)
            queue.insert(deadline: 100 + Double(id), id: id, body: 0)
            live = id
            #expect(queue.storedCount <= 2 + 2 * 33)
        }
        let popped5 = queue.popDue(now: 100 + 20_000)
        #expect(popped5?.id == live)
        let popped6 = queue.popDue(now: 2_000_000)
        #expect(popped6?.id == 1)
        let popped7 = queue.popDue(now: 2_000_000)
        #expect(popped7 == nil)
    }

    @Test func anExecutorRunsItsTimersInDeadlineOrderAndNotTheCancelledOnes() {
        let executor = ThreadExecutor(name: "timer-test")
        let log = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        executor.schedule(after: 0.06) {
            log.withLock { $0.append("late") }
            done.signal()
        }
        let cancelled = executor.schedule(after: 0.03) { log.withLock { $0.append("cancelled") } }
        executor.schedule(after: 0.02) { log.withLock { $0.append("early") } }
        executor.cancel(cancelled)
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(log.withLock { $0 } == ["early", "late"])
        executor.stop()
    }
}

/// A small deterministic generator for the test's deadlines.
private struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
