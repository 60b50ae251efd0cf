// libFuzzer target for the frame layer: the parser, the session and the UTF-8 validator.
//
// Input layout: byte 0 selects role and message cap, byte 1 seeds the split points, the rest is the byte stream
// a peer sends. Every invariant violation traps, which libFuzzer reports as a crash.
import WebSocket
import WebSocketTestSupport

/// Runs a fresh session over `stream` cut at `cuts`, checking the per-run invariants.
func runSession(_ role: WebSocketRole, cap: Int, _ stream: [UInt8], cuts: [Int]) -> [RecordedAction] {
    var session = WebSocketSession(role: role, maxMessageBytes: cap)
    return recordActions(of: &session, cap: cap, stream, cuts: cuts)
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
