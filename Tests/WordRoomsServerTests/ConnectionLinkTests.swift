import Rooms
import Testing
import WebSocket
@testable import WordRoomsServer

/// Where room messages meet the wire: framing once per message, and the close codes of every close reason.
@Suite struct ConnectionLinkTests {
    /// Close codes and texts are protocol: the web client reads 4000 (replaced), 4001 (removed) and 4002 (silent).
    static let closes: [(CloseReason, UInt16, String)] = [
        (.replaced, 4000, "replaced by a newer connection"),
        (.removedByHost, 4001, "removed by the host"),
        (.removedByOperator, 4001, "removed by the server's operator"),
        (.roomClosed, 4001, "room closed by the server's operator"),
        (.tooManyMessages, 1008, "too many messages"),
        (.tooManyConnections, 1008, "too many connections from your address"),
        (.silent, 4002, "no heartbeat: marked away"),
    ]

    @Test(arguments: closes)
    func closeReasonMapsToItsCodeAndText(reason: CloseReason, code: UInt16, text: String) {
        #expect(reason.closeCode.rawValue == code)
        #expect(reason.closeText == text)
        #expect(reason.closeCode.isAllowedOnWire)
    }

    @Test func everyCloseReasonIsPinned() {
        #expect(Set(Self.closes.map(\.0)) == Set(CloseReason.allCases))
    }

    @Test func aMessageIsFramedAsOneTextFrame() {
        let message = ServerMessage(json: Array(#"{"type":"pong"}"#.utf8))
        // FIN + text opcode, unmasked, 15-byte payload.
        #expect(message.textFrame == [0x81, 0x0F] + Array(#"{"type":"pong"}"#.utf8))
        #expect(message.textFrame == FrameEncoder.encode(.text, payload: message.json))
    }

    @Test func aMessageIsFramedOnceForEveryRecipient() {
        let message = ServerMessage(json: Array(repeating: UInt8(ascii: "x"), count: 300))
        let first = message.textFrame
        let second = message.textFrame
        // The same storage: the second recipient got the first one's frame, not a new one.
        let same = first.withUnsafeBufferPointer { a in second.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
        #expect(same)
        // A 300-byte payload takes the 16-bit length form.
        #expect(Array(first.prefix(4)) == [0x81, 0x7E, 0x01, 0x2C])
    }
}
