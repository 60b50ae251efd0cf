import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where work for a `ThreadExecutor` goes when it is queued from another thread: the one cross-thread inbox of
/// the thread that runs the executor, which wakes that thread (an event loop's mailbox and eventfd, or an
/// `ExecutorThread`'s condition variable).
public protocol ThreadExecutorInbox: AnyObject, Sendable {
    /// Queues `work` and wakes the thread if it may be asleep. Called from any thread but the executor's.
    func post(_ work: ThreadExecutor.Work)
}

/// The serial executor of one thread: rooms and the registry in the server (run by an event loop between its
/// I/O events), the journal, the Redis client, and rooms in tests and tools (each on a thread of its own).
///
/// One queue per thread, no lock on that thread: work queued on the executor's own thread (an actor hop between
/// two rooms of the same loop, a closure a room queues for itself) goes to a local run queue and runs in the same
/// pass; work queued from other threads goes through the thread's single cross-thread inbox (one lock and its
/// wake-up) and runs as soon as the thread drains it. Timers are kept on the thread too, so a busy cooperative
/// pool cannot delay a turn timer or a round's end.
///
/// Rooms do not run on Swift's shared cooperative pool, whose few threads any CPU-heavy task in the process can
/// occupy for seconds; a room's moves must not wait behind unrelated work. Inputs are queued in FIFO order per
/// thread they come from, so messages for a room are applied in the order they arrived, with no task allocated
/// per message.
///
/// Everything but `enqueue`, `execute`, `schedule`, `cancel` and `isCurrentThread` runs on the executor's thread,
/// which is why the type is `@unchecked Sendable`.
public final class ThreadExecutor: SerialExecutor, TimerScheduler, @unchecked Sendable {
    /// Work for the executor: a Swift task's job or a closure.
    public enum Work: Sendable {
        case job(UnownedJob)
        case closure(@Sendable () -> Void)
    }

    let name: String
    /// Set once: when made (an executor with its own thread) or by `attach` (an event loop's).
    private let inbox = AtomicLazyReference<InboxReference>()
    /// Work queued from other threads before `attach`, handed to the inbox when it comes; guarded by its mutex,
    /// which `post` takes only while there is no inbox.
    private let early = Mutex<[Work]>([])
    /// `pthread_self()` of the thread that runs the executor, 0 before it runs.
    private let threadID = Atomic<UInt>(0)
    /// Work queued on the executor's own thread; `running` is the batch being run (kept to reuse its storage).
    // Unchecked: looked at after every event of an event loop and appended to for every job; with checks on,
    // callgrind counted ~40 instructions of dynamic checks per echoed message (1.7% of 2,311) and ~670 per Snowman
    // move (0.5% of 129,765) in `runQueued`, `execute` and `hasQueuedWork`. The timers stay checked: ~70
    // instructions per move (0.05%).
    @exclusivity(unchecked) private var local: [Work] = []
    @exclusivity(unchecked) private var running: [Work] = []
    private var timers = TimerQueue<@Sendable () -> Void>()
    private let lastTimerID = Atomic<UInt64>(0)

    /// An executor with a thread of its own, started now; it runs for the life of the process or until `stop()`.
    public convenience init(name: String = "rooms") {
        self.init(hostedNamed: name)
        ExecutorThread(running: self).start()
    }

    /// An executor run by another thread's loop (an event loop), which calls `attach(to:)` and then
    /// `claimCurrentThread()`, `runQueued()` and `runDueTimers(now:)` on its thread. Work queued before the
    /// attachment waits for it.
    public init(hostedNamed name: String) {
        self.name = name
    }

    /// Gives the executor the inbox of the thread that runs it (once), and hands it what was queued before.
    public func attach(to inbox: any ThreadExecutorInbox) {
        let reference = InboxReference(inbox)
        early.withLock { early in
            for work in early { inbox.post(work) }
            early = []
            // Stored last, under the lock: whoever queues meanwhile waits and then finds the inbox, after the
            // early work.
            precondition(self.inbox.storeIfNil(reference) === reference, "the \(name) executor is attached already")
        }
    }

