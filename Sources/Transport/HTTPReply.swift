import WebSocket

/// How an application answers a plain HTTP request: at once on the event loop, or later.
public enum HTTPReply: Sendable {
    case now(HTTPResponse)
    /// Starts the work and calls the given completion, from any thread, with the response. Preferred to `later`
    /// for answers gathered from other threads (room threads, event loops): nothing waits on the shared pool.
    case deferred(@Sendable (_ respond: @escaping @Sendable (HTTPResponse) -> Void) -> Void)
    /// Computes the response in async code (on Swift's cooperative pool).
    case later(@Sendable () async -> HTTPResponse)
}
