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
    /// Queues a message. A broadcast hands the same object to every recipient.
    func send(_ message: ServerMessage)
    /// Closes the connection, saying why.
    func close(_ reason: CloseReason)
    /// Queues a message that is not part of the room's broadcast stream now (a patch replayed to a resuming
    /// member): the transport sends its plain form.
    func sendOutsideStream(_ message: ServerMessage)
    /// Whether this client reads the room's broadcasts as a `BroadcastStream` (it negotiated compression).
    var followsBroadcastStream: Bool { get }
    /// The key of the client's address (its IPv4 address or IPv6 network, see `--ipv6-prefix`) that per-address
    /// limits of rooms count: members per address in a room, rooms created per address, a removal's ban. nil
    /// when the client is not limited by address (loopback, links in memory).
    var address: String? { get }
}

extension ClientLink {
    public func sendOutsideStream(_ message: ServerMessage) {
        send(message)
    }

    public var followsBroadcastStream: Bool { false }

    public var address: String? { nil }
}
