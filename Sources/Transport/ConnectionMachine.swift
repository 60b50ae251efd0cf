import WebSocket

/// The life of one connection, as a value with no I/O: HTTP request heads, the upgrade, the open WebSocket, the
/// close handshake and the end; the deadlines of each phase, pings, backpressure and slow consumers.
///
/// The event loop feeds it what happened (bytes read, a response chosen, a frame the session produced, the time)
/// and executes the `Action`s it returns, in order. Nothing here calls back into the loop or the application, so
/// every decision is tested without sockets, and an endpoint reacting to an action (`didClose`) never finds the
/// machine half-way through a change.
///
/// Times are the loop's coarse monotonic milliseconds (`MonotonicClock.coarseMilliseconds`).
struct ConnectionMachine {
    enum Phase: UInt8 {
        /// Reading request heads; keep-alive loops back here.
        case requestHead
        /// An asynchronous HTTP reply is pending; further pipelined requests wait.
        case awaitingResponse
        /// A client connection waiting for `connect` to finish.
        case connecting
        /// A client connection waiting for the server's 101.
        case clientHandshake
        /// The WebSocket is open: messages flow both ways.
        case open
        /// Our close frame or final response is queued; the socket closes once it is flushed and the peer is
        /// done, or the close deadline passes.
        case closing
        /// The socket is closed.
        case closed
    }

    /// What the I/O layer does next, named after the action.
    enum Action: Equatable {
        /// Queue these bytes (a response, a frame) after what is queued.
        case write([UInt8])
        /// Queue our close frame, encoded by the WebSocket session (masked in the client role, at most once).
        case sendClose(CloseCode, reason: String)
        /// Queue a ping (masked in the client role).
        case sendPing
        /// A consumer too slow: drop what it has not started to receive, keeping the chunk being written whole.
        case dropUnsentOutput
        /// No more input will be parsed: the WebSocket session and any partial request head can go.
        case stopParsing
        /// Tell the endpoint the connection is gone (`didClose`), with this code.
        case notifyClosed(CloseCode?)
        /// Tell a client endpoint its connection never opened (`connectionFailed`), with this reason.
        case reportFailure(String)
        /// Write what is queued once the current event is handled.
        case flush
        /// Send FIN: everything is written and no close frame of the peer is awaited.
        case shutdownWrite
        /// Close the socket and forget the connection.
        case destroy
        /// Count one event of this kind.
        case count(WritableKeyPath<TransportCounters, Int>)
    }

    /// The timeouts of every phase, in milliseconds.
    struct Timeouts {
        /// For a complete request head (also on an idle keep-alive connection), and for a client's handshake.
        var request: UInt64
        /// A WebSocket peer silent this long gets a ping.
        var pingInterval: UInt64
        /// A pinged peer silent this much longer is dropped.
        var pong: UInt64
        /// For the peer to finish once we closed (RFC 6455 §7.1.1).
        var close: UInt64

        init(request: UInt64, pingInterval: UInt64, pong: UInt64, close: UInt64) {
            self.request = request
            self.pingInterval = pingInterval
            self.pong = pong
            self.close = close
        }

        init(_ configuration: TransportConfiguration) {
            self.init(request: UInt64(configuration.requestTimeoutSeconds * 1000),
                      pingInterval: UInt64(configuration.pingIntervalSeconds * 1000),
                      pong: UInt64(configuration.pongTimeoutSeconds * 1000),
                      close: UInt64(configuration.closeTimeoutSeconds * 1000))
        }
    }

    /// Replies queued beyond this stop reading from the connection; at or below `resumeReadingBytes` it resumes.
    static let pauseReadingBytes = 1 << 20
    static let resumeReadingBytes = 256 << 10

    private(set) var phase: Phase
    /// When the current phase times out: request head, handshake, pong, or close.
    private(set) var deadline: UInt64
    private(set) var lastRead: UInt64
    private(set) var pingOutstanding = false
    /// Reading is paused until queued output drains (backpressure).
    private(set) var readPaused = false
    /// Our close frame is queued and the peer's has not arrived: FIN waits for it (RFC 6455 §7.1.2).
    private(set) var awaitingPeerClose = false
    /// The endpoint heard `didOpen` and not yet `didClose`.
    private(set) var endpointOpen = false
    /// The close code the endpoint hears: the peer's, or ours when we closed first or failed the connection.
    private(set) var closeCode: CloseCode?
    /// Queued output beyond this closes the connection as too slow.
    private(set) var outboundLimit: Int
    /// Opened by this process (`init(connectingAt:)`), not accepted.
    let isClient: Bool
    /// The application asked to close (`Connection.close` or `fail`, on the loop's thread) and the loop has not
    /// run the close yet: the loop delivers nothing more meanwhile. Declared last, in the byte after `isClient`
    /// (earlier, it would pad the machine and the connection past its 256-byte malloc chunk).
    private(set) var closePending = false

