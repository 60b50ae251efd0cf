// libFuzzer target for permessage-deflate (RFC 7692): `Sec-WebSocket-Extensions` offers and responses and their
// negotiation both ways, compressed payloads, and compressed frames through a session that negotiated the
// extension. Every invariant violation traps, which libFuzzer reports as a crash.
//
// Input layout: byte 0 selects the mode (its value modulo 5), the rest is the mode's input:
//   0  an extension header, read as a client's offer and as a server's response;
//   1  a compressed payload from a peer;
//   2  a message we compress and inflate back;
//   3  a parameter byte (message cap, split points), then the bytes a client sends a server session;
//   4  two parameter bytes (fragment size, window, which messages go plain, pings), then messages separated by
//      FF, which are compressed, framed as a client does and fed to a server session that must deliver them.
import Deflate
import WebSocket
import WebSocketTestSupport

/// One inflater for the whole run, as a server keeps one per loop: a bad input must leave it usable.
nonisolated(unsafe) let inflater = try! Inflater()
/// Two sender/receiver pairs that see only our own output: one keeping its context across inputs, one not.
nonisolated(unsafe) let keeping = (try! Deflater(windowBits: 9), try! Inflater(windowBits: 9))
nonisolated(unsafe) let resetting = (try! Deflater(resetsContext: true), try! Inflater())
let maxBytes = 64 * 1024

/// A session's inflater over zlib, keeping its window (context takeover) as a per-connection inflater does.
final class SessionInflater: MessageInflater {
    let inflater: Inflater

    init(windowBits: Int = 15) {
        inflater = try! Inflater(windowBits: windowBits)
    }

    func inflate(_ payload: UnsafeRawBufferPointer, maxBytes: Int,
                 _ deliver: (UnsafeRawBufferPointer) -> Void) throws(InflateFailure) {
        do {
            try inflater.decompress(payload, maxBytes: maxBytes, resetContext: false) { message in
                precondition(message.count <= maxBytes, "inflated past the limit")
                deliver(message)
            }
        } catch {
            switch error {
            case .corrupt: throw .corrupt
            case .tooLarge: throw .tooLarge
            }
        }
    }
}

/// Runs a fresh server session that negotiated permessage-deflate over `stream` cut at `cuts`, with a fresh
/// inflater, and checks the per-run invariants.
func runSession(cap: Int, windowBits: Int = 15, _ stream: [UInt8], cuts: [Int]) -> [RecordedAction] {
    var session = WebSocketSession(role: .server, maxMessageBytes: cap, compression: true)
    return recordActions(of: &session, cap: cap, stream, cuts: cuts, inflater: SessionInflater(windowBits: windowBits))
}

