import Rooms
import WebSocket

/// The one place where the reasons rooms and sessions close connections become WebSocket close codes and texts.
extension CloseReason {
    /// RFC 6455 §7.4.2: codes 4000-4999 are for private use; the web client reads 4000 and 4001. 4001 means "out
    /// of the room, go back to the lobby" whoever did it: the error message sent before it says who and why.
    var closeCode: CloseCode {
        switch self {
        case .replaced: .other(4000)
        case .removedByHost, .removedByOperator, .roomClosed: .other(4001)
        case .tooManyMessages, .tooManyConnections: .policyViolation
        case .silent: .other(4002)
        }
    }

    /// The close frame's reason text.
    var closeText: String {
        switch self {
        case .replaced: "replaced by a newer connection"
        case .removedByHost: "removed by the host"
        case .removedByOperator: "removed by the server's operator"
        case .roomClosed: "room closed by the server's operator"
        case .tooManyMessages: "too many messages"
        case .tooManyConnections: "too many connections from your address"
        case .silent: "no heartbeat: marked away"
        }
    }
}
