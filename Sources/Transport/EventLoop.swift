#if canImport(Glibc)
import Glibc
#endif
import CLinux
import Synchronization
import WebSocket
import Runtime

/// One thread, one epoll instance, and the connections it accepted.
///
/// Everything but `submit` runs on the loop's own thread, so connection state needs no locks; other threads hand
/// work over through a mutex-guarded mailbox and an eventfd wake-up. That is why the type is `@unchecked Sendable`:
/// only `submit` may be called from elsewhere.
public final class EventLoop: @unchecked Sendable {
    let index: Int
    private let epollFD: Int32
    private let wakeFD: Int32
    private var listenFD: Int32
    /// Held open so that, when the process runs out of descriptors, one can be freed to accept and refuse a
    /// connection instead of leaving it in the backlog to wake epoll forever.
    private var spareFD: Int32
    private let application: any HTTPApplication
    private let configuration: TransportConfiguration
    let requestTimeoutMillis: UInt64
    private let mailbox = Mutex<[LoopTask]>([])
    /// The mailbox's contents are swapped into this array, so that draining allocates nothing.
    private var draining: [LoopTask] = []
    /// Tasks submitted on the loop's own thread: no lock and no wake-up, run before the loop next sleeps.
    private var local: [LoopTask] = []
    /// Work run on this loop's thread between events (set before the loop starts).
    private var companions: [any LoopCompanion] = []
    /// `pthread_self()` of the loop's thread once it runs, 0 before.
    private let threadID = Atomic<UInt>(0)
    private var connections: [Connection?] = []
    private var nextGeneration: UInt32 = 0
    private(set) var connectionCount = 0
    let pool = BufferPool()
    let maskingKeys = MaskingKeys()
    private let readBuffer: UnsafeMutableRawBufferPointer
    private let iovecs: UnsafeMutablePointer<iovec>
    private var dirty: [Connection] = []
    private var nowMillis: UInt64 = 0
    private var nextSweepMillis: UInt64 = 0
    private var running = true
    private var shutdownDeadline: UInt64?
    /// Counters of this loop; read through `statistics()` on the loop thread.
    var counters = TransportCounters()

    private static let readBufferSize = 256 * 1024
    private static let maxEvents = 512
    /// An empty ping: the payload carries nothing we need back.
    private static let pingFrame: [UInt8] = FrameEncoder.encode(.ping, payload: [UInt8]())

    /// Server-wide connection count; nil for client-only loops.
    private let budget: ConnectionBudget?
    /// The canned answer when the budget is spent.
    private static let busyResponse = HTTPResponse.text(
        "The server is at its connection limit. Try again in a moment.", status: 503).serialized(keepAlive: false)

