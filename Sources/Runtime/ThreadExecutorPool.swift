import Synchronization

/// A fixed set of room executors; rooms are spread over them in turn.
public final class ThreadExecutorPool: Sendable {
    public let executors: [ThreadExecutor]
    private let counter = Atomic<Int>(0)

    /// A pool of executors with threads of their own (tests and tools; the server's run on its event loops).
    public init(threads: Int) {
        executors = (0..<max(1, threads)).map { ThreadExecutor(name: "rooms-\($0)") }
    }

    /// A pool of the given executors (for example one per event loop).
    public init(executors: [ThreadExecutor]) {
        precondition(!executors.isEmpty, "a pool needs at least one executor")
        self.executors = executors
    }

    public func next() -> ThreadExecutor {
        executors[counter.wrappingAdd(1, ordering: .relaxed).oldValue % executors.count]
    }

    /// Stops every executor of the pool that has a thread of its own, after the work already queued.
    public func stop() {
        for executor in executors { executor.stop() }
    }
}
