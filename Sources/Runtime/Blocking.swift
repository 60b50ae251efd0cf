import Dispatch
import Synchronization

/// Waits on the calling thread for async work: for synchronous start-up code (and fuzz callbacks) that must have
/// a room actor's answer before going on.
public enum Blocking {
    /// Runs `body` in a task and blocks the calling thread until it returns.
    ///
    /// Never call it on a thread the task itself needs: a room executor's thread or an event loop hosting one, or
    /// a cooperative-pool thread when the pool is small.
    ///
    /// - Parameter body: The async work.
    /// - Returns: What `body` returned.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let result = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await body()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }
}
