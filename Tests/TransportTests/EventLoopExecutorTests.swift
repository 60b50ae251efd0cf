import Foundation
import Synchronization
import Testing
import Runtime
@testable import Transport

/// An event loop as the serial executor of the work it hosts (rooms in the server): work from other threads wakes
/// it through its mailbox, work queued on its thread runs in the same pass, timers are the loop's.
@Suite struct EventLoopExecutorTests {
    /// A started client-only loop; `body` gets it, and the loop is shut down afterwards.
    private func withLoop(_ body: (EventLoop) throws -> Void) rethrows {
        let group = try! EventLoopGroup(clientThreads: 1)
        group.start()
        defer { group.shutdown() }
        try body(group.loops[0])
    }

    @Test func workFromAnotherThreadWakesTheSleepingLoopAndRunsOnItsThreadInOrder() {
        withLoop { loop in
            let log = Mutex<[Int]>([])
            let done = DispatchSemaphore(value: 0)
            for value in 0..<50 {
                loop.executor.execute {
                    precondition(loop.isCurrentThread)
                    log.withLock { $0.append(value) }
                }
            }
            loop.executor.execute { done.signal() }
            #expect(done.wait(timeout: .now() + 30) == .success)
            #expect(log.withLock { $0 } == Array(0..<50))
        }
    }

    @Test func workQueuedByAJobRunsBeforeWorkThatArrivedMeanwhileFromOutside() {
        withLoop { loop in
            let log = Mutex<[String]>([])
            let posted = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            loop.executor.execute {
                log.withLock { $0.append("job") }
                loop.executor.execute { log.withLock { $0.append("queued by the job") } }
                // Another thread queues work while the job runs: it waits in the mailbox for the next pass.
                Thread.detachNewThread {
                    loop.executor.execute {
                        log.withLock { $0.append("from outside") }
                        done.signal()
                    }
                    posted.signal()
                }
                posted.wait()
            }
            #expect(done.wait(timeout: .now() + 30) == .success)
            #expect(log.withLock { $0 } == ["job", "queued by the job", "from outside"])
        }
    }

    @Test func timersFireOnTheLoopInDeadlineOrderAndNotWhenCancelled() {
        withLoop { loop in
            let log = Mutex<[String]>([])
            let filed = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            loop.executor.execute {
                let cancelled = loop.executor.schedule(after: 0.01) { log.withLock { $0.append("cancelled") } }
                loop.executor.schedule(after: 0.01) { log.withLock { $0.append("first") } }
                loop.executor.schedule(after: 0.01) { log.withLock { $0.append("second") } }
                loop.executor.cancel(cancelled)
                filed.signal()
            }
            filed.wait()
            // Scheduled from another thread, later than the others: filed by the loop, which must then wake for it.
            loop.executor.schedule(after: 0.02) {
                precondition(loop.isCurrentThread)
                log.withLock { $0.append("third") }
                loop.executor.schedule(after: 0.01) {
                    log.withLock { $0.append("last") }
                    done.signal()
                }
            }
            #expect(done.wait(timeout: .now() + 30) == .success)
            #expect(log.withLock { $0 } == ["first", "second", "third", "last"])
        }
    }

    actor Counter {
        let loop: EventLoop
        var count = 0
        nonisolated var unownedExecutor: UnownedSerialExecutor { loop.executor.asUnownedSerialExecutor() }
        init(loop: EventLoop) { self.loop = loop }
        func increment() -> Bool {
            count += 1
            return loop.isCurrentThread
        }
    }

    @Test func anActorOnTheLoopRunsOnItsThreadAndAssumesIsolationThere() async {
        let group = try! EventLoopGroup(clientThreads: 1)
        group.start()
        defer { group.shutdown() }
        let loop = group.loops[0]
        let counter = Counter(loop: loop)
        #expect(await counter.increment())
        let count = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            loop.execute { _ in
                continuation.resume(returning: counter.assumeIsolated { $0.count })
            }
        }
        #expect(count == 1)
    }
}
