/// What the I/O layer must do next, as decided by `WebSocketSession`; named after the action so the protocol
/// logic is tested without sockets and the I/O layer only executes.
///
/// Buffer pointers are valid only during the callback that receives the action: copy what must outlive it.
public enum WebSocketAction {
    /// A complete text message, validated as UTF-8 (RFC 6455 §5.6, §8.1).
    case deliverText(UnsafeRawBufferPointer)
    /// A complete binary message.
    case deliverBinary(UnsafeRawBufferPointer)
    /// A ready-to-write pong frame carrying the ping's payload (RFC 6455 §5.5.2), masked in the client role.
    case sendPong([UInt8])
    /// A pong arrived (RFC 6455 §5.5.3): the peer is alive. Unsolicited pongs are legal and also land here.
    case pongReceived
    /// The peer's close frame (RFC 6455 §5.5.1): its validated code, or nil when it sent none (reported locally
    /// as 1005 by RFC 6455 §7.1.5), and its reason.
    case closeReceived(code: CloseCode?, reason: String)
    /// A ready-to-write close frame and the code it carries: our echo of the peer's close (RFC 6455 §5.5.1), or
    /// the close that fails the connection after a protocol violation (§7.1.7).
    case sendClose([UInt8], code: CloseCode)
    /// Close the TCP connection once what is queued has been written.
    ///
    /// RFC 6455 §7.1.1: the server closes the TCP connection first, so a server gets this right after its
    /// close echo; a client echoing a server's close gets no `.closeConnection` and should wait for the server's
    /// FIN (with a timeout). Both roles get it when the peer answers a close we initiated, and after a failure.
    case closeConnection
}
