#if canImport(Glibc)
import Glibc
#endif
import CLinux
import Synchronization
import WebSocket
import Runtime

/// One thread, one epoll instance, and the connections it accepted or opened.
///
/// The loop waits for events, reads, runs its mailbox and timers, and executes what each connection's
/// `ConnectionMachine` decides (`EventLoop+Actions`, which also writes). Each connection gets a bounded turn per
/// pass (`EventLoop.turnBudget`), so that one busy peer cannot hold the others of its thread. The HTTP exchange (`EventLoop+HTTP`),
/// frames (`EventLoop+WebSocket`) and client connections (`EventLoop+Connect`) have their own files; accepting is
/// the `Acceptor`'s.
///
/// The loop is also the serial executor of the rooms on its thread (`executor`): their jobs queued here run from a
/// local queue without a lock, in the same pass, and their timers are the loop's; a move read on this loop is
/// applied, and its patch queued to this loop's connections, without a thread switch.
///
/// Everything but `submit` runs on the loop's own thread, so connection state needs no locks; other threads hand
/// work over (tasks, and jobs for `executor`) through the loop's one mailbox: a lock and an eventfd wake-up. That is
/// why the type is `@unchecked Sendable`: only `submit` may be called from elsewhere.
public final class EventLoop: @unchecked Sendable {
    let index: Int
    let epollFD: Int32
    var acceptor: Acceptor
    /// Whether the listening socket is registered with epoll.
    private var listening = false
    let application: any HTTPApplication
    let configuration: TransportConfiguration
    let timeouts: ConnectionMachine.Timeouts
    private let mailbox: EventLoopMailbox
    /// The serial executor of the rooms this loop runs, driven by the loop between its I/O events.
    public let executor: ThreadExecutor
    /// The mailbox's contents are swapped into this array, so that draining allocates nothing.
    private var draining: [LoopTask] = []
    /// Tasks submitted on the loop's own thread: no lock and no wake-up, run before the loop next sleeps.
    // Unchecked (with `dirty`, `flushing`, `ready`, `resuming`, `connections` and `counters`): the loop's own
    // lists, touched after every event; with checks on, the loop's functions spent ~380 instructions per echoed
    // message in them (16% of 2,311).
    @exclusivity(unchecked) private var local: [LoopTask] = []
    /// Work run on this loop's thread between events (set before the loop starts).
    private var companions: [any LoopCompanion] = []
    /// Whether the loop runs; read by `add` on the thread that sets the loop up.
    private let started = Atomic<Bool>(false)
    @exclusivity(unchecked) var connections = ConnectionTable()
    var nextGeneration: UInt32 = 0
    let pool = BufferPool()
    let maskingKeys = MaskingKeys()
    /// Inflates the compressed messages of every connection whose peer resets its context after each message
    /// (RFC 7692 `*_no_context_takeover`): such a message needs no earlier window, so one inflater (made on
    /// first use, a 15-bit window) serves them all, one message at a time, on this thread.
    private(set) lazy var sharedInflater: LoopInflater? =
        try? LoopInflater(windowBits: 15, resetsContext: true, maxRatio: configuration.maxInflateRatio)
    /// One `ConnectionCompression` per agreement the loop's upgrades made, which idle connections share (see
    /// there). A handful at most: an agreement is a few window sizes and flags.
    private var sharedCompressions: [SharedCompressionTerms: ConnectionCompression] = [:]
    private let readBuffer: UnsafeMutableRawBufferPointer
    let iovecs: UnsafeMutablePointer<iovec>
    /// Connections with output queued during the current event, and the batch being flushed.
    @exclusivity(unchecked) var dirty: [Connection] = []
    @exclusivity(unchecked) var flushing: [Connection] = []
    /// Connections whose turn ended with input left over (`EventLoop+WebSocket`), each with the offset in its
    /// `inbound` where its next turn starts, in the order their turns ended; `resuming` holds those taking that
    /// turn in the current pass. Each gets one turn per pass, after the sockets epoll reported, and the loop does
    /// not sleep in epoll while any is left.
    @exclusivity(unchecked) var ready: [(Connection, Int)] = []
    @exclusivity(unchecked) private var resuming: [(Connection, Int)] = []
    /// The loop's coarse clock, read once per wake-up.
    private(set) var nowMillis: UInt64 = 0
    /// With `TransportConfiguration.timesReads`: the monotonic nanoseconds at which the bytes being handled were
    /// read. Endpoints may use it for every message of the read.
    public private(set) var readNanoseconds: UInt64 = 0
    private var nextSweepMillis: UInt64 = 0
    private var running = true
    private var shutdownDeadline: UInt64?
    /// Counters of this loop; read through `counterSnapshot()` or `EventLoopGroup.withCounters`, on the loop thread.
    // Unchecked: counted for every message in and out (see `local`).
    @exclusivity(unchecked) var counters = TransportCounters()

