import Foundation
import Rooms
import Testing
import Transport
@testable import WordRoomsServer

/// Starts the real server on an ephemeral loopback port for one test and stops it afterwards.
///
/// `behindProxy`: the tests themselves (127.0.0.1) are a trusted proxy, so a client may stand for another address
/// by naming it in `X-Forwarded-For`.
///
/// The test body runs on its own thread: it blocks on sockets, and must not hold one of the few threads of Swift's
/// cooperative pool that the server's room actors need to answer it.
func withServer(
    maxMessageBytes: Int = 64 * 1024,
    host: String = "127.0.0.1",
    rooms: RoomConfiguration = RoomConfiguration(),
    limits: GameLimits = GameLimits(),
    clock: @escaping @Sendable () -> Double = RoomRegistry.wallClock,
    behindProxy: Bool = false,
    options adjust: (inout ServerOptions) -> Void = { _ in },
    configure: (inout TransportConfiguration) -> Void = { _ in },
    _ body: @escaping @Sendable (WordRoomsServer) throws -> Void
) async throws {
    _ = OpenFileLimit.raiseToHardLimit()
    var options = loopbackServerOptions(host: host)
    options.maxMessageBytes = maxMessageBytes
    // Many tests talk to `/echo`, off by default (`--bench-echo`); a test of its default turns it off again.
    options.benchEcho = true
    if behindProxy { options.trustedProxies = ["127.0.0.1"] }
    adjust(&options)
    // Test clients answer pings only when the test reads them. On a starved machine (a full parallel run next to
    // other builds) a test can go unread past ping + pong timeout (50 s) and be dropped by design, so the servers
    // of these tests ping after ten minutes of silence unless a test sets its own heartbeat.
    // The same for the rooms' application heartbeat (`silenceSeconds`): a test client that pinged once and then
    // went unread for 15 s on a starved machine would be closed 4002 and its room could be gone by the next
    // expectation. A test of the heartbeat sets its own.
    var rooms = rooms
    if rooms.silenceSeconds == RoomConfiguration().silenceSeconds { rooms.silenceSeconds = 600 }
    let server = try WordRoomsServer(options: options, rooms: rooms, limits: limits, seed: nil, clock: clock,
                                     transport: { configuration in
                                         configuration.pingIntervalSeconds = 600
                                         configure(&configuration)
                                     })
    // Shutting down blocks while clients finish their close handshakes: not on a cooperative-pool thread either.
    try await onThread {
        defer { server.shutdown() }
        try body(server)
    }
}

/// Options for a server of one test: an ephemeral port on `host`, a few threads, otherwise the defaults.
func loopbackServerOptions(host: String = "127.0.0.1", threads: Int = 2) -> ServerOptions {
    var options = ServerOptions()
    options.host = host
    options.port = 0
    options.threads = threads
    return options
}

/// A transport of one test: an ephemeral loopback port, `threads` event loops, otherwise the defaults.
func loopbackTransport(threads: Int) -> TransportConfiguration {
    var configuration = TransportConfiguration()
    configuration.host = "127.0.0.1"
    configuration.port = 0
    configuration.threads = threads
    return configuration
}

/// Runs blocking code on a new thread and waits for it without blocking a cooperative-pool thread.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
}

/// Runs async code (e.g. asking a room actor) from a test thread, waiting for the answer.
func waitFor<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let semaphore = DispatchSemaphore(value: 0)
    let box = ResultBox<T>()
    Task {
        box.value = await body()
        semaphore.signal()
    }
    semaphore.wait()
    return box.value!
}

private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}

/// Runs `body(0..<count)` on `count` new threads at once and waits for all of them.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let done = DispatchSemaphore(value: 0)
    for index in 0..<count {
        let thread = Thread {
            body(index)
            done.signal()
        }
        thread.stackSize = 512 << 10
        thread.start()
    }
    for _ in 0..<count { done.wait() }
}

/// Hands a non-Sendable test object to another test thread that uses it in turn with this one.
struct Unchecked<T>: @unchecked Sendable {
    let value: T
}

extension GameLimits {
    /// The defaults but for the messages a connection may send: `perSecond` with bursts of `burst`, and
    /// `strikesBeforeClose` refusals before it is closed (the default when nil).
    static func messages(perSecond: Double, burst: Double, strikesBeforeClose: Int? = nil) -> GameLimits {
        var limits = GameLimits()
        limits.messagesPerSecond = perSecond
        limits.messageBurst = burst
        if let strikesBeforeClose { limits.strikesBeforeClose = strikesBeforeClose }
        return limits
    }
}
