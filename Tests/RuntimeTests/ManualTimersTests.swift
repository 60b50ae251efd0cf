import Runtime
import Synchronization
import Testing

/// The hand-moved clock room tests use in place of real time.
@Suite struct ManualTimersTests {
    /// Records the order timers ran in.
    final class Log: Sendable {
        private let entries = Mutex<[String]>([])
        func add(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    @Test func timersRunOnlyOnceTheirTimeHasCome() {
        let timers = ManualTimers(start: 100)
        let log = Log()
        timers.schedule(after: 5) { log.add("five") }
        timers.advance(by: 4.9)
        #expect(log.all.isEmpty)
        #expect(timers.now == 104.9)
        timers.advance(by: 0.1)
        #expect(log.all == ["five"])
        #expect(timers.pendingCount == 0)
    }

    @Test func dueTimersRunInDeadlineOrderWithTheClockAtTheirDeadline() {
        let timers = ManualTimers(start: 0)
        let log = Log()
        timers.schedule(after: 3) { log.add("three at \(timers.now)") }
        timers.schedule(after: 1) { log.add("one at \(timers.now)") }
        timers.schedule(after: 1) { log.add("one again at \(timers.now)") }
        timers.advance(by: 10)
        #expect(log.all == ["one at 1.0", "one again at 1.0", "three at 3.0"])
        #expect(timers.now == 10)
    }

    @Test func cancelledTimersNeverRun() {
        let timers = ManualTimers()
        let log = Log()
        let id = timers.schedule(after: 1) { log.add("cancelled") }
        timers.schedule(after: 2) { log.add("kept") }
        timers.cancel(id)
        timers.advance(by: 5)
        #expect(log.all == ["kept"])
    }

    @Test func aTimerScheduledByATimerRunsWithinTheSameAdvanceWhenDue() {
        let timers = ManualTimers(start: 0)
        let log = Log()
        timers.schedule(after: 1) {
            log.add("first")
            timers.schedule(after: 1) { log.add("second at \(timers.now)") }
            timers.schedule(after: 5) { log.add("too late") }
        }
        timers.advance(by: 3)
        #expect(log.all == ["first", "second at 2.0"])
        #expect(timers.pendingCount == 1)
    }

    /// Work a timer hands to an actor, which reads the clock there and schedules the next step from it.
    actor Stepper {
        let timers: ManualTimers
        let log: Log
        private let started = Mutex<[Task<Void, Never>]>([])
        init(timers: ManualTimers, log: Log) { self.timers = timers; self.log = log }

        nonisolated func wake(_ step: Int) {
            let task = Task { await self.run(step) }
            started.withLock { $0.append(task) }
        }

        private func run(_ step: Int) {
            log.add("step \(step) at \(timers.now)")
            guard step < 3 else { return }
            timers.schedule(after: 1) { [self] in wake(step + 1) }
        }

        /// Waits for every step woken so far to have run.
        nonisolated func settled() async {
            while let task = started.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
                await task.value
            }
        }
    }

    @Test func aSettlingAdvanceWaitsForEachTimersWorkBeforeMovingOn() async {
        let timers = ManualTimers(start: 0)
        let log = Log()
        let stepper = Stepper(timers: timers, log: log)
        timers.schedule(after: 1) { stepper.wake(1) }
        // Each step runs on the actor after its timer fires and only then schedules the next one: without the
        // wait, the advance could finish with the clock at 10 before step 2's timer existed, or step 2 could read
        // a clock already moved past its deadline.
        await timers.advance(by: 10) { await stepper.settled() }
        #expect(log.all == ["step 1 at 1.0", "step 2 at 2.0", "step 3 at 3.0"])
        #expect(timers.now == 10)
        #expect(timers.pendingCount == 0)
    }
}
