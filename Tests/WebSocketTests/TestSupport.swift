import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import WebSocket
import WebSocketTestSupport

/// Bytes from a hex string such as "81 85 37 fa"; spaces are ignored.
func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.utf8.filter { $0 != UInt8(ascii: " ") })
    precondition(digits.count % 2 == 0, "odd number of hex digits in \(text)")
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0 ... $0 + 1], as: UTF8.self), radix: 16)! }
}

/// Lowercase hex of `bytes`, for comparing digests.
func hexString(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
}

/// A `WebSocketAction` with its buffers copied, so actions can be compared after the callback returns.
enum RecordedAction: Equatable, CustomStringConvertible {
    case text([UInt8])
    case binary([UInt8])
    case sendPong([UInt8])
    case pongReceived
    case closeReceived(CloseCode?, String)
    case sendClose([UInt8], CloseCode)
    case closeConnection

    init(_ action: WebSocketAction) {
        switch action {
        case .deliverText(let bytes): self = .text(Array(bytes))
        case .deliverBinary(let bytes): self = .binary(Array(bytes))
        case .sendPong(let frame): self = .sendPong(frame)
        case .pongReceived: self = .pongReceived
        case .closeReceived(let code, let reason): self = .closeReceived(code, reason)
        case .sendClose(let frame, let code): self = .sendClose(frame, code)
        case .closeConnection: self = .closeConnection
        }
    }

    /// Server-role frames are deterministic; client-role frames are masked with random keys, so compare those
    /// after `unmaskedFrames()`.
    var description: String {
        switch self {
        case .text(let bytes): return "text(\(String(decoding: bytes, as: UTF8.self).prefix(40)))"
        case .binary(let bytes): return "binary(\(bytes.count) bytes)"
        case .sendPong(let frame): return "sendPong(\(hexString(frame)))"
        case .pongReceived: return "pongReceived"
        case .closeReceived(let code, let reason): return "closeReceived(\(code.map { "\($0)" } ?? "nil"), \(reason))"
        case .sendClose(let frame, let code): return "sendClose(\(hexString(frame)), \(code))"
        case .closeConnection: return "closeConnection"
        }
    }

    /// The same action with any frame it carries replaced by that frame with its mask removed (mask bit and key
    /// dropped), so client-role actions compare deterministically.
    var unmasked: RecordedAction {
        switch self {
        case .sendPong(let frame): return .sendPong(unmaskFrame(frame))
        case .sendClose(let frame, let code): return .sendClose(unmaskFrame(frame), code)
        default: return self
        }
    }
}

/// Masks `payload` with `key` (RFC 6455 §5.3), byte by byte: the reference the word-at-a-time code is checked
/// against.
func referenceMask(_ payload: [UInt8], key: [UInt8], position: Int = 0) -> [UInt8] {
    payload.enumerated().map { $0.element ^ key[($0.offset + position) % 4] }
}

/// Feeds `bytes` to `session` in chunks ending at `cuts` (sorted offsets), recording every action; compressed
/// messages go to `inflater`.
func feed(_ session: inout WebSocketSession, _ bytes: [UInt8], cuts: [Int] = [],
          inflater: (any MessageInflater)? = nil) -> [RecordedAction] {
    var actions: [RecordedAction] = []
    forEachChunk(of: bytes, endingAt: cuts) { chunk in
        session.receive(chunk, inflater: inflater) { actions.append(RecordedAction($0)) }
    }
    return actions
}

/// Feeds `bytes` one byte per call.
func feedByteByByte(_ session: inout WebSocketSession, _ bytes: [UInt8],
                    inflater: (any MessageInflater)? = nil) -> [RecordedAction] {
    feed(&session, bytes, cuts: Array(0 ..< bytes.count), inflater: inflater)
}

/// A fresh session fed `bytes` in one call.
func actions(_ role: WebSocketRole, _ bytes: [UInt8], maxMessageBytes: Int = 1 << 20) -> [RecordedAction] {
    var session = WebSocketSession(role: role, maxMessageBytes: maxMessageBytes)
    return feed(&session, bytes).map(\.unmasked)
}

/// The close frame a server sends for `code` with `reason` (unmasked).
func serverClose(_ code: CloseCode, _ reason: String = "") -> [UInt8] {
    FrameEncoder.encodeClose(code: code, reason: reason)
}

/// The actions of failing a server-role connection with `error`.
func failure(_ error: WebSocketError) -> [RecordedAction] {
    [.sendClose(serverClose(error.closeCode, error.description), error.closeCode), .closeConnection]
}

/// A client frame (masked with a fixed key) for feeding a server session.
func clientFrame(_ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true,
                 key: UInt32 = 0x37FA_213D) -> [UInt8] {
    FrameEncoder.encode(opcode, payload: payload, fin: fin, maskingKey: key)
}

/// Checks that every split of `bytes` into two reads, and byte-by-byte feeding, gives `expected`.
///
/// With `compression`, each run gets a session that negotiated permessage-deflate and a fresh inflater from
/// `makeInflater` (an inflater keeps its window, so runs must not share one).
func expectSameActionsForEverySplit(_ role: WebSocketRole, _ bytes: [UInt8], _ expected: [RecordedAction],
                                    maxMessageBytes: Int = 1 << 20, compression: Bool = false,
                                    makeInflater: () -> (any MessageInflater)? = { nil },
                                    sourceLocation: SourceLocation = #_sourceLocation) {
    for cut in 0 ... bytes.count {
        var session = WebSocketSession(role: role, maxMessageBytes: maxMessageBytes, compression: compression)
        let got = feed(&session, bytes, cuts: [cut], inflater: makeInflater()).map(\.unmasked)
        #expect(got == expected, "split at \(cut) of \(bytes.count)", sourceLocation: sourceLocation)
    }
    var session = WebSocketSession(role: role, maxMessageBytes: maxMessageBytes, compression: compression)
    #expect(feedByteByByte(&session, bytes, inflater: makeInflater()).map(\.unmasked) == expected, "byte by byte",
            sourceLocation: sourceLocation)
}

/// Checks that no strict prefix of `bytes` makes the session act.
func expectNoActionForStrictPrefixes(_ role: WebSocketRole, _ bytes: [UInt8],
                                     sourceLocation: SourceLocation = #_sourceLocation) {
    for length in 0 ..< bytes.count {
        var session = WebSocketSession(role: role, maxMessageBytes: 1 << 20)
        let got = feed(&session, Array(bytes[..<length]))
        #expect(got.isEmpty, "prefix of \(length) of \(bytes.count) bytes gave \(got)", sourceLocation: sourceLocation)
        #expect(session.state == .open, sourceLocation: sourceLocation)
    }
}

/// Whether two buffers hold the same bytes; `memcmp`, because debug builds run a Swift loop over 64 KiB
/// payloads too slowly to check them tens of thousands of times.
func sameBytes(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
    guard lhs.count == rhs.count else { return false }
    guard lhs.count > 0 else { return true }
    return memcmp(lhs.baseAddress!, rhs.baseAddress!, lhs.count) == 0
}
