import WebSocket

/// A `WebSocketAction` with its buffers copied and a client's masking removed, so that runs over the same bytes
/// compare equal.
public enum RecordedAction: Equatable, Sendable {
    case text([UInt8]), binary([UInt8]), sendPong([UInt8]), pongReceived
    case closeReceived(UInt16?, String), sendClose([UInt8], UInt16), closeConnection
}

/// Feeds `stream` to `session` in chunks ending at `cuts` and records its actions, trapping (the fuzzers' crash)
/// where the session breaks a rule it keeps whatever its input: nothing after `closeConnection`, no message over
/// `cap`, text only as valid UTF-8, pongs of at most 125 payload bytes masked by a client only (RFC 6455 §5.5,
/// §5.3), one close frame and only with a code allowed on the wire (§7.4), and a closed state once it closed.
///
/// - Parameters:
///   - session: a fresh session; fed and left as the bytes left it.
///   - cap: the session's `maxMessageBytes`.
///   - stream: what the peer sends.
///   - cuts: the offsets at which reads end, in order.
///   - inflater: for a session that negotiated permessage-deflate.
/// - Returns: every action, in order.
public func recordActions(of session: inout WebSocketSession, cap: Int, _ stream: [UInt8], cuts: [Int],
                          inflater: (any MessageInflater)? = nil) -> [RecordedAction] {
    let role = session.role
    var recorded: [RecordedAction] = []
    forEachChunk(of: stream, endingAt: cuts) { chunk in
        session.receive(chunk, inflater: inflater) { action in
            precondition(recorded.last != .closeConnection, "action after closeConnection")
            switch action {
            case .deliverText(let bytes):
                precondition(bytes.count <= cap, "text message over the cap")
                precondition(String(validating: bytes, as: UTF8.self) != nil, "delivered invalid UTF-8")
                recorded.append(.text(Array(bytes)))
            case .deliverBinary(let bytes):
                precondition(bytes.count <= cap, "binary message over the cap")
                recorded.append(.binary(Array(bytes)))
            case .sendPong(let frame):
                precondition(frame[0] == 0x8A, "a pong is a final pong frame, RSV1 clear")
                precondition(frame.count <= 2 + 4 + 125, "pong over 125 bytes")
                precondition((frame[1] & 0x80 != 0) == (role == .client), "pong masking does not match role")
                recorded.append(.sendPong(unmaskFrame(frame)))
            case .pongReceived:
                recorded.append(.pongReceived)
            case .closeReceived(let code, let reason):
                precondition(code.map(\.isAllowedOnWire) ?? true, "accepted a close code that is not allowed")
                recorded.append(.closeReceived(code?.rawValue, reason))
            case .sendClose(let frame, let code):
                precondition(code.isAllowedOnWire, "sending close code \(code.rawValue)")
                precondition(!recorded.contains { if case .sendClose = $0 { true } else { false } },
                             "second close frame")
                let plain = unmaskFrame(frame)
                precondition(plain[0] == 0x88 && plain.count >= 4 && plain.count <= 127, "malformed close")
                precondition(UInt16(plain[2]) << 8 | UInt16(plain[3]) == code.rawValue, "close code mismatch")
                recorded.append(.sendClose(plain, code.rawValue))
            case .closeConnection:
                recorded.append(.closeConnection)
            }
        }
    }
    if recorded.last == .closeConnection { precondition(session.state == .closed, "closed connection, open state") }
    return recorded
}