    init(index: Int, listenFD: Int32, application: any HTTPApplication,
         configuration: TransportConfiguration, budget: ConnectionBudget? = nil) throws(SystemError) {
        self.budget = budget
        self.index = index
        self.listenFD = listenFD
        self.application = application
        self.configuration = configuration
        self.requestTimeoutMillis = UInt64(configuration.requestTimeoutSeconds * 1000)
        self.epollFD = try retryingEINTR("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        self.wakeFD = try retryingEINTR("eventfd") { eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC)) }
        self.spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
        self.readBuffer = .allocate(byteCount: Self.readBufferSize, alignment: 16)
        self.iovecs = .allocate(capacity: 64)
        try control(EPOLL_CTL_ADD, fd: wakeFD, events: EPOLLIN.rawValue)
    }

    /// Starts accepting on the listening socket (on the loop's thread; until then connections wait in the
    /// kernel's backlog).
    func startListening() {
        guard listenFD >= 0 else { return }
        do {
            try control(EPOLL_CTL_ADD, fd: listenFD, events: EPOLLIN.rawValue)
        } catch {
            Log.error("cannot watch the listening socket: \(error)")
        }
    }

    deinit {
        close(epollFD)
        close(wakeFD)
        if spareFD >= 0 { close(spareFD) }
        readBuffer.deallocate()
        iovecs.deallocate()
    }

    // MARK: Cross-thread entry

    /// Hands `task` to the loop thread. Callable from any thread; from the loop's own thread the task runs before
    /// the loop next sleeps, without a lock or a wake-up (a frame to send is queued to its connection at once).
    func submit(_ task: LoopTask) {
        if isCurrentThread {
            switch task {
            case .send, .broadcast:
                // A frame for a connection of this loop, from work this loop runs (a room hosted here): queued to
                // the connection right away rather than through the task list, which would only copy it twice.
                // Closes and the rest still wait their turn, so a room's "send, then close" keeps its order.
                perform(task)
            default:
                local.append(task)
            }
            return
        }
        let first = mailbox.withLock { tasks in
            tasks.append(task)
            return tasks.count == 1
        }
        if first {
            var one: UInt64 = 1
            _ = write(wakeFD, &one, 8)
        }
    }

    /// Runs `body` on the loop thread.
    public func execute(_ body: @escaping @Sendable (EventLoop) -> Void) {
        submit(.run(body))
    }

    /// Whether the caller runs on this loop's thread.
    public var isCurrentThread: Bool {
        threadID.load(ordering: .relaxed) == UInt(pthread_self())
    }

    /// Makes the loop look at its companions soon: for work handed to a companion from another thread.
    public func wakeUp() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    /// Adds work that runs on this loop's thread between events. Only before the loop starts.
    public func add(_ companion: any LoopCompanion) {
        precondition(threadID.load(ordering: .relaxed) == 0, "companions are added before the loop starts")
        companions.append(companion)
    }

    // MARK: The loop

    /// Runs until shutdown completes. Called on the loop's own thread.
    func run() {
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: Self.maxEvents)
        defer { events.deallocate() }
        threadID.store(UInt(pthread_self()), ordering: .relaxed)
        nowMillis = MonotonicClock.coarseMilliseconds()
        nextSweepMillis = nowMillis + 1000
        while running {
            let count = waitForEvents(events)
            nowMillis = MonotonicClock.coarseMilliseconds()
            if count > 0 {
                for i in 0..<Int(count) {
                    let event = events[i]
                    let fd = Int32(truncatingIfNeeded: event.data.u64)
                    if fd == listenFD {
                        acceptConnections()
                    } else if fd == wakeFD {
                        drainMailbox()
                    } else if fd >= 0, fd < connections.count, let connection = connections[Int(fd)] {
                        handle(events: event.events, on: connection)
                        // What this event asked for (a room's patch, an echo) leaves before the next socket is
                        // read. Held until the whole batch is read, every reply would wait for the slowest part
                        // of the batch: after a pause (a busy core, a descheduled VM) the batch holds hundreds
                        // of moves, and the first would wait for all of them.
                        runLocalWork()
                        flushDirty()
                    }
                }
            }
            runLocalWork()
            if nowMillis >= nextSweepMillis {
                sweep()
                nextSweepMillis = nowMillis + (shutdownDeadline == nil ? 1000 : 100)
            }
            flushDirty()
        }
        for connection in connections.compactMap({ $0 }) {
            destroy(connection)
        }
    }

    /// Waits for events: in `epoll_wait`, or polling (see `TransportConfiguration.pollMicroseconds`).
    private func waitForEvents(_ events: UnsafeMutablePointer<epoll_event>) -> Int32 {
        let timeout = sleepMillis()
        let poll = configuration.pollMicroseconds
        guard poll > 0, timeout != 0 else {
            return epoll_wait(epollFD, events, Int32(Self.maxEvents), timeout)
        }
        let ready = epoll_wait(epollFD, events, Int32(Self.maxEvents), 0)
        guard ready == 0 else { return ready }
        let micros = timeout < 0 ? poll : min(poll, Int(timeout) * 1000)
        var pause = timespec(tv_sec: 0, tv_nsec: micros * 1000)
        nanosleep(&pause, nil)
        return epoll_wait(epollFD, events, Int32(Self.maxEvents), 0)
    }

    /// How long epoll may sleep: until the next sweep or companion deadline, not at all with local work waiting.
    private func sleepMillis() -> Int32 {
        if !local.isEmpty { return 0 }
        var millis = nextSweepMillis > nowMillis ? nextSweepMillis - nowMillis : 0
        if !companions.isEmpty {
            var now: Double?
            for companion in companions {
                guard let deadline = companion.nextDeadline() else { continue }
                let current = now ?? MonotonicClock.seconds()
                now = current
                guard deadline > current else { return 0 }
                // Rounded up: waking a little late is harmless, waking early spins.
                millis = min(millis, UInt64(((deadline - current) * 1000).rounded(.up)))
            }
        }
        return Int32(clamping: millis)
    }

