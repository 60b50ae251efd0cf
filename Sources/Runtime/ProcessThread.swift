#if canImport(Glibc)
import Glibc
#endif

/// Starting a plain POSIX thread: the one way the event loops and the executors get threads of their own.
///
/// Not `Foundation.Thread` and not Swift's cooperative pool: a loop or an executor owns its thread for the life of
/// the process and blocks in `epoll_wait` or a condition wait, which the pool must never do.
public enum ProcessThread {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Starts a thread that runs `body` once.
    ///
    /// - Returns: The thread, for `pthread_join`.
    @discardableResult
    public static func start(_ body: @escaping () -> Void) -> pthread_t {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { argument in
            Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue().run()
            return nil
        }, box)
        // Only resource exhaustion (EAGAIN) or a bad attribute (a bug) fail here, both at start-up.
        precondition(result == 0, "pthread_create failed: \(String(cString: strerror(result)))")
        return thread
    }
}
