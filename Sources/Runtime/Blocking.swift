import Dispatch
import Synchronization

/// Waits on the calling thread for async work: for synchronous start-up code (and fuzz callbacks) that must have
/// a room actor's answer before going on.
public enum Blocking {
    /// Runs `body` in a task and blocks the calling thread until it returns.
    ///
    /// The task prefers `executor`, threads of its own, so its non-isolated parts never wait for the cooperative
    /// pool: the caller may be on one of that pool's threads (a server started from an async test), and with
    /// two cores the pool is two threads. Two tests that each started a server with `--data` at once blocked
    /// both, and the restores they waited for could never begin.
    ///
    /// Never call it on a thread the task itself needs: a room executor's thread or an event loop hosting one.
    ///
    /// - Parameter body: The async work.
    /// - Returns: What `body` returned.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let result = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task(executorPreference: executor) {
            let value = await body()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }

    private static let executor = QueueExecutor()

    /// Runs jobs on a dispatch queue, whose threads are not the cooperative pool's.
    private final class QueueExecutor: TaskExecutor {
        private let queue = DispatchQueue(label: "wordrooms.blocking", attributes: .concurrent)

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        }
    }
}
