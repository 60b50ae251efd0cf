/// How an endpoint uses permessage-deflate (RFC 7692), decided when its connections open.
public enum WebSocketCompression: Sendable, Hashable {
    /// Not offered: the handshake declines every extension, and RSV1 fails the connection (RFC 6455 §5.2).
    case off
    /// The general case (the `/echo` endpoint): each connection compresses what it sends with its own context,
    /// kept or reset as negotiated, and inflates what it receives the same way.
    case perConnection
    /// Game sockets: what a connection sends itself goes out uncompressed; only the messages of a
    /// `BroadcastGroup`'s stream (a room's broadcasts, compressed once for the group) go out compressed, to the
    /// connections in step with that stream. The response asks for `client_no_context_takeover` (RFC 7692 §7.1.1.2), so what
    /// clients send is inflated by one inflater per event loop, reset after every message, and states
    /// `server_max_window_bits` (§7.1.2.1) as `windowBits`, the window the streams compress with.
    case sharedStreams(windowBits: Int)
}
