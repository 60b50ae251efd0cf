#if canImport(Glibc)
import Glibc
#endif

/// A thread of its own for one `ThreadExecutor`: for the workers that block (the journal's disk writes, the
/// Redis client) and for rooms made without a server (tests, fuzzers, tools).
///
/// Its inbox is a mutex-guarded array and a condition variable; the thread sleeps on the condition until work
/// arrives or the executor's next timer is due.
final class ExecutorThread: ThreadExecutorInbox, @unchecked Sendable {
    private enum Item {
        case work(ThreadExecutor.Work)
        case stop
    }

    private let executor: ThreadExecutor
    // `queue` is guarded by `mutex`; `condition` wakes the thread when work arrives.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var queue: [Item] = []

    /// Attaches itself to `executor`; `start()` runs it.
    init(running executor: ThreadExecutor) {
        self.executor = executor
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        // Timed waits measure the monotonic clock, so changing the wall clock does not move timers.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
        executor.attach(to: self)
    }

    /// Starts the thread. Lives until `stop()`; the executor keeps it (its inbox) for the life of the process.
    func start() {
        ProcessThread.start { self.run() }
    }

    func post(_ work: ThreadExecutor.Work) {
        push(.work(work))
    }

    /// Ends the thread once the work queued so far has run.
    func stop() {
        push(.stop)
    }

    private func push(_ item: Item) {
        pthread_mutex_lock(mutex)
        queue.append(item)
        let wasEmpty = queue.count == 1
        pthread_mutex_unlock(mutex)
        // A thread that had work queued is not asleep: it takes the whole queue when it wakes.
        if wasEmpty { pthread_cond_signal(condition) }
    }

    private func run() {
        executor.claimCurrentThread()
        var batch: [Item] = []
        while true {
            pthread_mutex_lock(mutex)
            while queue.isEmpty && !executor.hasQueuedWork {
                guard let next = executor.nextTimerDeadline else {
                    pthread_cond_wait(condition, mutex)
                    continue
                }
                if next <= MonotonicClock.seconds() { break }
                var wake = timespec(tv_sec: Int(next), tv_nsec: Int((next - next.rounded(.down)) * 1e9))
                pthread_cond_timedwait(condition, mutex, &wake)
            }
            swap(&batch, &queue)
            pthread_mutex_unlock(mutex)
            for item in batch {
                switch item {
                case .work(let work): executor.run(work)
                case .stop: return
                }
            }
            batch.removeAll(keepingCapacity: true)
            executor.runDueTimers(now: MonotonicClock.seconds())
            while executor.runQueued() {}
        }
    }
}
