#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization
import Runtime

/// Listens on one port with one event-loop thread per configured thread, and shuts down gracefully.
public final class SocketServer: Sendable {
    public let configuration: TransportConfiguration
    /// The bound port (useful when the configuration asked for port 0).
    public let port: Int
    public let group: EventLoopGroup
    /// Connections accepted before the loops serve them (see `start(holdingConnections:)`).
    private let hold = Mutex<ConnectionHold?>(nil)

    /// Binds the port and prepares the loops; nothing is accepted until `start()`.
    ///
    /// - Parameters:
    ///   - executors: executors made with `ThreadExecutor(hostedNamed:)` for the loops to run, the first loop the
    ///     first (the server's rooms, made before the transport); loops without one get one of their own.
    public init(configuration: TransportConfiguration, application: any HTTPApplication,
                executors: [ThreadExecutor] = []) throws(SystemError) {
        self.configuration = configuration
        // SIGPIPE would kill the process when a peer vanishes mid-write; errors come back as EPIPE instead.
        signal(SIGPIPE, SIG_IGN)
        precondition(executors.count <= max(1, configuration.threads), "more executors than loops: some would never run")
        var loops: [EventLoop] = []
        var port = configuration.port
        // Descriptors kept back for listeners, eventfds, epoll, the data directory and the spare used on EMFILE.
        let derived = max(16, (OpenFileLimit.current ?? 1024) - 64)
        let budget = ConnectionBudget(limit: configuration.maxConnections > 0 ? configuration.maxConnections : derived)
        let pending = PendingConnections(capPerAddress: configuration.maxPendingPerAddress,
                                         ipv6PrefixBits: configuration.pendingIPv6PrefixBits,
                                         isExempt: configuration.isExemptFromPendingCap)
        for index in 0..<max(1, configuration.threads) {
            // The first listener claims the port for this process; the others share it (see `ListeningSocket`).
            let socket = try ListeningSocket(host: configuration.host, port: port, exclusive: index == 0)
            port = socket.port
            // Each loop owns its descriptor; the socket value closes the original at the end of the iteration.
            let fd = try Syscall.retryingEINTR("dup") { dup(socket.fd) }
            loops.append(try EventLoop(index: index, listenFD: fd, application: application,
                                       configuration: configuration, budget: budget, pending: pending,
                                       executor: index < executors.count ? executors[index] : nil))
        }
        self.group = EventLoopGroup(loops: loops)
        self.port = port
    }

    /// Closes the listening sockets: no new connections, existing ones carry on. Returns once every loop did.
    public func stopAccepting() {
        let done = DispatchSemaphore(value: 0)
        for loop in group.loops {
            loop.execute { loop in
                loop.closeListener()
                done.signal()
            }
        }
        for _ in group.loops { done.wait() }
    }

    /// Starts the event-loop threads, accepting connections on every loop.
    ///
    /// With `holdingConnections`, connections are accepted on a thread of their own instead and left unread
    /// until `serveHeldConnections()`: for work that must run on the loops before any client is served (restoring
    /// saved rooms), during which a reconnect storm would overflow the kernel's backlog (see `ConnectionHold`).
    public func start(holdingConnections: Bool = false) {
        group.start()
        if holdingConnections {
            do {
                let hold = try ConnectionHold(listeners: group.loops.map(\.listenFD))
                hold.start()
                self.hold.withLock { $0 = hold }
                return
            } catch {
                // No eventfd to stop it with: connections wait in the backlog instead.
                Log.error("cannot hold connections at start: \(error)")
            }
        }
        for loop in group.loops {
            loop.execute { $0.startListening() }
        }
    }

    /// Hands the connections held since `start(holdingConnections: true)` to their loops, which read them and
    /// accept from then on. Does nothing when none are held.
    ///
    /// - Returns: How many connections were held.
    @discardableResult
    public func serveHeldConnections() -> Int {
        guard let hold = hold.withLock({ $0.take() }) else { return 0 }
        let held = hold.release()
        for (loop, accepted) in zip(group.loops, held) {
            loop.execute { $0.adopt(accepted) }
        }
        return held.reduce(0) { $0 + $1.count }
    }

    /// Connections accepted and not served yet (see `start(holdingConnections:)`); 0 once they are served.
    public var heldConnections: Int {
        hold.withLock { $0?.count.load(ordering: .relaxed) ?? 0 }
    }

    /// Stops accepting, sends close 1001 to every WebSocket client and waits for the loops to finish, at most
    /// about `configuration.shutdownTimeoutSeconds`.
    public func shutdown() {
        // Held connections were never served: they are closed, as the loops close theirs.
        if let hold = hold.withLock({ $0.take() }) {
            for accepted in hold.release().joined() { Syscall.close(accepted.fd) }
        }
        group.shutdown()
    }

    /// The event loops, e.g. to collect statistics from each.
    public var eventLoops: [EventLoop] { group.loops }

    /// Sums the counters of every loop.
    public func counters() async -> TransportCounters {
        await group.counters()
    }
}

extension EventLoop {
    /// The loop's counters, read on its own thread.
    public func counterSnapshot() async -> TransportCounters {
        await withCheckedContinuation { continuation in
            execute { loop in
                var counters = loop.counters
                counters.openConnections = loop.connectionCount
                continuation.resume(returning: counters)
            }
        }
    }
}

/// The server-wide count of open connections against `limit`, shared by every loop.
final class ConnectionBudget: Sendable {
    let limit: Int
    private let open = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts one more connection; false (nothing counted) when the budget is spent.
    func acquire() -> Bool {
        while true {
            let current = open.load(ordering: .relaxed)
            guard current < limit else { return false }
            if open.compareExchange(expected: current, desired: current + 1, ordering: .relaxed).exchanged {
                return true
            }
        }
    }

    /// Counts one more connection whatever the limit: one taking the place of a connection being evicted.
    func acquireOverLimit() {
        open.add(1, ordering: .relaxed)
    }

    func release() {
        open.subtract(1, ordering: .relaxed)
    }
}

import Synchronization
