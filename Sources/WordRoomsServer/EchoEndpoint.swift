import Transport
import WebSocket

/// `/echo`: sends every message back as it came. Used by the Autobahn conformance run and the benchmarks.
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
