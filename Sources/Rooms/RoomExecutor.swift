#if canImport(Glibc)
import Glibc
#endif

/// A thread that runs rooms: the serial executor of every room (and the registry) assigned to it.
///
/// Rooms do not run on Swift's shared cooperative pool, whose few threads any CPU-heavy task in the process can
/// occupy for seconds; a room's moves must not wait behind unrelated work. Inputs are closures queued in FIFO
/// order, so messages for a room are applied in the order they arrived, with no task allocated per message.
public final class RoomExecutor: SerialExecutor, @unchecked Sendable {
    private enum Work {
        case job(UnownedJob)
        case closure(@Sendable () -> Void)
        case stop
    }

    // The queue is guarded by `mutex`; `condition` wakes the thread when work arrives.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var queue: [Work] = []
    private var thread = pthread_t()
    private let name: String

    /// Starts the executor's thread; it runs for the life of the process.
    public init(name: String = "rooms") {
        self.name = name
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
        let box = Unmanaged.passRetained(self).toOpaque()
        let result = pthread_create(&thread, nil, { argument in
            let executor = Unmanaged<RoomExecutor>.fromOpaque(argument!).takeRetainedValue()
            executor.run()
            return nil
        }, box)
        precondition(result == 0, "pthread_create failed: \(result)")
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        push(.job(UnownedJob(job)))
    }

    /// Runs `body` on this executor's thread after everything queued before it.
    public func execute(_ body: @escaping @Sendable () -> Void) {
        push(.closure(body))
    }

    /// Ends the thread once the work queued so far has run; later work is never run.
    public func stop() {
        push(.stop)
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Lets `assumeIsolated` confirm, from a queued closure, that it runs on this executor.
    public func checkIsolated() {
        precondition(pthread_equal(pthread_self(), thread) != 0, "not on the \(name) executor's thread")
    }

    private func push(_ work: Work) {
        pthread_mutex_lock(mutex)
        queue.append(work)
        let wasEmpty = queue.count == 1
        pthread_mutex_unlock(mutex)
        if wasEmpty { pthread_cond_signal(condition) }
    }

    private func run() {
        var batch: [Work] = []
        while true {
            pthread_mutex_lock(mutex)
            while queue.isEmpty {
                pthread_cond_wait(condition, mutex)
            }
            swap(&batch, &queue)
            pthread_mutex_unlock(mutex)
            for work in batch {
                switch work {
                case .job(let job): job.runSynchronously(on: asUnownedSerialExecutor())
                case .closure(let body): body()
                case .stop: return
                }
            }
            batch.removeAll(keepingCapacity: true)
        }
    }
}

/// A fixed set of room executors; rooms are spread over them in turn.
public final class RoomExecutorPool: Sendable {
    public let executors: [RoomExecutor]
    private let counter = Counter()

    public init(threads: Int) {
        executors = (0..<max(1, threads)).map { RoomExecutor(name: "rooms-\($0)") }
    }

    public func next() -> RoomExecutor {
        executors[counter.next() % executors.count]
    }

    /// Stops every thread of the pool after the work already queued.
    public func stop() {
        for executor in executors { executor.stop() }
    }
}

import Synchronization

private final class Counter: Sendable {
    private let value = Atomic<Int>(0)

    func next() -> Int {
        value.wrappingAdd(1, ordering: .relaxed).oldValue
    }
}