    /// A connection accepted by a server, expecting a request head.
    init(acceptedAt now: UInt64, timeouts: Timeouts, outboundLimit: Int) {
        self.init(.requestHead, now: now, timeouts: timeouts, outboundLimit: outboundLimit)
    }

    /// A client connection whose `connect` is under way; the handshake must complete within the request timeout.
    init(connectingAt now: UInt64, timeouts: Timeouts, outboundLimit: Int) {
        self.init(.connecting, now: now, timeouts: timeouts, outboundLimit: outboundLimit)
    }

    private init(_ phase: Phase, now: UInt64, timeouts: Timeouts, outboundLimit: Int) {
        self.phase = phase
        deadline = now + timeouts.request
        lastRead = now
        self.outboundLimit = outboundLimit
        isClient = phase == .connecting
    }

    /// Whether messages can still be sent (the WebSocket is open and not closing).
    var isOpen: Bool { phase == .open }

    /// Whether work handed over from other threads still applies: the endpoint has not heard `didClose`.
    var isReachable: Bool {
        endpointOpen || phase == .requestHead || phase == .connecting || phase == .clientHandshake
    }

    /// Whether bytes read now are frames to parse: open, or closing while the peer's close frame is awaited.
    var parsesFrames: Bool { phase == .open || (phase == .closing && awaitingPeerClose) }

    // MARK: Reading

    /// Bytes arrived: the peer is alive.
    mutating func read(at now: UInt64) {
        lastRead = now
        pingOutstanding = false
    }

    /// The peer sent FIN.
    mutating func peerClosed() -> [Action] {
        if phase == .connecting || phase == .clientHandshake {
            return fail("the server closed the connection during the opening handshake")
        }
        // A peer that half-closes after our close frame or final response is done; otherwise it left without a
        // close frame (1006 for the application).
        return hangUp()
    }

    /// The socket failed (a reset, an error on read or write): nothing more can be sent.
    mutating func hangUp() -> [Action] {
        switch phase {
        case .closed:
            return []
        case .connecting, .clientHandshake:
            return fail("the connection failed during the opening handshake")
        default:
            var actions: [Action] = []
            notify(&actions)
            phase = .closed
            actions.append(.destroy)
            return actions
        }
    }

    // MARK: HTTP

    /// A response to a request head: queued, then the next head is awaited (`keepAlive`), or the connection
    /// closes after it.
    mutating func respond(_ bytes: [UInt8], keepAlive: Bool, now: UInt64, timeouts: Timeouts) -> [Action] {
        guard keepAlive else { return finish(with: bytes, now: now, timeouts: timeouts) }
        phase = .requestHead
        deadline = now + timeouts.request
        return [.write(bytes), .flush]
    }

    /// A final response (an error, a refusal): queued, then the connection closes.
    mutating func finish(with bytes: [UInt8], now: UInt64, timeouts: Timeouts) -> [Action] {
        var actions: [Action] = [.write(bytes)]
        beginClosing(now: now, timeouts: timeouts, &actions)
        return actions
    }

    /// The application answers the request later; pipelined requests wait for it.
    mutating func awaitResponse() {
        precondition(phase == .requestHead, "a response is awaited only for a request head")
        phase = .awaitingResponse
    }

    /// A deferred response arrived. False when it no longer applies (the connection started closing meanwhile).
    mutating func responseArrived() -> Bool {
        guard phase == .awaitingResponse else { return false }
        phase = .requestHead
        return true
    }

    /// The upgrade succeeded: the 101 response is queued and the WebSocket opens. The endpoint hears `didOpen`
    /// next; its replies may take `extraOutbound` bytes on top of the normal allowance.
    mutating func upgrade(response: [UInt8], extraOutbound: Int) -> [Action] {
        precondition(phase == .requestHead, "only a request head upgrades")
        phase = .open
        endpointOpen = true
        outboundLimit += extraOutbound
        return [.count(\.upgrades), .write(response), .flush]
    }

    // MARK: Client handshake

