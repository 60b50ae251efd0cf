#if canImport(Glibc)
import Glibc
#endif
import Runtime
import Synchronization

/// Event loops, one thread each: what a server listens with, and what a client (the bots) connects with.
public final class EventLoopGroup: Sendable {
    public let loops: [EventLoop]
    private let threads = Mutex<[pthread_t]>([])
    private let nextLoop = Atomic<Int>(0)

    init(loops: [EventLoop]) {
        self.loops = loops
    }

    /// Loops without listening sockets, for client connections.
    public convenience init(clientThreads: Int, configuration: TransportConfiguration = TransportConfiguration())
        throws(SystemError)
    {
        signal(SIGPIPE, SIG_IGN)
        var loops: [EventLoop] = []
        for index in 0..<max(1, clientThreads) {
            loops.append(try EventLoop(index: index, listenFD: -1, application: NoApplication(),
                                       configuration: configuration))
        }
        self.init(loops: loops)
    }

    /// Starts one thread per loop.
    public func start() {
        let started = loops.map { loop in ProcessThread.start { loop.run() } }
        threads.withLock { $0 = started }
    }

    /// The next loop in turn, to spread connections.
    public func next() -> EventLoop {
        loops[nextLoop.wrappingAdd(1, ordering: .relaxed).oldValue % loops.count]
    }

    /// Closes every connection (WebSockets with 1001) and waits for the loops to finish, within the configured
    /// shutdown timeout.
    public func shutdown() {
        for loop in loops {
            loop.submit(.shutdown)
        }
        let running = threads.withLock { threads in
            let all = threads
            threads.removeAll()
            return all
        }
        for thread in running {
            pthread_join(thread, nil)
        }
    }

    /// Sums the counters of every loop (each read on its own thread) and hands the total to `completion`, on
    /// the thread of the last loop to answer.
    public func withCounters(_ completion: @escaping @Sendable (TransportCounters) -> Void) {
        let gathered = Mutex<(total: TransportCounters, remaining: Int)>((TransportCounters(), loops.count))
        for loop in loops {
            loop.execute { loop in
                var counters = loop.counters
                counters.openConnections = loop.connectionCount
                let finished: TransportCounters? = gathered.withLock { state in
                    state.total.add(counters)
                    state.remaining -= 1
                    return state.remaining == 0 ? state.total : nil
                }
                if let finished { completion(finished) }
            }
        }
    }

    /// Sums the counters of every loop (each read on its own thread).
    public func counters() async -> TransportCounters {
        var total = TransportCounters()
        for loop in loops {
            total.add(await loop.counterSnapshot())
        }
        return total
    }
}

/// The application of client-only loops: they accept nothing.
private struct NoApplication: HTTPApplication {
    func webSocketEndpoint(for path: String) -> (any WebSocketEndpoint)? { nil }
    func respond(to request: HTTPRequestHead, from peer: SocketAddress) -> HTTPReply { .now(.text("", status: 404)) }
}

import WebSocket
