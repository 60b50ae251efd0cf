import Testing
import WebSocket

@Suite struct WebSocketErrorTests {
    @Test(arguments: [
        (WebSocketError.reservedBitsSet, CloseCode.protocolError),
        (.unknownOpcode(WebSocketOpcode(rawValue: 3)), .protocolError),
        (.unmaskedClientFrame, .protocolError),
        (.maskedServerFrame, .protocolError),
        (.controlFrameTooLong, .protocolError),
        (.fragmentedControlFrame, .protocolError),
        (.payloadLengthOverflow, .protocolError),
        (.unexpectedContinuation, .protocolError),
        (.expectedContinuation, .protocolError),
        (.messageTooBig(limit: 10), .messageTooBig),
        (.invalidUTF8, .invalidPayload),
        (.closePayloadTooShort, .protocolError),
        (.invalidCloseCode(1005), .protocolError),
        (.invalidCloseReason, .invalidPayload),
    ])
    func mapsEachFailureToItsCloseCode(_ error: WebSocketError, _ code: CloseCode) {
        #expect(error.closeCode == code)
        #expect(error.closeCode.isAllowedOnWire)
    }

    @Test func reasonsFitInACloseFrame() {
        let errors: [WebSocketError] = [.reservedBitsSet, .unknownOpcode(WebSocketOpcode(rawValue: 0xF)),
                                        .payloadLengthOverflow, .messageTooBig(limit: Int.max),
                                        .invalidCloseCode(65535), .expectedContinuation, .unexpectedContinuation]
        for error in errors {
            #expect(error.description.utf8.count <= 123, "\(error)")
        }
    }
}
