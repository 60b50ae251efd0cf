import WebSocket

/// How a room reaches one connected client, without knowing about sockets.
///
/// The server implements it over a connection handle; tests implement it in memory. `send` must be callable
/// from any thread and must not block: it queues the bytes.
public protocol ClientLink: Sendable {
    /// Unique for the life of the process; identifies the connection a message came from.
    var id: UInt64 { get }
    /// Queues an already encoded WebSocket frame. The same array is handed to every recipient of a broadcast.
    func send(frame: [UInt8])
    /// Closes the connection with a WebSocket close code.
    func close(code: CloseCode, reason: String)
}
