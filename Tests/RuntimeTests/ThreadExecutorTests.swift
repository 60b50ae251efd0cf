import Foundation
import Synchronization
import Testing
@testable import Runtime

/// The executor as a loop drives it (the test's thread plays the loop, `RecordingInbox` its mailbox), and with a
/// thread of its own.
@Suite struct ThreadExecutorTests {
    /// A loop's mailbox: keeps what other threads post, for the test to hand to the executor.
    final class RecordingInbox: ThreadExecutorInbox, Sendable {
        let posted = Mutex<[ThreadExecutor.Work]>([])
        func post(_ work: ThreadExecutor.Work) { posted.withLock { $0.append(work) } }
        func take() -> [ThreadExecutor.Work] { posted.withLock { posted in defer { posted = [] }; return posted } }
    }

    /// An executor the calling thread runs, as an event loop runs its own.
    private func hostedOnThisThread() -> (ThreadExecutor, RecordingInbox) {
        let executor = ThreadExecutor(hostedNamed: "test")
        let inbox = RecordingInbox()
        executor.attach(to: inbox)
        executor.claimCurrentThread()
        return (executor, inbox)
    }

    /// Runs `body` on a new thread and returns once it has.
    private func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            body()
            done.signal()
        }
        done.wait()
    }

    @Test func workQueuedOnItsThreadRunsInOrderWithoutTheInbox() {
        let (executor, inbox) = hostedOnThisThread()
        let log = Mutex<[Int]>([])
        for value in 0..<5 { executor.execute { log.withLock { $0.append(value) } } }
        #expect(executor.hasQueuedWork)
        #expect(inbox.take().isEmpty)
        executor.runQueued()
        #expect(log.withLock { $0 } == [0, 1, 2, 3, 4])
        #expect(!executor.hasQueuedWork)
    }

    @Test func workQueuedByAJobRunsInTheSamePassWithoutTheInbox() {
        let (executor, inbox) = hostedOnThisThread()
        let log = Mutex<[String]>([])
        executor.execute {
            log.withLock { $0.append("first") }
            executor.execute { log.withLock { $0.append("queued by first") } }
        }
        executor.execute { log.withLock { $0.append("second") } }
        // What a loop does before it sleeps: run until nothing is queued.
        while executor.runQueued() {}
        #expect(log.withLock { $0 } == ["first", "second", "queued by first"])
        #expect(inbox.take().isEmpty)
    }

    @Test func workFromAnotherThreadGoesThroughTheInboxInOrder() {
        let (executor, inbox) = hostedOnThisThread()
        let log = Mutex<[Int]>([])
        onAnotherThread {
            for value in 0..<3 { executor.execute { log.withLock { $0.append(value) } } }
        }
        #expect(!executor.hasQueuedWork)
        let posted = inbox.take()
        #expect(posted.count == 3)
        for work in posted { executor.run(work) }
        #expect(log.withLock { $0 } == [0, 1, 2])
    }

    @Test func workQueuedBeforeTheAttachmentReachesTheInboxFirst() {
        let executor = ThreadExecutor(hostedNamed: "test")
        let log = Mutex<[Int]>([])
        onAnotherThread { executor.execute { log.withLock { $0.append(1) } } }
        let inbox = RecordingInbox()
        executor.attach(to: inbox)
        onAnotherThread { executor.execute { log.withLock { $0.append(2) } } }
        executor.claimCurrentThread()
        for work in inbox.take() { executor.run(work) }
        #expect(log.withLock { $0 } == [1, 2])
    }

    @Test func timersRunInDeadlineOrderThenScheduleOrderAndNotWhenCancelled() {
        let (executor, _) = hostedOnThisThread()
        let log = Mutex<[String]>([])
        executor.schedule(after: 30) { log.withLock { $0.append("30 s") } }
        executor.schedule(after: 10) { log.withLock { $0.append("10 s, first") } }
        let cancelled = executor.schedule(after: 5) { log.withLock { $0.append("cancelled") } }
        executor.schedule(after: 10) { log.withLock { $0.append("10 s, second") } }
        executor.schedule(after: 600) { log.withLock { $0.append("not due") } }
        executor.cancel(cancelled)
        let now = MonotonicClock.seconds()
        executor.runDueTimers(now: now + 60)
        #expect(log.withLock { $0 } == ["10 s, first", "10 s, second", "30 s"])
        #expect((executor.nextTimerDeadline ?? 0) > now + 60)
    }

    @Test func aTimerScheduledFromAnotherThreadIsFiledByItsOwnThread() {
        let (executor, inbox) = hostedOnThisThread()
        let ran = Mutex(false)
        onAnotherThread { executor.schedule(after: 0) { ran.withLock { $0 = true } } }
        #expect(executor.nextTimerDeadline == nil)
        for work in inbox.take() { executor.run(work) }
        #expect(executor.nextTimerDeadline != nil)
        executor.runDueTimers(now: MonotonicClock.seconds() + 1)
        #expect(ran.withLock { $0 })
    }

    actor Counter {
        let executor: ThreadExecutor
        var count = 0
        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
        init(executor: ThreadExecutor) { self.executor = executor }
        func increment() -> (Int, Bool) {
            count += 1
            return (count, executor.isCurrentThread)
        }
    }

    @Test func anActorOnAnExecutorWithItsOwnThreadRunsThereAndAssumesIsolation() async {
        let executor = ThreadExecutor(name: "actor-test")
        defer { executor.stop() }
        let counter = Counter(executor: executor)
        let (first, onThread) = await counter.increment()
        #expect(first == 1)
        #expect(onThread)
        let seen = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            executor.execute {
                let count = counter.assumeIsolated { counter in
                    counter.count += 1
                    return counter.count
                }
                continuation.resume(returning: count)
            }
        }
        #expect(seen == 2)
    }

    @Test func anExecutorWithItsOwnThreadRunsWorkFromOtherThreadsInOrder() {
        let executor = ThreadExecutor(name: "order-test")
        defer { executor.stop() }
        let log = Mutex<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        for value in 0..<100 {
            executor.execute { log.withLock { $0.append(value) } }
        }
        executor.execute { done.signal() }
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(log.withLock { $0 } == Array(0..<100))
    }
}
