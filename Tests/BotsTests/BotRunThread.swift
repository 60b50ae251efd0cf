@testable import Bots
import Foundation
import Transport
import WordRoomsServer

/// Parses `arguments` as the command line would, quiet and on two loop threads, and runs `body` with the options on
/// a thread of its own: a run's driver blocks, and must not hold a thread of the cooperative pool that the
/// in-process server's room actors need.
func runOnOwnThread<Report: Sendable>(
    _ arguments: [String],
    _ body: @escaping @Sendable (BotOptions) throws(LoadTest.StartError) -> Report
) async throws -> Report {
    guard case .run(var options) = try BotOptions.parse(arguments) else {
        throw LoadTest.StartError(description: "no options")
    }
    options.quiet = true
    options.threads = 2
    let parsed = options
    return try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { () throws(LoadTest.StartError) in
                try body(parsed)
            }.mapError { $0 as any Error })
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
}

/// Options for the server a test starts in this process: loopback, on `port` (0: an ephemeral one), two threads.
func inProcessServerOptions(data: String? = nil, port: Int = 0) -> ServerOptions {
    var options = ServerOptions()
    options.host = "127.0.0.1"
    options.port = port
    options.threads = 2
    options.dataDirectory = data
    return options
}

/// Starts the server in this process on an ephemeral loopback port (`/echo` on), runs the bots against it on a
/// thread of their own (the driver blocks; the server's actors need the cooperative pool), stops it.
func runAgainstServer(_ arguments: [String], limits: GameLimits = GameLimits(), maxMessageBytes: Int = 64 * 1024,
                      transport: (inout TransportConfiguration) -> Void = { _ in }) async throws -> BotReport {
    var options = inProcessServerOptions()
    options.maxMessageBytes = maxMessageBytes
    options.benchEcho = true
    let server = try WordRoomsServer(options: options, limits: limits, transport: transport)
    defer { server.shutdown() }
    return try await runBots(arguments + ["--url", "ws://127.0.0.1:\(server.port)", "--grace", "3"])
}

/// Runs the bots (see `runOnOwnThread`).
func runBots(_ arguments: [String]) async throws -> BotReport {
    try await runOnOwnThread(arguments) { options throws(LoadTest.StartError) in
        try LoadTest.run(options, log: { _ in })
    }
}