    /// Makes the calling thread the executor's: on its thread, before it runs anything.
    public func claimCurrentThread() {
        threadID.store(UInt(pthread_self()), ordering: .releasing)
    }

    /// Whether the caller runs on the executor's thread.
    @inline(__always)
    public var isCurrentThread: Bool {
        threadID.load(ordering: .relaxed) == UInt(pthread_self())
    }

    // MARK: Queueing (any thread)

    public func enqueue(_ job: consuming ExecutorJob) {
        submit(.job(UnownedJob(job)))
    }

    /// Runs `body` on this executor's thread after the work queued before it from the same thread.
    public func execute(_ body: @escaping @Sendable () -> Void) {
        submit(.closure(body))
    }

    @inline(__always)
    private func submit(_ work: Work) {
        if isCurrentThread {
            local.append(work)
        } else {
            post(work)
        }
    }

    private func post(_ work: Work) {
        if let inbox = inbox.load() {
            inbox.inbox.post(work)
            return
        }
        let attached: InboxReference? = early.withLock { early in
            if let inbox = inbox.load() { return inbox }
            early.append(work)
            return nil
        }
        attached?.inbox.post(work)
    }

    /// Runs `body` on this executor's thread after `seconds`, unless cancelled first.
    ///
    /// - Returns: an identifier for `cancel`.
    @discardableResult
    public func schedule(after seconds: Double, _ body: @escaping @Sendable () -> Void) -> UInt64 {
        let deadline = MonotonicClock.seconds() + max(0, seconds)
        let id = lastTimerID.wrappingAdd(1, ordering: .relaxed).newValue
        if isCurrentThread {
            timers.insert(deadline: deadline, id: id, body: body)
        } else {
            // The thread that owns the timers files it; its wake-up makes it look at the new deadline.
            post(.closure { [self] in timers.insert(deadline: deadline, id: id, body: body) })
        }
        return id
    }

    /// Cancels a timer that has not run yet.
    public func cancel(_ id: UInt64) {
        if isCurrentThread {
            timers.cancel(id)
        } else {
            post(.closure { [self] in timers.cancel(id) })
        }
    }

    /// Ends an executor's own thread once the work queued so far has run; later work is never run. An executor
    /// hosted by an event loop stops with its loop.
    public func stop() {
        (inbox.load()?.inbox as? ExecutorThread)?.stop()
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Lets `assumeIsolated` confirm, from a queued closure, that it runs on this executor.
    public func checkIsolated() {
        precondition(isCurrentThread, "not on the \(name) executor's thread")
    }

    // MARK: Running (the executor's thread)

    /// Whether work queued on the executor's thread is waiting: its thread must not sleep.
    public var hasQueuedWork: Bool { !local.isEmpty }

    /// The deadline of the earliest timer, in monotonic seconds (`MonotonicClock.seconds()`).
    public var nextTimerDeadline: Double? { timers.earliestDeadline }

    /// Runs `work` now: work that came through the inbox.
    @inline(__always)
    public func run(_ work: Work) {
        switch work {
        case .job(let job): job.runSynchronously(on: asUnownedSerialExecutor())
        case .closure(let body): body()
        }
    }

    /// Runs the work queued on this thread so far, in order; what that work queues runs in the next call.
    ///
    /// - Returns: Whether more work is queued.
    @discardableResult
    public func runQueued() -> Bool {
        guard !local.isEmpty else { return false }
        swap(&local, &running)
        for work in running { run(work) }
        running.removeAll(keepingCapacity: true)
        return !local.isEmpty
    }

    /// Runs the timers due by `now` (monotonic seconds), in deadline order. A timer that a due one schedules
    /// for `now` or earlier runs too, and ends the call: a timer that keeps rescheduling itself cannot hold the
    /// thread.
    public func runDueTimers(now: Double) {
        let newest = lastTimerID.load(ordering: .relaxed)
        while let due = timers.popDue(now: now) {
            due.body()
            if due.id > newest { return }
        }
    }
}

/// The inbox as a class, for `AtomicLazyReference`.
private final class InboxReference: Sendable {
    let inbox: any ThreadExecutorInbox
    init(_ inbox: any ThreadExecutorInbox) { self.inbox = inbox }
}
