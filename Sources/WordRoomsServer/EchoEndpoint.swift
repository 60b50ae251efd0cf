import Transport
import WebSocket

/// `/echo`: sends every message back as it came. Used by the Autobahn conformance run and the benchmarks.
public struct EchoEndpoint: WebSocketEndpoint {
    public let maxMessageBytes: Int

    public init(maxMessageBytes: Int) {
        self.maxMessageBytes = maxMessageBytes
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
