import WebSocket

/// Frames in: the session parses them, the endpoint hears the messages, the machine follows the close handshake.
extension EventLoop {
    /// Parses `bytes` (unmasked in place) and delivers what they hold.
    ///
    /// The session is being mutated while endpoints hear messages, so nothing here lets them reach it: what an
    /// endpoint sends only queues bytes, and its `close` is a task the loop runs after this event. The session's
    /// own end of the connection (`.closeConnection`) is applied once it returns.
    func receiveFrames(_ bytes: UnsafeMutableRawBufferPointer, on connection: Connection) {
        guard connection.session != nil else { return }
        var ended = false
        let inflater = connection.inflater()
        // Taken once per read, not once per message (a retain each): nothing an endpoint does while it hears a
        // message replaces it, since closes wait until this event is done.
        let endpoint = connection.endpoint
        connection.session!.receive(bytes, inflater: inflater) { action in
            switch action {
            case .deliverText(let text):
                counters.messagesIn += 1
                endpoint?.didReceiveText(text, on: connection)
            case .deliverBinary(let data):
                counters.messagesIn += 1
                endpoint?.didReceiveBinary(data, on: connection)
            case .sendPong(let frame):
                connection.outbound.append(shared: frame)
                markDirty(connection)
            case .pongReceived:
                break
            case .closeReceived(let code, _):
                connection.machine.closeReceived(code: code)
            case .sendClose(let frame, let code):
                connection.machine.sessionSentClose(code: code, now: nowMillis, timeouts: timeouts)
                connection.outbound.append(shared: frame)
                markDirty(connection)
            case .closeConnection:
                ended = true
            }
        }
        if ended {
            run(connection.machine.sessionEnded(now: nowMillis, timeouts: timeouts), on: connection)
        }
    }
}