    /// A client's non-blocking `connect` finished with `pendingError` (SO_ERROR; 0 when connected): the
    /// handshake request, already queued, goes out.
    mutating func connected(pendingError: Int32, reason: @autoclosure () -> String) -> [Action] {
        precondition(phase == .connecting, "connect finishes once")
        guard pendingError == 0 else {
            return [.count(\.handshakeFailures)] + fail(reason())
        }
        phase = .clientHandshake
        return [.flush]
    }

    /// The server's 101 was valid: the WebSocket is open and the endpoint hears `didOpen` next. As on an accepted
    /// upgrade, what the endpoint sends may take `extraOutbound` bytes on top of the normal allowance (a reply as
    /// big as the largest message it accepts, queued at once, is not a slow consumer).
    mutating func clientHandshakeCompleted(extraOutbound: Int) -> [Action] {
        precondition(phase == .clientHandshake, "the handshake completes once")
        phase = .open
        endpointOpen = true
        outboundLimit += extraOutbound
        return [.count(\.upgrades)]
    }

    /// The server's answer was not a valid 101.
    mutating func clientHandshakeFailed(_ reason: String) -> [Action] {
        [.count(\.handshakeFailures)] + fail(reason)
    }

    // MARK: WebSocket

    /// The peer's close frame arrived (`WebSocketAction.closeReceived`).
    mutating func closeReceived(code: CloseCode?) {
        if closeCode == nil { closeCode = code }
        awaitingPeerClose = false
    }

    /// The session queued a close frame of its own (`WebSocketAction.sendClose`): the echo of the peer's, or the
    /// failure of the connection. No application data may follow a close frame (RFC 6455 §5.5.1).
    mutating func sessionSentClose(code: CloseCode, now: UInt64, timeouts: Timeouts) {
        if closeCode == nil { closeCode = code }
        enterClosing(now: now, timeouts: timeouts)
    }

    /// The session is done with the TCP connection (`WebSocketAction.closeConnection`).
    mutating func sessionEnded(now: UInt64, timeouts: Timeouts) -> [Action] {
        awaitingPeerClose = false
        var actions: [Action] = []
        beginClosing(now: now, timeouts: timeouts, &actions)
        return actions
    }

    /// The application asked for a close that runs once the current event is handled (`close` or `fail` then):
    /// from now on no message of this connection is delivered, so that the close takes effect at once.
    mutating func closeRequested() {
        if phase == .open { closePending = true }
    }

    /// The application fails the connection for what the peer did (RFC 6455 §7.1.7: a flood, say): our close frame
    /// goes out and nothing more the peer sends is parsed, its close frame included, as for a slow consumer; the
    /// TCP connection closes once the frame is written. Otherwise as `close`.
    mutating func fail(code: CloseCode, reason: String, now: UInt64, timeouts: Timeouts) -> [Action] {
        guard phase == .open else { return close(code: code, reason: reason, now: now, timeouts: timeouts) }
        closePending = false
        if closeCode == nil { closeCode = code }
        var actions: [Action] = [.sendClose(code, reason: reason)]
        awaitingPeerClose = false
        beginClosing(now: now, timeouts: timeouts, &actions)
        return actions
    }

    /// The application closes: on an open WebSocket our close frame goes out (RFC 6455 §7.1.2) and the peer's is
    /// awaited, up to the close timeout; otherwise what is queued is flushed and the connection closes.
    mutating func close(code: CloseCode, reason: String, now: UInt64, timeouts: Timeouts) -> [Action] {
        closePending = false
        var actions: [Action] = []
        switch phase {
        case .open:
            if closeCode == nil { closeCode = code }
            enterClosing(now: now, timeouts: timeouts)
            awaitingPeerClose = true
            actions.append(.sendClose(code, reason: reason))
            notify(&actions)
            actions.append(.flush)
        case .closing, .closed:
            break
        case .connecting, .clientHandshake:
            actions = fail("closed before the opening handshake completed")
        case .requestHead, .awaitingResponse:
            beginClosing(now: now, timeouts: timeouts, &actions)
        }
        return actions
    }

    // MARK: Output

    /// Whether `queued` bytes waiting to be written, after a flush, mean the peer fell too far behind.
    func isTooSlow(queued: Int) -> Bool {
        queued > outboundLimit && phase != .closing && phase != .closed
    }

