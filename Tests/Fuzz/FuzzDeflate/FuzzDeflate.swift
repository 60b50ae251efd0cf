// libFuzzer target for permessage-deflate (RFC 7692): `Sec-WebSocket-Extensions` offers and their negotiation,
// and compressed payloads. Every invariant violation traps, which libFuzzer reports as a crash.
import Deflate
import WebSocket

/// One inflater for the whole run, as a server keeps one per loop: a bad input must leave it usable.
nonisolated(unsafe) let inflater = try! Inflater()
/// Two sender/receiver pairs that see only our own output: one keeping its context across inputs, one not.
nonisolated(unsafe) let keeping = (try! Deflater(windowBits: 9), try! Inflater(windowBits: 9))
nonisolated(unsafe) let resetting = (try! Deflater(resetsContext: true), try! Inflater())
let maxBytes = 64 * 1024

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch data[0] % 3 {
    case 0:
        // An extension header: the parser never traps, and what the server answers parses back to itself.
        let header = String(decoding: bytes, as: UTF8.self)
        guard let offers = try? ExtensionOffer.parse([header]) else { return 0 }
        for reset in [false, true] {
            guard let agreement = PerMessageDeflate.accept(offers, resetClientContext: reset) else { continue }
            precondition(!reset || agreement.response.clientNoContextTakeover, "asked reset not in the response")
            precondition(PerMessageDeflate.usableWindowBits.contains(agreement.serverWindowBits), "server window")
            precondition(PerMessageDeflate.usableWindowBits.contains(agreement.clientWindowBits), "client window")
            let answer = try! ExtensionOffer.parse([agreement.response.headerValue])
            let reread = try! PerMessageDeflate.Parameters(answer[0].parameters, forOffer: false)
            precondition(reread == agreement.response, "the response does not read back")
        }
    case 1:
        // A compressed payload from a peer: inflated within the limit or refused, never a trap.
        if let message = try? inflater.decompress(bytes, maxBytes: maxBytes, resetContext: data[0] & 4 != 0) {
            precondition(message.count <= maxBytes, "inflated past the limit")
        }
    default:
        // Our own compression always inflates back, with and without context takeover.
        let kept = try! keeping.1.decompress(keeping.0.compress(bytes), maxBytes: bytes.count, resetContext: false)
        precondition(kept == bytes, "round trip with context takeover")
        let reset = try! resetting.1.decompress(resetting.0.compress(bytes), maxBytes: bytes.count, resetContext: true)
        precondition(reset == bytes, "round trip without context takeover")
    }
    return 0
}
