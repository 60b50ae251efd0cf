import WebSocket
import Runtime

/// Work handed to an event loop from another thread through its mailbox.
enum LoopTask: Sendable {
    case send(fd: Int32, generation: UInt32, frame: [UInt8])
    case broadcast(frame: [UInt8], targets: [(Int32, UInt32)])
    case sendStream(fd: Int32, generation: UInt32, frame: StreamFrame)
    case close(fd: Int32, generation: UInt32, code: CloseCode, reason: String)
    /// `Connection.fail`: a close that reads nothing more from the peer.
    case fail(fd: Int32, generation: UInt32, code: CloseCode, reason: String)
    case httpResponse(fd: Int32, generation: UInt32, response: HTTPResponse, keepAlive: Bool, headOnly: Bool)
    case run(@Sendable (EventLoop) -> Void)
    /// Work of the loop's `ThreadExecutor` (a room's job) queued from another thread.
    case work(ThreadExecutor.Work)
    case connect(ClientConnection)
    case shutdown
}

/// Where a client connection goes and who handles it.
struct ClientConnection: Sendable {
    let address: String
    let port: Int
    let path: String
    let hostHeader: String
    let endpoint: any WebSocketEndpoint
    let compression: ClientCompression?
    /// The local address to connect from (numeric, port chosen at connect), or nil for the kernel's choice.
    let localAddress: String?
}
