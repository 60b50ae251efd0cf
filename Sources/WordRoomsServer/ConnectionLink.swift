import Rooms
import Transport
import WebSocket

/// A room's way to a client: the connection's thread-safe handle.
struct ConnectionLink: ClientLink {
    let handle: ConnectionHandle

    var id: UInt64 { handle.id }

    func send(frame: [UInt8]) {
        handle.send(frame: frame)
    }

    func close(code: CloseCode, reason: String) {
        handle.close(code: code, reason: reason)
    }
}
