import Transport
import WebSocket

/// `/echo`: sends every message back as it came. Used by the Autobahn conformance run and the benchmarks.
///
/// It has no message rate limit, unlike the game socket: the pipelined benchmark sends tens of thousands of
/// messages a second on each connection, and Autobahn's cases thousands in a burst. What keeps one flooding peer
/// from stalling the other connections of its thread is the event loop's turn budget, which every endpoint gets
/// (`EventLoop.turnBudget`), and the inflate ratio guard (`TransportConfiguration.maxInflateRatio`).
public final class EchoEndpoint: WebSocketEndpoint {
    public let maxMessageBytes: Int
    /// The general case of RFC 7692: a compression context per connection, kept or reset as negotiated.
    public let compression: WebSocketCompression

    public init(maxMessageBytes: Int, compression: Bool = true) {
        self.maxMessageBytes = maxMessageBytes
        self.compression = compression ? .perConnection : .off
    }

    public func didOpen(_ connection: Connection, request: HTTPRequestHead) {}

    public func didReceiveText(_ text: UnsafeRawBufferPointer, on connection: Connection) {
        connection.sendText(text)
    }

    public func didReceiveBinary(_ data: UnsafeRawBufferPointer, on connection: Connection) {
        connection.sendBinary(data)
    }

    public func didClose(_ connection: Connection, code: CloseCode?) {}
}
