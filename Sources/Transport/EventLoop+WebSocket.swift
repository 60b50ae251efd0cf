import WebSocket

/// Frames in: the session parses them, the endpoint hears the messages, the machine follows the close handshake.
///
/// Each connection gets a bounded share of a pass of the loop, its turn: one read, and messages up to
/// `turnBudget`. What is left of the read waits in the connection's `inbound` for its next turn, after every
/// other connection with input had its own, so one peer flooding small messages that inflate large cannot hold
/// the loop while the others wait.
extension EventLoop {
    /// A connection's share of one pass, in bytes of messages delivered (their inflated size), each message
    /// counting at least `messageWeight`: up to 1,024 small messages or 256 KiB of large ones per turn.
    ///
    /// The cost of a message is mostly its size once inflated (inflating it, and for `/echo` compressing the
    /// reply) plus a fixed part (an endpoint's parse, a hand-off to a room): a pipelining client's read of a
    /// few dozen messages never reaches it, while a deflate bomb (60-byte messages that each inflate to 11 KB)
    /// gets about 23 messages, a millisecond or two, per turn.
    static let turnBudget = 256 * 1024
    /// The least a message counts against `turnBudget`, however small.
    static let messageWeight = 256

    /// Parses `bytes`, just read, and delivers what they hold, up to the connection's turn budget; the rest is
    /// kept for its next turn.
    ///
    /// What is kept is at most one read (256 KiB) per connection: its socket is not read again until that is
    /// parsed, so the kernel holds the rest and TCP slows the peer down.
    func receiveFrames(_ bytes: UnsafeMutableRawBufferPointer, on connection: Connection) {
        let consumed = parseFrames(bytes, on: connection)
        guard consumed < bytes.count, wantsFrames(connection) else { return }
        connection.inbound.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[consumed...]))
        ready.append((connection, 0))
    }

    /// The next turn of a connection whose input was left over (`ready`): it parses what it kept, from `offset`
    /// on (kept in the ready list rather than moving the bytes down each turn); the socket is read again once
    /// nothing is left.
    func resumeFrames(_ connection: Connection, at offset: Int) {
        guard connections.holds(connection), offset < connection.inbound.count, wantsFrames(connection) else { return }
        var pending: [UInt8] = []
        swap(&pending, &connection.inbound)
        let consumed = pending.withUnsafeMutableBytes {
            parseFrames(UnsafeMutableRawBufferPointer(rebasing: $0[offset...]), on: connection)
        }
        // Done (or no longer wanted): the buffer is released here.
        guard offset + consumed < pending.count, wantsFrames(connection) else { return }
        // Nothing else fills `inbound` during the turn: the socket is not read while input is left over.
        swap(&pending, &connection.inbound)
        ready.append((connection, offset + consumed))
    }

    /// Whether a connection has frames left from an earlier turn: its socket waits until they are parsed.
    func hasLeftoverFrames(_ connection: Connection) -> Bool {
        !connection.inbound.isEmpty && connection.machine.parsesFrames
    }

    private func wantsFrames(_ connection: Connection) -> Bool {
        connections.holds(connection) && connection.session != nil && connection.machine.parsesFrames
    }

    /// Parses `bytes` (unmasked in place) and delivers what they hold until the turn budget is spent or the
    /// application asks to close.
    ///
    /// The session is being mutated while endpoints hear messages, so nothing here lets them reach it: what an
    /// endpoint sends only queues bytes, and its `close` is a task the loop runs after this event (it stops the
    /// delivery at once, `ConnectionMachine.closePending`). The session's own end of the connection
    /// (`.closeConnection`) is applied once it returns.
    ///
    /// - Returns: how many bytes were consumed; the rest starts at a frame boundary.
    private func parseFrames(_ bytes: UnsafeMutableRawBufferPointer, on connection: Connection) -> Int {
        guard connection.session != nil else { return bytes.count }
        // A close asked for before these bytes (in `didOpen`, say) lets none of them through either.
        guard !connection.machine.closePending else { return 0 }
        var ended = false
        var budget = Self.turnBudget
        let inflater = connection.inflater()
        // Taken once per read, not once per message (a retain each): nothing an endpoint does while it hears a
        // message replaces it, since closes wait until this event is done.
        let endpoint = connection.endpoint
        let consumed = connection.session!.consume(bytes, inflater: inflater) { action in
            switch action {
            case .deliverText(let text):
                counters.messagesIn += 1
                endpoint?.didReceiveText(text, on: connection)
                budget &-= max(text.count, Self.messageWeight)
            case .deliverBinary(let data):
                counters.messagesIn += 1
                endpoint?.didReceiveBinary(data, on: connection)
                budget &-= max(data.count, Self.messageWeight)
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
            return budget > 0 && !connection.machine.closePending
        }
        if ended {
            run(connection.machine.sessionEnded(now: nowMillis, timeouts: timeouts), on: connection)
        }
        return consumed
    }
}