    /// The compression state a newly upgraded connection starts with: the loop's shared instance for `agreement`.
    func sharedCompression(_ agreement: PerMessageDeflate.Agreement,
                           mode: WebSocketCompression) -> ConnectionCompression {
        let terms = SharedCompressionTerms(agreement: agreement, mode: mode)
        if let shared = sharedCompressions[terms] { return shared }
        let shared = ConnectionCompression(server: agreement, mode: mode, isShared: true)
        sharedCompressions[terms] = shared
        return shared
    }

    private static let readBufferSize = 256 * 1024
    private static let maxEvents: Int32 = 512
    /// An empty ping: the payload carries nothing we need back.
    static let pingFrame: [UInt8] = FrameEncoder.encode(.ping, payload: [UInt8]())

    init(index: Int, listenFD: Int32, application: any HTTPApplication,
         configuration: TransportConfiguration, budget: ConnectionBudget? = nil,
         pending: PendingConnections? = nil, executor: ThreadExecutor? = nil) throws(SystemError) {
        self.index = index
        self.acceptor = Acceptor(listenFD: listenFD, budget: budget, pending: pending)
        self.application = application
        self.configuration = configuration
        self.timeouts = ConnectionMachine.Timeouts(configuration)
        self.epollFD = try Syscall.epollCreate()
        self.mailbox = try EventLoopMailbox()
        self.executor = executor ?? ThreadExecutor(hostedNamed: "loop-\(index)")
        self.executor.attach(to: mailbox)
        self.readBuffer = .allocate(byteCount: Self.readBufferSize, alignment: 16)
        self.iovecs = .allocate(capacity: 64)
        try Syscall.epollControl(epollFD, EPOLL_CTL_ADD, fd: mailbox.wakeFD, events: EPOLLIN.rawValue)
    }

    deinit {
        Syscall.close(epollFD)
        readBuffer.deallocate()
        iovecs.deallocate()
    }

    /// Open connections of this loop.
    var connectionCount: Int { connections.count }

    /// Whether a shutdown is under way: no new requests are kept alive and no upgrades accepted.
    var isShuttingDown: Bool { shutdownDeadline != nil }

    // MARK: Cross-thread entry

    /// Hands `task` to the loop thread. Callable from any thread; from the loop's own thread the task runs before
    /// the loop next sleeps, without a lock or a wake-up (a frame to send is queued to its connection at once).
    func submit(_ task: LoopTask) {
        if isCurrentThread {
            switch task {
            case .send, .broadcast, .sendStream:
                // A frame for a connection of this loop, from work this loop runs (a room hosted here): queued to
                // the connection right away rather than through the task list, which would only copy it twice.
                // Closes and the rest still wait their turn, so a room's "send, then close" keeps its order.
                perform(task)
            default:
                local.append(task)
            }
            return
        }
        mailbox.submit(task)
    }