/// Mode 0: the header as offers (server side) and as a response (client side).
func fuzzHeader(_ bytes: [UInt8]) {
    let header = String(decoding: bytes, as: UTF8.self)
    guard let offers = try? ExtensionOffer.parse([header]) else { return }
    for reset in [false, true] {
        for preferred in [nil, 11] as [Int?] {
            guard let agreement = PerMessageDeflate.accept(offers, resetClientContext: reset,
                                                           serverWindowBits: preferred) else { continue }
            precondition(!reset || agreement.response.clientNoContextTakeover, "asked reset not in the response")
            precondition(PerMessageDeflate.usableWindowBits.contains(agreement.serverWindowBits), "server window")
            precondition(PerMessageDeflate.usableWindowBits.contains(agreement.clientWindowBits), "client window")
            if let preferred {
                precondition(agreement.serverWindowBits <= preferred, "a window above the preferred one")
                precondition(agreement.response.serverMaxWindowBits == .bits(agreement.serverWindowBits),
                             "the server window is not stated")
            }
            let answer = try! ExtensionOffer.parse([agreement.response.headerValue])
            let reread = try! PerMessageDeflate.Parameters(answer[0].parameters, forOffer: false)
            precondition(reread == agreement.response, "the response does not read back")
        }
    }
    // Each offer alone: what the server answers, the client that offered it accepts as it was sent.
    for offer in offers {
        guard let agreement = PerMessageDeflate.accept([offer], resetClientContext: true, serverWindowBits: 11) else {
            continue
        }
        let asked = try! PerMessageDeflate.Parameters(offer.parameters, forOffer: true)
        let answer = try! ExtensionOffer.parse([agreement.response.headerValue])
        let checked = try? PerMessageDeflate.check(answer, offered: asked)
        precondition(checked == agreement.response, "the client refuses the answer to its own offer")
    }
    // The header as a server's response to three offers a client makes.
    var chromium = PerMessageDeflate.Parameters()
    chromium.clientMaxWindowBits = .supported
    var limited = chromium
    limited.serverMaxWindowBits = .bits(12)
    limited.serverNoContextTakeover = true
    for offered in [chromium, limited] {
        guard let agreed = try? PerMessageDeflate.check(offers, offered: offered) else { continue }
        if offered == limited {
            guard case .bits(let bits) = agreed.serverMaxWindowBits, bits <= 12 else {
                preconditionFailure("accepted a server window above the offered limit")
            }
            precondition(agreed.serverNoContextTakeover, "accepted a response without the asked reset")
        }
        let answer = try! ExtensionOffer.parse([agreed.headerValue])
        precondition(try! PerMessageDeflate.check(answer, offered: offered) == agreed, "agreed does not read back")
    }
    // And inside a 101: the handshake check never traps, and agrees with `check` on a well-formed line.
    guard !bytes.contains(where: { $0 < 0x20 || $0 >= 0x7F }) else { return }
    let response = Array(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\nSec-WebSocket-Extensions: \(header)\r\n\r\n").utf8)
    let validated = response.withUnsafeBytes { buffer in
        Result { () throws(WebSocketHandshake.HandshakeError) in
            try WebSocketHandshake.validateServerResponse(buffer, key: "dGhlIHNhbXBsZSBub25jZQ==",
                                                          offeredDeflate: chromium)
        }
    }
    if case .success(let acceptance?) = validated, let deflate = acceptance.deflate {
        precondition(acceptance.length == response.count, "frames start after the head")
        let answer = try! ExtensionOffer.parse([deflate.headerValue])
        precondition(try! PerMessageDeflate.check(answer, offered: chromium) == deflate, "accepted a bad response")
    }
}

/// Mode 3: any bytes through a server session that negotiated compression, whole, byte by byte, and split.
func fuzzFrames(_ bytes: [UInt8]) {
    guard let parameter = bytes.first else { return }
    let cap = [16, 125, 1 << 16, 4][Int(parameter >> 1) & 3]
    let stream = Array(bytes.dropFirst())
    let whole = runSession(cap: cap, stream, cuts: [])
    precondition(runSession(cap: cap, stream, cuts: Array(0 ..< stream.count)) == whole, "byte-by-byte differs")
    precondition(runSession(cap: cap, stream, cuts: cuts(seed: parameter, count: stream.count)) == whole,
                 "split actions differ")
}

/// Mode 4: messages compressed with context takeover and framed as a client frames them (RSV1 on the first
/// fragment only, pings between fragments, some messages plain) are delivered exactly, for any split.
func fuzzMessages(_ bytes: [UInt8]) {
    guard bytes.count >= 2 else { return }
    let (shape, options) = (bytes[0], bytes[1])
    let fragmentBytes = Int(shape & 0x0F) + 1
    let windowBits = 9 + Int(shape >> 4) % 7
    let plainEvery = Int(options >> 1 & 3)
    let pings = options & 8 != 0
    let deflater = try! Deflater(windowBits: windowBits, memoryLevel: Int32(options >> 4 & 7) + 1,
                                 resetsContext: options & 1 != 0)
    let messages = bytes.dropFirst(2).split(separator: 0xFF, omittingEmptySubsequences: false).prefix(16).map(Array.init)
    let key = UInt32(shape) &* 0x0101_0101 ^ 0x37FA_213D
    var stream: [UInt8] = []
    var expected: [RecordedAction] = []
    for (number, message) in messages.enumerated() {
        let isText = String(validating: message, as: UTF8.self) != nil
        let opcode: WebSocketOpcode = isText ? .text : .binary
        let compressed = plainEvery == 0 || number % (plainEvery + 1) != 0
        let payload = compressed ? deflater.compress(message) : message
        var start = 0
        repeat {
            let end = min(start + fragmentBytes, payload.count)
            let fin = end == payload.count
            stream += FrameEncoder.encode(start == 0 ? opcode : .continuation, payload: payload[start ..< end],
                                          fin: fin, compressed: compressed && start == 0, maskingKey: key)
            if pings && !fin {
                stream += FrameEncoder.encode(.ping, payload: [UInt8(number)], maskingKey: key)
                expected.append(.sendPong(FrameEncoder.encode(.pong, payload: [UInt8(number)])))
            }
            start = end
        } while start < payload.count
        expected.append(isText ? .text(message) : .binary(message))
    }
    for split in [[], cuts(seed: shape ^ options, count: stream.count), Array(0 ..< stream.count)] {
        let got = runSession(cap: maxBytes, windowBits: windowBits, stream, cuts: split)
        precondition(got == expected, "the session did not deliver what was sent")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch data[0] % 5 {
    case 0:
        fuzzHeader(bytes)
    case 1:
        // A compressed payload from a peer: inflated within the limit or refused, never a trap.
        if let message = try? inflater.decompress(bytes, maxBytes: maxBytes, resetContext: data[0] & 4 != 0) {
            precondition(message.count <= maxBytes, "inflated past the limit")
        }
    case 2:
        // Our own compression always inflates back, with and without context takeover.
        let kept = try! keeping.1.decompress(keeping.0.compress(bytes), maxBytes: bytes.count, resetContext: false)
        precondition(kept == bytes, "round trip with context takeover")
        let reset = try! resetting.1.decompress(resetting.0.compress(bytes), maxBytes: bytes.count, resetContext: true)
        precondition(reset == bytes, "round trip without context takeover")
    case 3:
        fuzzFrames(bytes)
    default:
        fuzzMessages(bytes)
    }
    return 0
}
