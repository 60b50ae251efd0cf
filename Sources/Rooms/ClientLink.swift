/// How a room reaches one connected client, without knowing about sockets or framing.
///
/// The server implements it over a connection handle, framing each message for WebSocket; tests implement it in
/// memory. Both methods must be callable from any thread and must not block: they queue.
///
/// Class-bound: a broadcast copies every member's link, and a reference is copied with one retain where a
/// value existential goes through its type's value witnesses.
public protocol ClientLink: AnyObject, Sendable {
    /// Unique for the life of the process; identifies the connection a message came from.
    var id: UInt64 { get }
    /// Queues a message for this client alone (a room's patches go to its `RoomAudience`).
    func send(_ message: ServerMessage)
    /// Closes the connection, saying why.
    func close(_ reason: CloseReason)
    /// The key of the client's address (its IPv4 address or IPv6 network, see `--ipv6-prefix`) that per-address
    /// limits of rooms count: members per address in a room, rooms created per address, a removal's ban. nil
    /// when the client is not limited by address (loopback, links in memory).
    var address: String? { get }
}

extension ClientLink {
    public var address: String? { nil }
}
