// libFuzzer target for the frame layer: the parser, the session and the UTF-8 validator.
//
// Input layout: byte 0 selects role and message cap, byte 1 seeds the split points, the rest is the byte stream
// a peer sends. Every invariant violation traps, which libFuzzer reports as a crash.
import WebSocket
import WebSocketTestSupport

/// An action with its buffers copied and client-role masking removed, so runs compare equal.
enum Recorded: Equatable {
    case text([UInt8]), binary([UInt8]), sendPong([UInt8]), pongReceived
    case closeReceived(UInt16?, String), sendClose([UInt8], UInt16), closeConnection
}

/// Runs a fresh session over `stream` cut at `cuts` and checks the per-run invariants.
func runSession(_ role: WebSocketRole, cap: Int, _ stream: [UInt8], cuts: [Int]) -> [Recorded] {
    var session = WebSocketSession(role: role, maxMessageBytes: cap)
    var recorded: [Recorded] = []
    forEachChunk(of: stream, endingAt: cuts) { chunk in
        session.receive(chunk) { action in
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

/// Parses `stream` cut at `cuts` with a fresh parser and checks the invariants of every event.
func runParser(_ role: WebSocketRole, _ stream: [UInt8], cuts: [Int]) -> ParsedFrames {
    let parsed = ParsedFrames(role, stream, cuts: cuts) { event, sofar in
        switch event {
        case .header(let header):
            precondition(sofar.ended == sofar.frames.count, "header before the previous frame ended")
            precondition(!header.opcode.isControl || (header.fin && header.payloadLength <= 125),
                         "accepted an invalid control frame")
            precondition(header.payloadLength <= UInt64(Int64.max), "length with MSB set")
        case .payload(let bytes):
            let frame = sofar.frames[sofar.frames.count - 1]
            precondition(UInt64(frame.payload.count + bytes.count) <= frame.header.payloadLength, "payload overrun")
        case .end:
            let frame = sofar.frames[sofar.frames.count - 1]
            precondition(UInt64(frame.payload.count) == frame.header.payloadLength, "short payload")
        }
    }
    precondition(parsed.chunksLeftUnread == 0, "parser left input unconsumed")
    return parsed
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let role: WebSocketRole = bytes[0] & 1 == 0 ? .server : .client
    let cap = [0, 16, 125, 1 << 16][Int(bytes[0] >> 1) & 3]
    let stream = Array(bytes[2...])
    let randomCuts = cuts(seed: bytes[1], count: stream.count)
    let everyByte = Array(0 ..< stream.count)

    // The same stream in one read, byte by byte, and at random cuts gives the same actions.
    let whole = runSession(role, cap: cap, stream, cuts: [])
    precondition(runSession(role, cap: cap, stream, cuts: everyByte) == whole, "byte-by-byte actions differ")
    precondition(runSession(role, cap: cap, stream, cuts: randomCuts) == whole, "split actions differ")

    // The parser alone yields the same headers, payloads and error for any split.
    let parsed = runParser(role, stream, cuts: [])
    precondition(runParser(role, stream, cuts: everyByte) == parsed, "byte-by-byte parse differs")
    precondition(runParser(role, stream, cuts: randomCuts) == parsed, "split parse differs")

    // The incremental UTF-8 validator agrees with the standard library, whole and split.
    var validator = UTF8Validator()
    var valid = true
    forEachChunk(of: stream, endingAt: randomCuts) { chunk in
        valid = validator.validate(UnsafeRawBufferPointer(chunk)) && valid
    }
    valid = valid && validator.isComplete
    precondition(valid == (String(validating: stream, as: UTF8.self) != nil), "UTF-8 validator disagrees")

    // Encoding the stream as a frame and parsing it back returns it, for both roles.
    let key = UInt32(bytes[1]) &* 0x0101_0101 ^ 0xA5C3_5A3C
    for sender in [WebSocketRole.client, .server] {
        let frame = FrameEncoder.encode(.binary, payload: stream, maskingKey: sender == .client ? key : nil)
        let back = runParser(sender == .client ? .server : .client, frame, cuts: randomCuts)
        precondition(back.error == nil && back.frames.map(\.payload) == [stream] && back.ended == 1,
                     "encoder round trip failed")
    }
    return 0
}
