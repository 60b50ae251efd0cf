/// Which end of a WebSocket connection this endpoint is.
///
/// RFC 6455 §5.1: a client MUST mask every frame it sends, a server MUST NOT mask any; each side fails the
/// connection when the other breaks that rule, so the role decides both how we encode and what we accept.
public enum WebSocketRole: Sendable, Hashable {
    case server
    case client
}
