#if canImport(Glibc)
import Glibc
#endif

/// A thread that hosts room executors, such as a server's event loop, which runs their work between its own.
public protocol ThreadExecutorHost: AnyObject, Sendable {
    /// Whether the caller runs on the host's thread.
    var isCurrentThread: Bool { get }
    /// Asks the host to call `runPending()` soon; called from other threads when work or an earlier timer
    /// arrives.
    func wakeUp()
}

/// The serial executor of every room (and the registry) assigned to it: its own thread, or a host's thread
/// (an event loop) that runs it between I/O events.
///
/// Rooms do not run on Swift's shared cooperative pool, whose few threads any CPU-heavy task in the process can
/// occupy for seconds; a room's moves must not wait behind unrelated work. Inputs are closures queued in FIFO
/// order, so messages for a room are applied in the order they arrived, with no task allocated per message.
///
/// Hosted by an event loop, a room's move is applied on the thread that read it from the socket and its patch
/// is queued to that loop's connections in the same pass: no thread switch or wake-up per message.
public final class ThreadExecutor: SerialExecutor, @unchecked Sendable {
    private enum Work {
        case job(UnownedJob)
        case closure(@Sendable () -> Void)
        case stop
    }

    // The queue is guarded by `mutex`; `condition` wakes the thread when work arrives.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var queue: [Work] = []
    /// An emptied batch array kept for reuse (hosted executors).
    private var spare: [Work] = []
    /// Pending timers; guarded by `mutex`.
    private var timers = TimerQueue<@Sendable () -> Void>()
    private var nextTimerID: UInt64 = 0
    private var thread = pthread_t()
    private let name: String
    /// Set for an executor without a thread of its own (guarded by `mutex`; attached once).
    private let hosted: Bool
    private var host: (any ThreadExecutorHost)?

    /// Starts the executor's thread; it runs for the life of the process.
    public convenience init(name: String = "rooms") {
        self.init(name: name, hosted: false)
        thread = ProcessThread.start { self.run() }
    }

    /// An executor without a thread: `attach(to:)` a host, which calls `runPending()` on its own thread. Work
    /// queued before that waits for the host.
    public convenience init(hostedNamed name: String) {
        self.init(name: name, hosted: true)
    }

