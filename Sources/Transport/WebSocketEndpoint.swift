import WebSocket

/// The application side of a WebSocket path such as `/echo` or `/ws`.
///
/// All methods are called on the event-loop thread that owns the connection, in the order things happened on
/// the wire. They must not block: hand work to actors and send results back through `Connection.handle`.
///
/// A class: every connection keeps its endpoint, and a class reference with its witness table takes 16 bytes of
/// the connection where a value of any type takes 40 (and a struct larger than three words one heap box each).
public protocol WebSocketEndpoint: AnyObject, Sendable {
    /// Largest message accepted; a bigger one closes the connection with 1009 (RFC 6455 §7.4.1). For a
    /// compressed message this is its inflated size.
    var maxMessageBytes: Int { get }

    /// Whether and how permessage-deflate is negotiated on this path (RFC 7692); `.off` unless said.
    var compression: WebSocketCompression { get }

    /// The opening handshake succeeded; the 101 response is queued.
    func didOpen(_ connection: Connection, request: HTTPRequestHead)

    /// A complete text message, already validated as UTF-8. The bytes are only valid during the call.
    func didReceiveText(_ text: UnsafeRawBufferPointer, on connection: Connection)

    /// A complete binary message. The bytes are only valid during the call.
    func didReceiveBinary(_ data: UnsafeRawBufferPointer, on connection: Connection)

    /// The connection is gone. `code` is the close code the peer sent (or we sent, when we failed it);
    /// nil when the TCP connection ended without a close frame (RFC 6455 §7.1.5: 1006, never sent on the wire).
    func didClose(_ connection: Connection, code: CloseCode?)

    /// A client connection (see `EventLoop.connect`) could not be opened: refused, timed out or a bad 101.
    func connectionFailed(reason: String)
}

extension WebSocketEndpoint {
    public func connectionFailed(reason: String) {}

    public var compression: WebSocketCompression { .off }
}

/// Routes requests to endpoints and answers plain HTTP. Called on event-loop threads; must not block.
public protocol HTTPApplication: Sendable {
    /// The endpoint serving WebSocket upgrades on `path`, or nil (the client gets 404).
    func webSocketEndpoint(for path: String) -> (any WebSocketEndpoint)?

    /// Answers a request that is not a WebSocket upgrade.
    func respond(to request: HTTPRequestHead, from peer: SocketAddress) -> HTTPReply

    /// A refusal for a WebSocket upgrade (e.g. 403 for a foreign `Origin`), or nil to let it proceed.
    func refuseUpgrade(_ request: HTTPRequestHead, from peer: SocketAddress) -> HTTPResponse?
}

extension HTTPApplication {
    public func refuseUpgrade(_ request: HTTPRequestHead, from peer: SocketAddress) -> HTTPResponse? { nil }
}