    /// Runs `body` on the loop thread.
    public func execute(_ body: @escaping @Sendable (EventLoop) -> Void) {
        submit(.run(body))
    }

    /// Whether the caller runs on this loop's thread.
    public var isCurrentThread: Bool {
        executor.isCurrentThread
    }

    /// Adds work that runs on this loop's thread between events. Only before the loop starts.
    public func add(_ companion: any LoopCompanion) {
        precondition(!started.load(ordering: .acquiring), "companions are added before the loop starts")
        companions.append(companion)
    }

    // MARK: The loop

    /// Runs until shutdown completes. Called on the loop's own thread.
    func run() {
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: Int(Self.maxEvents))
        defer { events.deallocate() }
        started.store(true, ordering: .releasing)
        executor.claimCurrentThread()
        nowMillis = MonotonicClock.coarseMilliseconds()
        nextSweepMillis = nowMillis + 1000
        while running {
            let count = waitForEvents(events)
            nowMillis = MonotonicClock.coarseMilliseconds()
            // Turns cut short in this pass wait for the next one: swapped out first, so a connection gets one.
            swap(&ready, &resuming)
            for i in 0..<count {
                let event = events[i]
                let fd = Int32(truncatingIfNeeded: event.data.u64)
                if fd == mailbox.wakeFD {
                    drainMailbox()
                } else if let connection = connections[fd] {
                    handle(events: event.events, on: connection)
                    // What this event asked for (a room's patch, an echo) leaves before the next socket is
                    // read. Held until the whole batch is read, every reply would wait for the slowest part
                    // of the batch: after a pause (a busy core, a descheduled VM) the batch holds hundreds
                    // of moves, and the first would wait for all of them.
                    runLocalWork()
                    flushDirty()
                } else if fd == acceptor.listenFD {
                    while let (fd, peer) = acceptor.next(counters: &counters) {
                        register(fd: fd, peer: peer)
                    }
                }
            }
            for (connection, offset) in resuming {
                resumeFrames(connection, at: offset)
                runLocalWork()
                flushDirty()
            }
            resuming.removeAll(keepingCapacity: true)
            runDueTimers()
            runLocalWork()
            if nowMillis >= nextSweepMillis {
                sweep()
                nextSweepMillis = nowMillis + (shutdownDeadline == nil ? 1000 : 100)
            }
            flushDirty()
            // The last close handshake just ended: a restart waits for this process to exit, so the loop
            // does not wait for the next sweep (up to 100 ms) to notice.
            if shutdownDeadline != nil, connections.count == 0 { running = false }
        }
        for connection in connections.all {
            run(connection.machine.hangUp(), on: connection)
        }
    }

    /// Waits for events: in `epoll_wait`, or polling (see `TransportConfiguration.pollMicroseconds`).
    private func waitForEvents(_ events: UnsafeMutablePointer<epoll_event>) -> Int {
        let timeout = sleepMillis()
        let poll = configuration.pollMicroseconds
        guard poll > 0, timeout != 0 else {
            return Syscall.epollWait(epollFD, events, max: Self.maxEvents, timeoutMillis: timeout)
        }
        let ready = Syscall.epollWait(epollFD, events, max: Self.maxEvents, timeoutMillis: 0)
        guard ready == 0 else { return ready }
        let micros = timeout < 0 ? poll : min(poll, Int(timeout) * 1000)
        var pause = timespec(tv_sec: 0, tv_nsec: micros * 1000)
        // Interrupted early or not, the loop looks again at once.
        _ = nanosleep(&pause, nil)
        return Syscall.epollWait(epollFD, events, max: Self.maxEvents, timeoutMillis: 0)
    }

    /// How long epoll may sleep: until the next sweep, timer or companion deadline, not at all with local work
    /// waiting.
    private func sleepMillis() -> Int32 {
        if !local.isEmpty || !ready.isEmpty || executor.hasQueuedWork { return 0 }
        var millis = nextSweepMillis > nowMillis ? nextSweepMillis - nowMillis : 0
        var deadline = executor.nextTimerDeadline
        for companion in companions {
            guard let next = companion.nextDeadline() else { continue }
            deadline = min(deadline ?? next, next)
        }
        if let deadline {
            let current = MonotonicClock.seconds()
            guard deadline > current else { return 0 }
            // Rounded up: waking a little late is harmless, waking early spins.
            millis = min(millis, UInt64(((deadline - current) * 1000).rounded(.up)))
        }
        return Int32(clamping: millis)
    }

    /// Runs the executor's timers that are due: once per pass, so the clock is read once per pass at most.
    private func runDueTimers() {
        guard let first = executor.nextTimerDeadline else { return }
        let now = MonotonicClock.seconds()
        if first <= now { executor.runDueTimers(now: now) }
    }

    /// Runs the tasks submitted on this thread, the executor's queued work and the companions, until none has
    /// more (bounded, so that sockets are not starved).
    private func runLocalWork() {
        var rounds = 0
        repeat {
            while !local.isEmpty {
                var tasks: [LoopTask] = []
                swap(&tasks, &local)
                for task in tasks { perform(task) }
            }
            executor.runQueued()
            for companion in companions { companion.runPending() }
            rounds += 1
        } while (!local.isEmpty || executor.hasQueuedWork) && rounds < 16
    }

    private func handle(events: UInt32, on connection: Connection) {
        if connection.machine.phase == .connecting {
            finishConnecting(connection)
            return
        }
        if events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 && events & EPOLLIN.rawValue == 0 {
            run(connection.machine.hangUp(), on: connection)
            return
        }
        // Input left over from its last turn comes first: its turn is taken from `ready`, and the socket (level
        // triggered) is reported again once that input is done.
        if events & EPOLLIN.rawValue != 0 && !hasLeftoverFrames(connection) {
            readAvailable(connection)
            guard connections.holds(connection) else { return }
        }
        if events & EPOLLOUT.rawValue != 0 || connection.isDirty {
            flush(connection)
        }
    }

    // MARK: Reading

    /// One read per turn, of at most the read buffer: what is still in the socket is reported again by epoll
    /// (level triggered) in the next pass, after the other ready connections had their turn.
    private func readAvailable(_ connection: Connection) {
        let result: IOResult<Int>
        do {
            result = try Syscall.receive(connection.fd, into: readBuffer)
        } catch {
            run(connection.machine.hangUp(), on: connection)
            return
        }
        guard case .processed(let n) = result else { return }
        guard n > 0 else {
            run(connection.machine.peerClosed(), on: connection)
            return
        }
        connection.machine.read(at: nowMillis)
        if configuration.timesReads { readNanoseconds = MonotonicClock.nanoseconds() }
        counters.bytesIn += n
        process(UnsafeMutableRawBufferPointer(rebasing: readBuffer[..<n]), on: connection)
    }

    private func process(_ bytes: UnsafeMutableRawBufferPointer, on connection: Connection) {
        switch connection.machine.phase {
        case .open, .closing:
            if connection.machine.parsesFrames { receiveFrames(bytes, on: connection) }
        case .requestHead:
            receiveRequests(bytes, on: connection)
        case .awaitingResponse:
            guard connection.inbound.count + bytes.count <= configuration.maxRequestHeadBytes * 4 else {
                run(connection.machine.hangUp(), on: connection)
                return
            }
            connection.inbound.append(contentsOf: bytes)
        case .clientHandshake:
            connection.inbound.append(contentsOf: bytes)
            finishClientHandshake(connection)
        case .connecting, .closed:
            break
        }
    }

    // MARK: Mailbox

    private func drainMailbox() {
        mailbox.drain(into: &draining)
        for task in draining { perform(task) }
        draining.removeAll(keepingCapacity: true)
    }

    private func perform(_ task: LoopTask) {
        switch task {
        case .send(let fd, let generation, let frame):
            connections.lookup(fd, generation)?.send(frame: frame)
        case .broadcast(let frame, let targets):
            for (fd, generation) in targets {
                connections.lookup(fd, generation)?.send(frame: frame)
            }
        case .sendStream(let fd, let generation, let frame):
            connections.lookup(fd, generation)?.send(frame)
        case .close(let fd, let generation, let code, let reason):
            if let connection = connections.lookup(fd, generation) {
                run(connection.machine.close(code: code, reason: reason, now: nowMillis, timeouts: timeouts),
                    on: connection)
            }
        case .fail(let fd, let generation, let code, let reason):
            if let connection = connections.lookup(fd, generation) {
                run(connection.machine.fail(code: code, reason: reason, now: nowMillis, timeouts: timeouts),
                    on: connection)
            }
        case .httpResponse(let fd, let generation, let response, let keepAlive, let headOnly):
            if let connection = connections.lookup(fd, generation) {
                responseArrived(response, on: connection, keepAlive: keepAlive, headOnly: headOnly)
            }
        case .run(let body):
            body(self)
        case .work(let work):
            executor.run(work)
        case .connect(let request):
            startConnecting(request)
        case .shutdown:
            beginShutdown()
        }
    }

    /// The connection if it is still open to the application (its endpoint not yet told it closed).
    func openConnection(_ fd: Int32, _ generation: UInt32) -> Connection? {
        guard let connection = connections.lookup(fd, generation), connection.machine.isReachable else { return nil }
        return connection
    }

    // MARK: Listening, timeouts and shutdown

    /// Starts accepting on the listening socket (on the loop's thread; until then connections wait in the
    /// kernel's backlog).
    func startListening() {
        guard acceptor.listenFD >= 0, !listening else { return }
        do {
            try Syscall.epollControl(epollFD, EPOLL_CTL_ADD, fd: acceptor.listenFD, events: EPOLLIN.rawValue)
            listening = true
        } catch {
            Log.error("cannot watch the listening socket: \(error)")
        }
    }

    /// Serves connections a `ConnectionHold` accepted on this loop's listener, in the order they came, then
    /// accepts here.
    func adopt(_ held: [ConnectionHold.Accepted]) {
        for accepted in held where acceptor.admit(accepted.fd, peer: accepted.peer, counters: &counters) {
            register(fd: accepted.fd, peer: accepted.peer)
        }
        startListening()
    }

    /// The listening socket's descriptor (-1 once closed), for a `ConnectionHold` before the loop accepts.
    var listenFD: Int32 { acceptor.listenFD }

    /// Stops taking new connections.
    func closeListener() {
        if listening {
            do {
                try Syscall.epollControl(epollFD, EPOLL_CTL_DEL, fd: acceptor.listenFD, events: 0)
            } catch {
                // Closing the socket below takes it out of epoll anyway.
                Log.error("\(error)")
            }
            listening = false
        }
        acceptor.close()
    }

    /// Once a second: request, handshake, ping, pong and close deadlines.
    private func sweep() {
        for connection in connections.all where connections.holds(connection) {
            let actions = connection.machine.tick(now: nowMillis, timeouts: timeouts,
                                                  partialRequest: !connection.inbound.isEmpty)
            if !actions.isEmpty { run(actions, on: connection) }
        }
        if let deadline = shutdownDeadline, connections.count == 0 || nowMillis >= deadline {
            running = false
        }
    }

    private func beginShutdown() {
        guard shutdownDeadline == nil else { return }
        shutdownDeadline = nowMillis + UInt64(configuration.shutdownTimeoutSeconds * 1000)
        closeListener()
        var closing = timeouts
        closing.close = min(closing.close, UInt64(configuration.shutdownCloseTimeoutSeconds * 1000))
        for connection in connections.all {
            run(connection.machine.shutdown(now: nowMillis, timeouts: closing), on: connection)
        }
        nextSweepMillis = nowMillis
    }
}
