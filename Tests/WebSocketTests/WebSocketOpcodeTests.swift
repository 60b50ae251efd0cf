import Testing
import WebSocket

@Suite struct WebSocketOpcodeTests {
    @Test func namedOpcodesHaveRFCValues() {
        #expect(WebSocketOpcode.continuation.rawValue == 0x0)
        #expect(WebSocketOpcode.text.rawValue == 0x1)
        #expect(WebSocketOpcode.binary.rawValue == 0x2)
        #expect(WebSocketOpcode.close.rawValue == 0x8)
        #expect(WebSocketOpcode.ping.rawValue == 0x9)
        #expect(WebSocketOpcode.pong.rawValue == 0xA)
    }

    @Test(arguments: 0 ... 15 as ClosedRange<UInt8>)
    func classifiesEveryOpcode(_ raw: UInt8) {
        let opcode = WebSocketOpcode(rawValue: raw)
        #expect(opcode.isControl == (raw >= 8), "RFC 6455 §5.5: opcodes 0x8-0xF are control opcodes")
        #expect(opcode.isDefined == [0, 1, 2, 8, 9, 10].contains(raw))
    }

    @Test func keepsOnlyFourBits() {
        // A whole first byte (FIN + text) reduces to the opcode.
        #expect(WebSocketOpcode(rawValue: 0x81) == .text)
    }

    @Test func describesReservedOpcodes() {
        #expect(WebSocketOpcode(rawValue: 0xB).description == "reserved(0xb)")
        #expect(WebSocketOpcode.ping.description == "ping")
    }
}