    private init(name: String, hosted: Bool) {
        self.name = name
        self.hosted = hosted
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        // Timed waits measure the monotonic clock, so changing the wall clock does not move timers.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    /// Gives a hosted executor its host.
    public func attach(to host: any ThreadExecutorHost) {
        precondition(hosted, "only an executor made with init(hostedNamed:) has a host")
        pthread_mutex_lock(mutex)
        self.host = host
        pthread_mutex_unlock(mutex)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        push(.job(UnownedJob(job)))
    }

    /// Runs `body` on this executor's thread after everything queued before it.
    public func execute(_ body: @escaping @Sendable () -> Void) {
        push(.closure(body))
    }

    /// Runs `body` on this executor's thread after `seconds`, unless cancelled first.
    ///
    /// Timers live on the executor's own thread, not on Swift's cooperative pool, so a busy pool cannot delay a
    /// turn timer or a round's end.
    ///
    /// - Returns: an identifier for `cancel`.
    @discardableResult
    public func schedule(after seconds: Double, _ body: @escaping @Sendable () -> Void) -> UInt64 {
        let deadline = MonotonicClock.seconds() + max(0, seconds)
        pthread_mutex_lock(mutex)
        nextTimerID += 1
        let id = nextTimerID
        let soonest = timers.insert(deadline: deadline, id: id, body: body)
        let host = self.host
        pthread_mutex_unlock(mutex)
        if soonest { signal(host) }
        return id
    }

    /// Cancels a timer that has not run yet.
    public func cancel(_ id: UInt64) {
        pthread_mutex_lock(mutex)
        timers.cancel(id)
        pthread_mutex_unlock(mutex)
    }

    /// Ends the thread once the work queued so far has run; later work is never run. A hosted executor stops
    /// with its host.
    public func stop() {
        guard !hosted else { return }
        push(.stop)
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Lets `assumeIsolated` confirm, from a queued closure, that it runs on this executor.
    public func checkIsolated() {
        if hosted {
            pthread_mutex_lock(mutex)
            let host = self.host
            pthread_mutex_unlock(mutex)
            precondition(host?.isCurrentThread == true, "not on the thread hosting the \(name) executor")
        } else {
            precondition(pthread_equal(pthread_self(), thread) != 0, "not on the \(name) executor's thread")
        }
    }

    private func push(_ work: Work) {
        pthread_mutex_lock(mutex)
        queue.append(work)
        let wasEmpty = queue.count == 1
        let host = self.host
        pthread_mutex_unlock(mutex)
        if wasEmpty { signal(host) }
    }

    /// Tells the thread that runs this executor that there is something new to look at.
    private func signal(_ host: (any ThreadExecutorHost)?) {
        if hosted {
            // On the host's own thread the host looks at its executors before it sleeps anyway.
            if let host, !host.isCurrentThread { host.wakeUp() }
        } else {
            pthread_cond_signal(condition)
        }
    }

    // MARK: Hosted

    /// Runs the work queued so far and the timers that are due. Hosted executors only, on the host's thread.
    public func runPending() {
        pthread_mutex_lock(mutex)
        moveDueTimers(now: MonotonicClock.seconds())
        guard !queue.isEmpty else {
            pthread_mutex_unlock(mutex)
            return
        }
        var batch = spare
        spare = []
        swap(&batch, &queue)
        pthread_mutex_unlock(mutex)
        _ = perform(batch)
        batch.removeAll(keepingCapacity: true)
        pthread_mutex_lock(mutex)
        spare = batch
        pthread_mutex_unlock(mutex)
    }

    /// When `runPending()` next has something to do, in monotonic seconds: now when work is queued, the next
    /// timer otherwise, nil when there is neither.
    public func nextDeadline() -> Double? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if !queue.isEmpty { return 0 }
        return timers.earliestDeadline
    }

    /// Moves the timers due by `now` to the queue; called with `mutex` held.
    private func moveDueTimers(now: Double) {
        while let due = timers.popDue(now: now) {
            queue.append(.closure(due.body))
        }
    }

    private func run() {
        var batch: [Work] = []
        while true {
            pthread_mutex_lock(mutex)
            while true {
                moveDueTimers(now: MonotonicClock.seconds())
                if !queue.isEmpty { break }
                if let next = timers.earliestDeadline {
                    var wake = timespec(tv_sec: Int(next), tv_nsec: Int((next - next.rounded(.down)) * 1e9))
                    pthread_cond_timedwait(condition, mutex, &wake)
                } else {
                    pthread_cond_wait(condition, mutex)
                }
            }
            swap(&batch, &queue)
            pthread_mutex_unlock(mutex)
            guard perform(batch) else { return }
            batch.removeAll(keepingCapacity: true)
        }
    }

    /// Runs a batch of work in order. Returns false at a `stop` (what follows it is not run).
    private func perform(_ batch: [Work]) -> Bool {
        for work in batch {
            switch work {
            case .job(let job): job.runSynchronously(on: asUnownedSerialExecutor())
            case .closure(let body): body()
            case .stop: return false
            }
        }
        return true
    }
}

/// A fixed set of room executors; rooms are spread over them in turn.
public final class ThreadExecutorPool: Sendable {
    public let executors: [ThreadExecutor]
    private let counter = Counter()

    public init(threads: Int) {
        executors = (0..<max(1, threads)).map { ThreadExecutor(name: "rooms-\($0)") }
    }

    /// A pool of the given executors (for example hosted ones, one per event loop).
    public init(executors: [ThreadExecutor]) {
        precondition(!executors.isEmpty, "a pool needs at least one executor")
        self.executors = executors
    }

    public func next() -> ThreadExecutor {
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
