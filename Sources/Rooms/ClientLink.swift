/// How a room reaches one connected client, without knowing about sockets or framing.
///
/// The server implements it over a connection handle, framing each message for WebSocket; tests implement it in
/// memory. Both methods must be callable from any thread and must not block: they queue.
public protocol ClientLink: Sendable {
    /// Unique for the life of the process; identifies the connection a message came from.
    var id: UInt64 { get }
    /// Queues a message. A broadcast hands the same object to every recipient.
    func send(_ message: ServerMessage)
    /// Closes the connection, saying why.
    func close(_ reason: CloseReason)
}
