import Testing
import Transport
@testable import WordRoomsServer

/// Starts the real server on an ephemeral loopback port for one test and stops it afterwards.
func withServer(
    maxMessageBytes: Int = 64 * 1024,
    host: String = "127.0.0.1",
    configure: (inout TransportConfiguration) -> Void = { _ in },
    _ body: (WordRoomsServer) throws -> Void
) throws {
    var options = ServerOptions()
    options.host = host
    options.port = 0
    options.threads = 2
    options.maxMessageBytes = maxMessageBytes
    let server = try WordRoomsServer(options: options, transport: configure)
    defer { server.shutdown() }
    try body(server)
}