    /// The peer fell too far behind (`isTooSlow`): drop what it has not started to receive and close with a
    /// frame that says why (1008).
    mutating func slowConsumer(now: UInt64, timeouts: Timeouts) -> [Action] {
        var actions: [Action] = [.count(\.slowConsumers), .dropUnsentOutput]
        closeCode = .policyViolation
        if phase == .open {
            actions.append(.sendClose(.policyViolation, reason: "too slow: messages were dropped"))
        }
        // Its close frame is not awaited: what it sends is not read any more.
        awaitingPeerClose = false
        beginClosing(now: now, timeouts: timeouts, &actions)
        return actions
    }

    /// A flush left `queued` bytes waiting (`drained` when none).
    ///
    /// Backpressure: a peer that sends faster than it reads our replies is not read from until its replies drain,
    /// so its queue stays bounded without dropping it (TCP slows the sender down).
    ///
    /// - Returns: `.shutdownWrite` once a closing connection has written everything and awaits no close frame,
    ///   nil otherwise.
    mutating func flushed(queued: Int, drained: Bool) -> Action? {
        if readPaused {
            if queued <= Self.resumeReadingBytes { readPaused = false }
        } else if queued >= Self.pauseReadingBytes {
            readPaused = true
        }
        // Everything is out: send FIN. The peer's FIN (a read of 0) or the deadline ends it.
        return drained && phase == .closing && !awaitingPeerClose ? .shutdownWrite : nil
    }

    // MARK: Timers and shutdown

    /// The response when a request head does not arrive in time.
    static let requestTimeoutResponse = HTTPResponse.text("The request head did not arrive in time.", status: 408)
        .serialized(keepAlive: false)

    /// Checks the phase's deadline at `now` (the loop calls it about once a second).
    ///
    /// - Parameter partialRequest: whether part of a request head is buffered (it gets a 408; a silent
    ///   connection is just closed).
    mutating func tick(now: UInt64, timeouts: Timeouts, partialRequest: Bool) -> [Action] {
        switch phase {
        case .connecting, .clientHandshake:
            guard now >= deadline else { return [] }
            return [.count(\.handshakeFailures)] + fail("the opening handshake timed out")
        case .requestHead:
            guard now >= deadline else { return [] }
            guard partialRequest else { return [.count(\.requestTimeouts)] + hangUp() }
            return [.count(\.requestTimeouts)] + finish(with: Self.requestTimeoutResponse, now: now, timeouts: timeouts)
        case .awaitingResponse, .closed:
            return []
        case .open:
            if pingOutstanding {
                guard now >= deadline else { return [] }
                closeCode = .goingAway
                return [.count(\.pingTimeouts)] + hangUp()
            }
            guard now - lastRead >= timeouts.pingInterval else { return [] }
            pingOutstanding = true
            deadline = now + timeouts.pong
            return [.sendPing, .flush]
        case .closing:
            return now >= deadline ? hangUp() : []
        }
    }

    /// The loop shuts down: an open WebSocket gets close 1001, connections without one end now, and those
    /// already finishing (an awaited response, a close handshake) carry on until the shutdown deadline.
    mutating func shutdown(now: UInt64, timeouts: Timeouts) -> [Action] {
        switch phase {
        case .open:
            return close(code: .goingAway, reason: "server shutting down", now: now, timeouts: timeouts)
        case .requestHead:
            return hangUp()
        case .connecting, .clientHandshake:
            return fail("the event loop shut down")
        case .awaitingResponse, .closing, .closed:
            return []
        }
    }

    // MARK: Steps shared by the events above

    /// No more application traffic: flush what is queued, then shut down our side (the server closes TCP first,
    /// RFC 6455 §7.1.1) and let the peer finish, within the close timeout.
    private mutating func beginClosing(now: UInt64, timeouts: Timeouts, _ actions: inout [Action]) {
        enterClosing(now: now, timeouts: timeouts)
        if !awaitingPeerClose { actions.append(.stopParsing) }
        notify(&actions)
        actions.append(.flush)
    }

    private mutating func enterClosing(now: UInt64, timeouts: Timeouts) {
        guard phase != .closing else { return }
        phase = .closing
        deadline = now + timeouts.close
    }

    private mutating func notify(_ actions: inout [Action]) {
        guard endpointOpen else { return }
        endpointOpen = false
        actions.append(.notifyClosed(closeCode))
    }

    /// A client connection that never opened: its endpoint hears `connectionFailed`, not `didClose`.
    private mutating func fail(_ reason: String) -> [Action] {
        phase = .closed
        return [.destroy, .reportFailure(reason)]
    }
}