    /// Runs the tasks submitted on this thread and the companions, until neither has more (bounded, so that
    /// sockets are not starved).
    private func runLocalWork() {
        var rounds = 0
        repeat {
            while !local.isEmpty {
                var tasks: [LoopTask] = []
                swap(&tasks, &local)
                for task in tasks { perform(task) }
            }
            for companion in companions { companion.runPending() }
            rounds += 1
        } while !local.isEmpty && rounds < 16
    }

    private func handle(events: UInt32, on connection: Connection) {
        if connection.phase == .connecting {
            finishConnecting(connection)
            return
        }
        if events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 && events & EPOLLIN.rawValue == 0 {
            destroy(connection)
            return
        }
        if events & EPOLLIN.rawValue != 0 {
            readAvailable(connection)
            guard connections[Int(connection.fd)] === connection else { return }
        }
        if events & EPOLLOUT.rawValue != 0 || connection.isDirty {
            flush(connection)
        }
    }

    // MARK: Accepting

    private func acceptConnections() {
        while true {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    clinux_accept4(listenFD, $0, &length, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
                }
            }
            if fd < 0 {
                switch errno {
                case EINTR, ECONNABORTED:
                    continue
                case EMFILE, ENFILE:
                    refuseOneForLackOfDescriptors()
                    return
                default:
                    // EAGAIN: backlog drained. Anything else (ENOBUFS...) is transient: epoll will say when to retry.
                    return
                }
            }
            if let budget, !budget.acquire() {
                // Full: say so in one write (the socket buffer of a new connection has room) and close.
                counters.connectionsRefused += 1
                _ = Self.busyResponse.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
                close(fd)
                continue
            }
            var on: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            register(fd: fd, peer: SocketAddress(storage))
        }
    }

    private func refuseOneForLackOfDescriptors() {
        counters.acceptFailures += 1
        guard spareFD >= 0 else { return }
        close(spareFD)
        let fd = clinux_accept4(listenFD, nil, nil, Int32(SOCK_CLOEXEC.rawValue))
        if fd >= 0 { close(fd) }
        spareFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
        if counters.acceptFailures == 1 || counters.acceptFailures % 1000 == 0 {
            Log.error("out of file descriptors: refused a connection (\(counters.acceptFailures) so far); raise the limit (ulimit -n)")
        }
    }

    private func register(fd: Int32, peer: SocketAddress) {
        nextGeneration &+= 1
        let connection = Connection(fd: fd, generation: nextGeneration, loop: self, peer: peer, now: nowMillis)
        connection.outboundLimit = configuration.maxOutboundBytes
        connection.registeredEvents = EPOLLIN.rawValue | EPOLLRDHUP.rawValue
        if Int(fd) >= connections.count {
            connections.append(contentsOf: repeatElement(nil, count: Int(fd) + 1 - connections.count + 64))
        }
        do {
            try control(EPOLL_CTL_ADD, fd: fd, events: EPOLLIN.rawValue | EPOLLRDHUP.rawValue)
        } catch {
            close(fd)
            budget?.release()
            return
        }
        connections[Int(fd)] = connection
        connectionCount += 1
        counters.accepted += 1
    }

    // MARK: Reading

    private func readAvailable(_ connection: Connection) {
        while true {
            // recv rather than read: it skips the file layer's checks on every call.
            let n = recv(connection.fd, readBuffer.baseAddress!, readBuffer.count, 0)
            if n > 0 {
                connection.lastReadMillis = nowMillis
                connection.pingOutstanding = false
                counters.bytesIn += n
                process(UnsafeMutableRawBufferPointer(rebasing: readBuffer[..<n]), on: connection)
                guard connections[Int(connection.fd)] === connection else { return }
                if n < readBuffer.count || connection.outbound.count >= Self.pauseReadingBytes { return }
            } else if n == 0 {
                peerClosed(connection)
                return
            } else {
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK: return
                default:
                    destroy(connection)
                    return
                }
            }
        }
    }

    private func peerClosed(_ connection: Connection) {
        if connection.phase == .connecting || connection.phase == .clientHandshake {
            failClientConnection(connection, reason: "the server closed the connection during the opening handshake")
            return
        }
        // A peer that half-closes after our close frame or final response is done; otherwise it left
        // without a close frame (1006 for the application).
        destroy(connection)
    }

    /// A client connection that never opened: its endpoint hears `connectionFailed`, not `didClose`.
    private func failClientConnection(_ connection: Connection, reason: String) {
        let endpoint = connection.endpoint
        connection.endpoint = nil
        destroy(connection)
        endpoint?.connectionFailed(reason: reason)
    }

    private func process(_ bytes: UnsafeMutableRawBufferPointer, on connection: Connection) {
        switch connection.phase {
        case .webSocket:
            receiveFrames(bytes, on: connection)
        case .connecting:
            break
        case .clientHandshake:
            connection.inbound.append(contentsOf: bytes)
            finishClientHandshake(connection)
        case .http:
            if connection.inbound.isEmpty {
                processRequests(bytes, on: connection)
            } else {
                connection.inbound.append(contentsOf: bytes)
                var pending: [UInt8] = []
                swap(&pending, &connection.inbound)
                pending.withUnsafeMutableBytes { processRequests($0, on: connection) }
            }
        case .awaitingResponse:
            guard connection.inbound.count + bytes.count <= configuration.maxRequestHeadBytes * 4 else {
                destroy(connection)
                return
            }
            connection.inbound.append(contentsOf: bytes)
        case .closing:
            if let session = connection.session, session.state != .closed {
                // Still waiting for the peer's close frame.
                receiveFrames(bytes, on: connection)
            }
        }
    }

    // MARK: HTTP

    /// Handles as many complete request heads as `bytes` holds; keeps an incomplete rest in `inbound`.
    private func processRequests(_ bytes: UnsafeMutableRawBufferPointer, on connection: Connection) {
        var offset = 0
        while offset < bytes.count, connection.phase == .http {
            let rest = UnsafeMutableRawBufferPointer(rebasing: bytes[offset...])
            let parsed: (head: HTTPRequestHead, length: Int)?
            do {
                parsed = try HTTPRequestHead.parse(UnsafeRawBufferPointer(rest),
                                                   maxLength: configuration.maxRequestHeadBytes)
            } catch {
                counters.badRequests += 1
                let message = error.status == 431
                    ? "The request head is larger than \(configuration.maxRequestHeadBytes) bytes."
                    : "Malformed HTTP request: \(error)."
                finish(connection, with: .text(message, status: error.status))
                return
            }
            guard let (head, length) = parsed else {
                connection.inbound.append(contentsOf: rest)
                return
            }
            offset += length
            if WebSocketHandshake.isUpgradeRequest(head) {
                upgrade(connection, request: head,
                        leftover: UnsafeMutableRawBufferPointer(rebasing: bytes[offset...]))
                return
            }
            if head.value(of: "content-length").map({ $0 != "0" }) ?? false || head.value(of: "transfer-encoding") != nil {
                finish(connection, with: .text("This server accepts no request bodies.", status: 413))
                return
            }
            counters.httpRequests += 1
            let keepAlive = head.keepAlive && shutdownDeadline == nil
            let headOnly = head.method == "HEAD"
            switch application.respond(to: head, from: connection.peer) {
            case .now(let response):
                queueResponse(response, on: connection, keepAlive: keepAlive, headOnly: headOnly)
            case .deferred(let start):
                connection.phase = .awaitingResponse
                let (fd, generation) = (connection.fd, connection.generation)
                start { response in
                    self.submit(.httpResponse(fd: fd, generation: generation, response: response,
                                              keepAlive: keepAlive, headOnly: headOnly))
                }
            case .later(let produce):
                connection.phase = .awaitingResponse
                let (fd, generation) = (connection.fd, connection.generation)
                Task {
                    let response = await produce()
                    self.submit(.httpResponse(fd: fd, generation: generation, response: response,
                                              keepAlive: keepAlive, headOnly: headOnly))
                }
            }
        }
        if offset < bytes.count, connection.phase == .awaitingResponse {
            connection.inbound.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[offset...]))
        }
    }

    private func queueResponse(_ response: HTTPResponse, on connection: Connection, keepAlive: Bool, headOnly: Bool) {
        guard keepAlive else {
            finish(connection, with: response, headOnly: headOnly)
            return
        }
        connection.outbound.append(shared: response.serialized(keepAlive: true, headOnly: headOnly))
        connection.phase = .http
        connection.deadlineMillis = nowMillis + requestTimeoutMillis
        outputQueued(on: connection)
    }

    /// Sends a final response, then closes.
    private func finish(_ connection: Connection, with response: HTTPResponse, headOnly: Bool = false) {
        connection.inbound = []
        connection.outbound.append(shared: response.serialized(keepAlive: false, headOnly: headOnly))
        beginClosing(connection)
    }

    private func upgrade(_ connection: Connection, request: HTTPRequestHead, leftover: UnsafeMutableRawBufferPointer) {
        guard shutdownDeadline == nil else {
            counters.handshakeFailures += 1
            finish(connection, with: .text("The server is shutting down.", status: 503))
            return
        }
        if let refusal = application.refuseUpgrade(request, from: connection.peer) {
            counters.handshakeFailures += 1
            finish(connection, with: refusal)
            return
        }
        guard let endpoint = application.webSocketEndpoint(for: request.path) else {
            counters.handshakeFailures += 1
            finish(connection, with: .text("No WebSocket endpoint at \(request.path).", status: 404))
            return
        }
        switch WebSocketHandshake.serverResponse(to: request) {
        case .reject(let response, _):
            counters.handshakeFailures += 1
            connection.inbound = []
            connection.outbound.append(shared: response)
            beginClosing(connection)
        case .accept(let response):
            counters.upgrades += 1
            connection.outbound.append(shared: response)
            connection.phase = .webSocket
            connection.session = WebSocketSession(role: .server, maxMessageBytes: endpoint.maxMessageBytes)
            connection.endpoint = endpoint
            // Room for a reply as big as the largest message accepted, on top of the normal allowance.
            connection.outboundLimit = configuration.maxOutboundBytes + endpoint.maxMessageBytes
            connection.inbound = []
            outputQueued(on: connection)
            endpoint.didOpen(connection, request: request)
            if !leftover.isEmpty, connection.phase == .webSocket {
                receiveFrames(leftover, on: connection)
            }
        }
    }

    // MARK: WebSocket

    private func receiveFrames(_ bytes: UnsafeMutableRawBufferPointer, on connection: Connection) {
        guard connection.session != nil else { return }
        connection.inReceive = true
        var closeNow = false
        connection.session!.receive(bytes) { action in
            switch action {
            case .deliverText(let text):
                counters.messagesIn += 1
                connection.endpoint?.didReceiveText(text, on: connection)
            case .deliverBinary(let data):
                counters.messagesIn += 1
                connection.endpoint?.didReceiveBinary(data, on: connection)
            case .sendPong(let frame):
                connection.outbound.append(shared: frame)
                outputQueued(on: connection)
            case .pongReceived:
                break
            case .closeReceived(let code, _):
                if connection.closeCode == nil { connection.closeCode = code }
            case .sendClose(let frame, let code):
                if connection.closeCode == nil { connection.closeCode = code }
                connection.outbound.append(shared: frame)
                // No application data may follow a close frame (RFC 6455 §5.5.1).
                enterClosing(connection)
                outputQueued(on: connection)
            case .closeConnection:
                closeNow = true
            }
        }
        connection.inReceive = false
        if closeNow {
            beginClosing(connection)
        } else if let (code, reason) = connection.deferredClose {
            connection.deferredClose = nil
            startClose(connection, code: code, reason: reason)
        }
    }

    /// Sends our close frame (RFC 6455 §7.1.2) and waits for the peer's, up to the close timeout.
    func startClose(_ connection: Connection, code: CloseCode, reason: String) {
        guard connection.phase == .webSocket, var session = connection.session else {
            if connection.phase != .closing { beginClosing(connection) }
            return
        }
        if let frame = session.initiateClose(code: code, reason: reason) {
            connection.outbound.append(shared: frame)
        }
        connection.session = session
        if connection.closeCode == nil { connection.closeCode = code }
        enterClosing(connection)
        notifyClosed(connection)
        outputQueued(on: connection)
    }

    /// No more application traffic: flush what is queued, then shut down our side (the server closes TCP first,
    /// RFC 6455 §7.1.1) and let the peer finish, within the close timeout.
    private func beginClosing(_ connection: Connection) {
        enterClosing(connection)
        if connection.session?.state != .closeSent {
            connection.session = nil
        }
        notifyClosed(connection)
        outputQueued(on: connection)
    }

    private func enterClosing(_ connection: Connection) {
        guard connection.phase != .closing else { return }
        connection.phase = .closing
        connection.deadlineMillis = nowMillis + UInt64(configuration.closeTimeoutSeconds * 1000)
    }

    private func notifyClosed(_ connection: Connection) {
        guard let endpoint = connection.endpoint else { return }
        connection.endpoint = nil
        counters.recordClose(connection.closeCode)
        endpoint.didClose(connection, code: connection.closeCode)
        connection.context = nil
    }

    // MARK: Writing

    /// Marks a connection to be flushed once the current event is handled, so the frames queued for it in the
    /// meantime (a broadcast, the replies to many pipelined messages) leave in one `writev`.
    func outputQueued(on connection: Connection) {
        if connection.outbound.count > connection.outboundLimit, connection.phase != .closing {
            // Before calling the peer slow, hand the socket what it takes now: a burst queued in one pass (say,
            // the replies to a backlog read after a pause) is not a reader that fell behind.
            flush(connection)
            guard connections[Int(connection.fd)] === connection,
                  connection.outbound.count > connection.outboundLimit else { return }
            counters.slowConsumers += 1
            // Too far behind: drop what it has not started to receive, keep the rest of the chunk being written
            // (so the stream stays whole frames), and end with a close frame that says why.
            connection.outbound.dropAllButHead(pool: pool)
            connection.closeCode = .policyViolation
            if connection.phase == .webSocket {
                let reason = "too slow: messages were dropped"
                connection.outbound.append(shared: FrameEncoder.encodeClose(code: .policyViolation, reason: reason))
                connection.session = nil
            }
            beginClosing(connection)
            return
        }
        if !connection.isDirty {
            connection.isDirty = true
            dirty.append(connection)
        }
    }

    private func flushDirty() {
        guard !dirty.isEmpty else { return }
        let batch = dirty
        dirty.removeAll(keepingCapacity: true)
        for connection in batch where connection.isDirty {
            flush(connection)
        }
    }

    private func flush(_ connection: Connection) {
        connection.isDirty = false
        guard connections[Int(connection.fd)] === connection else { return }
        let before = connection.outbound.count
        let drained: Bool
        do {
            drained = try connection.outbound.flush(fd: connection.fd, pool: pool, iovecs: iovecs)
        } catch {
            destroy(connection)
            return
        }
        counters.bytesOut += before - connection.outbound.count
        connection.wantsWritable = !drained
        // Backpressure: a peer that sends faster than it reads our replies is not read from until its replies
        // drain, so its queue stays bounded without dropping it (TCP slows the sender down).
        if connection.readPaused {
            if connection.outbound.count <= Self.resumeReadingBytes { connection.readPaused = false }
        } else if connection.outbound.count >= Self.pauseReadingBytes {
            connection.readPaused = true
        }
        updateInterest(connection)
        if drained, connection.phase == .closing, connection.session?.state != .closeSent {
            // Everything is out: send FIN. The peer's FIN (read returning 0) or the deadline ends it.
            shutdown(connection.fd, Int32(SHUT_WR))
        }
    }

    /// Replies queued beyond this stop reading from the connection; below `resumeReadingBytes` it resumes.
    private static let pauseReadingBytes = 1 << 20
    private static let resumeReadingBytes = 256 << 10

    /// Registers the epoll events the connection needs now, with a syscall only when they change.
    private func updateInterest(_ connection: Connection) {
        var events = EPOLLRDHUP.rawValue
        if !connection.readPaused { events |= EPOLLIN.rawValue }
        if connection.wantsWritable { events |= EPOLLOUT.rawValue }
        guard events != connection.registeredEvents else { return }
        connection.registeredEvents = events
        try? control(EPOLL_CTL_MOD, fd: connection.fd, events: events)
    }

    private func destroy(_ connection: Connection) {
        guard connections[Int(connection.fd)] === connection else { return }
        notifyClosed(connection)
        connection.outbound.removeAll(pool: pool)
        connection.isDirty = false
        connections[Int(connection.fd)] = nil
        connectionCount -= 1
        close(connection.fd)
        if !connection.isClient { budget?.release() }
    }

    // MARK: Mailbox

    private func drainMailbox() {
        var counter: UInt64 = 0
        _ = read(wakeFD, &counter, 8)
        mailbox.withLock { tasks in swap(&tasks, &draining) }
        for task in draining { perform(task) }
        draining.removeAll(keepingCapacity: true)
    }

    private func perform(_ task: LoopTask) {
        switch task {
        case .send(let fd, let generation, let frame):
            connection(fd, generation)?.send(frame: frame)
        case .broadcast(let frame, let targets):
            for (fd, generation) in targets {
                connection(fd, generation)?.send(frame: frame)
            }
        case .close(let fd, let generation, let code, let reason):
            if let connection = connection(fd, generation) {
                startClose(connection, code: code, reason: reason)
            }
        case .httpResponse(let fd, let generation, let response, let keepAlive, let headOnly):
            guard let connection = connection(fd, generation), connection.phase == .awaitingResponse else { return }
            connection.phase = .http
            queueResponse(response, on: connection, keepAlive: keepAlive, headOnly: headOnly)
            if connection.phase == .http, !connection.inbound.isEmpty {
                var pending: [UInt8] = []
                swap(&pending, &connection.inbound)
                pending.withUnsafeMutableBytes { processRequests($0, on: connection) }
            }
        case .run(let body):
            body(self)
        case .connect(let request):
            startConnecting(request)
        case .shutdown:
            beginShutdown()
        }
    }

    /// The connection if it is still open to the application (its endpoint not yet told it closed).
    func openConnection(_ fd: Int32, _ generation: UInt32) -> Connection? {
        guard let connection = connection(fd, generation), connection.endpoint != nil || connection.phase == .http
        else { return nil }
        return connection
    }

    private func connection(_ fd: Int32, _ generation: UInt32) -> Connection? {
        guard fd >= 0, Int(fd) < connections.count, let connection = connections[Int(fd)],
              connection.generation == generation else { return nil }
        return connection
    }

    // MARK: Timeouts and shutdown

    /// Once a second: request, ping, pong and close deadlines.
    private func sweep() {
        let pingInterval = UInt64(configuration.pingIntervalSeconds * 1000)
        let pongTimeout = UInt64(configuration.pongTimeoutSeconds * 1000)
        for case let connection? in connections {
            switch connection.phase {
            case .connecting, .clientHandshake:
                if nowMillis >= connection.deadlineMillis {
                    counters.handshakeFailures += 1
                    failClientConnection(connection, reason: "the opening handshake timed out")
                }
            case .http, .awaitingResponse:
                if nowMillis >= connection.deadlineMillis, connection.phase == .http {
                    counters.requestTimeouts += 1
                    if connection.inbound.isEmpty {
                        destroy(connection)
                    } else {
                        finish(connection, with: .text("The request head did not arrive in time.", status: 408))
                    }
                }
            case .webSocket:
                if connection.pingOutstanding {
                    if nowMillis >= connection.deadlineMillis {
                        counters.pingTimeouts += 1
                        connection.closeCode = .goingAway
                        destroy(connection)
                    }
                } else if nowMillis - connection.lastReadMillis >= pingInterval {
                    connection.pingOutstanding = true
                    connection.deadlineMillis = nowMillis + pongTimeout
                    // RFC 6455 §5.3: a client masks every frame, pings included, each with a fresh key.
                    connection.outbound.append(shared: connection.isClient
                        ? FrameEncoder.encode(.ping, payload: [UInt8](), maskingKey: maskingKeys.next())
                        : Self.pingFrame)
                    outputQueued(on: connection)
                }
            case .closing:
                if nowMillis >= connection.deadlineMillis {
                    destroy(connection)
                }
            }
        }
        if let deadline = shutdownDeadline, connectionCount == 0 || nowMillis >= deadline {
            running = false
        }
    }

    /// Stops taking new connections.
    func closeListener() {
        guard listenFD >= 0 else { return }
        _ = epoll_ctl(epollFD, EPOLL_CTL_DEL, listenFD, nil)
        close(listenFD)
        listenFD = -1
    }

    private func beginShutdown() {
        guard shutdownDeadline == nil else { return }
        shutdownDeadline = nowMillis + UInt64(configuration.shutdownTimeoutSeconds * 1000)
        closeListener()
        for case let connection? in connections {
            switch connection.phase {
            case .webSocket:
                startClose(connection, code: .goingAway, reason: "server shutting down")
            case .http, .connecting, .clientHandshake:
                destroy(connection)
            case .awaitingResponse, .closing:
                break
            }
        }
        nextSweepMillis = nowMillis
    }

    // MARK: Client connections

    private func startConnecting(_ request: ClientConnection) {
        guard let (address, length, family) = SocketAddress.numeric(host: request.address, port: request.port) else {
            request.endpoint.connectionFailed(reason: "'\(request.address)' is not a numeric address")
            return
        }
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            counters.acceptFailures += 1
            request.endpoint.connectionFailed(reason: "socket: \(String(cString: strerror(errno)))")
            return
        }
        var on: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        var storage = address
        let result = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) }
        }
        if result != 0 && errno != EINPROGRESS {
            let reason = String(cString: strerror(errno))
            close(fd)
            request.endpoint.connectionFailed(reason: "connect: \(reason)")
            return
        }
        nextGeneration &+= 1
        let connection = Connection(fd: fd, generation: nextGeneration, loop: self, peer: SocketAddress(storage),
                                    now: nowMillis, isClient: true)
        connection.phase = .connecting
        connection.endpoint = request.endpoint
        connection.clientKey = WebSocketHandshake.randomKey()
        connection.outbound.append(shared: WebSocketHandshake.clientRequest(
            host: request.hostHeader, path: request.path, key: connection.clientKey!))
        if Int(fd) >= connections.count {
            connections.append(contentsOf: repeatElement(nil, count: Int(fd) + 1 - connections.count + 64))
        }
        do {
            try control(EPOLL_CTL_ADD, fd: fd, events: EPOLLIN.rawValue | EPOLLOUT.rawValue | EPOLLRDHUP.rawValue)
        } catch {
            close(fd)
            request.endpoint.connectionFailed(reason: "\(error)")
            return
        }
        connection.wantsWritable = true
        connection.registeredEvents = EPOLLIN.rawValue | EPOLLOUT.rawValue | EPOLLRDHUP.rawValue
        connections[Int(fd)] = connection
        connectionCount += 1
    }

    private func finishConnecting(_ connection: Connection) {
        var error: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(connection.fd, SOL_SOCKET, SO_ERROR, &error, &size)
        guard error == 0 else {
            counters.handshakeFailures += 1
            failClientConnection(connection, reason: "connect: \(String(cString: strerror(error)))")
            return
        }
        connection.phase = .clientHandshake
        flush(connection)
    }

    private func finishClientHandshake(_ connection: Connection) {
        let result = connection.inbound.withUnsafeBytes { bytes in
            Result { () throws(WebSocketHandshake.HandshakeError) in
                try WebSocketHandshake.validateServerResponse(bytes, key: connection.clientKey ?? "")
            }
        }
        switch result {
        case .success(nil):
            return
        case .success(let length?):
            var rest = Array(connection.inbound[length...])
            connection.inbound = []
            connection.clientKey = nil
            guard let endpoint = connection.endpoint else { return }
            counters.upgrades += 1
            connection.phase = .webSocket
            connection.session = WebSocketSession(role: .client, maxMessageBytes: endpoint.maxMessageBytes)
            endpoint.didOpen(connection, request: HTTPRequestHead(method: "GET", target: "/", headers: []))
            if !rest.isEmpty, connection.phase == .webSocket {
                rest.withUnsafeMutableBytes { receiveFrames($0, on: connection) }
            }
        case .failure(let error):
            counters.handshakeFailures += 1
            failClientConnection(connection, reason: "handshake: \(error)")
        }
    }

    /// Opens a client WebSocket connection; `endpoint` hears `didOpen`, messages and `didClose`, or
    /// `connectionFailed`. Callable from any thread.
    public func connect(address: String, port: Int, path: String, hostHeader: String,
                        endpoint: any WebSocketEndpoint) {
        submit(.connect(ClientConnection(address: address, port: port, path: path, hostHeader: hostHeader,
                                         endpoint: endpoint)))
    }

    // MARK: Helpers

    private func control(_ operation: Int32, fd: Int32, events: UInt32) throws(SystemError) {
        var event = epoll_event()
        event.events = events
        event.data.u64 = UInt64(UInt32(bitPattern: fd))
        _ = try retryingEINTR("epoll_ctl") { epoll_ctl(epollFD, operation, fd, &event) }
    }

}
