import Testing
import WebSocket

@Suite struct CloseCodeTests {
    @Test(arguments: [
        (CloseCode.normalClosure, 1000), (.goingAway, 1001), (.protocolError, 1002), (.unsupportedData, 1003),
        (.invalidPayload, 1007), (.policyViolation, 1008), (.messageTooBig, 1009), (.mandatoryExtension, 1010),
        (.internalError, 1011), (.other(4000), 4000),
    ] as [(CloseCode, UInt16)])
    func mapsNamedCodesToWireValues(_ code: CloseCode, _ raw: UInt16) {
        #expect(code.rawValue == raw)
        #expect(CloseCode(rawValue: raw) == code)
    }

    @Test func initializerPrefersNamedCases() {
        guard case .normalClosure = CloseCode(rawValue: 1000) else {
            Issue.record("1000 should decode to .normalClosure")
            return
        }
        #expect(CloseCode.other(1000) == .normalClosure, "equality goes through the wire value")
        #expect(Set([CloseCode.other(1009), .messageTooBig]).count == 1)
    }

    @Test(arguments: WebSocketSessionTests.closeCodeRules)
    func knowsWhichCodesMayBeOnTheWire(_ raw: UInt16, _ allowed: Bool) {
        #expect(CloseCode(rawValue: raw).isAllowedOnWire == allowed, "code \(raw)")
    }

    @Test(arguments: [
        (1005, 1000), (1006, 1011), (1015, 1011), (1004, 1011), (0, 1011), (2000, 1011), (5000, 1011),
        (1000, 1000), (1012, 1012), (3000, 3000), (4999, 4999),
    ] as [(UInt16, UInt16)])
    func substitutesCodesThatMayNotBeSent(_ asked: UInt16, _ sent: UInt16) {
        #expect(CloseCode(rawValue: asked).sendable.rawValue == sent)
    }
}
