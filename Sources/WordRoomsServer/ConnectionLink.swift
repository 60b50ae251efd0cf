import Rooms
import Transport
import WebSocket

/// A room's way to a client: the connection's thread-safe handle. This is where a message for one client becomes
/// a WebSocket frame: each message is framed by the first link that sends it, and every other recipient queues
/// those bytes (a room's patches go to every member through its `ConnectionAudience` instead).
final class ConnectionLink: ClientLink {
    let handle: ConnectionHandle
    /// The connection negotiated compression for shared streams: its room's audience compresses for it.
    let takesSharedStreams: Bool
    let id: UInt64
    /// The client's address bucket, nil for loopback (which per-address limits exempt).
    let address: String?

    init(handle: ConnectionHandle, takesSharedStreams: Bool, address: String? = nil) {
        self.handle = handle
        self.address = address.flatMap { ConnectionsPerAddress.isLoopback($0) ? nil : $0 }
        self.takesSharedStreams = takesSharedStreams
        id = handle.id
    }

    func send(_ message: ServerMessage) {
        handle.send(frame: message.textFrame)
    }

    func close(_ reason: CloseReason) {
        handle.close(code: reason.closeCode, reason: reason.closeText)
    }
}

extension ServerMessage {
    /// The message as one unmasked WebSocket text frame (RFC 6455 §5.6), framed on first use and then shared.
    var textFrame: [UInt8] {
        wireForm { json in FrameEncoder.encode(.text, payload: json) }
    }
}

extension Connection {
    /// Queues a room or session message on this connection (its loop's thread).
    func send(_ message: ServerMessage) {
        send(frame: message.textFrame)
    }

    /// Closes the connection for `reason`.
    func close(_ reason: CloseReason) {
        close(code: reason.closeCode, reason: reason.closeText)
    }

    /// Fails the connection for `reason`, something the client did: nothing more it sent is read.
    func fail(_ reason: CloseReason) {
        fail(code: reason.closeCode, reason: reason.closeText)
    }
}
