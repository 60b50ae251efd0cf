import Deflate
import Testing
@testable import WebSocket
import WebSocketTestSupport

/// A `MessageInflater` over real zlib, as the I/O layer supplies one: it keeps its window from message to message
/// (context takeover) unless `resetsContext`.
final class ZlibInflater: MessageInflater {
    private let inflater: Inflater
    private let resetsContext: Bool

    init(windowBits: Int = 15, resetsContext: Bool = false) {
        inflater = try! Inflater(windowBits: windowBits)
        self.resetsContext = resetsContext
    }

    func inflate(_ payload: UnsafeRawBufferPointer, maxBytes: Int,
                 _ deliver: (UnsafeRawBufferPointer) -> Void) throws(InflateFailure) {
        do {
            try inflater.decompress(payload, maxBytes: maxBytes, resetContext: resetsContext, deliver)
        } catch {
            switch error {
            case .corrupt: throw .corrupt
            case .tooLarge: throw .tooLarge
            }
        }
    }
}

/// A test double: records what the session hands over, then delivers `output` or throws `failure`.
final class ScriptedInflater: MessageInflater {
    private(set) var payloads: [[UInt8]] = []
    private(set) var caps: [Int] = []
    var output: [UInt8]
    var failure: InflateFailure?

    init(output: [UInt8] = [], failure: InflateFailure? = nil) {
        self.output = output
        self.failure = failure
    }

    func inflate(_ payload: UnsafeRawBufferPointer, maxBytes: Int,
                 _ deliver: (UnsafeRawBufferPointer) -> Void) throws(InflateFailure) {
        payloads.append(Array(payload))
        caps.append(maxBytes)
        if let failure { throw failure }
        output.withUnsafeBytes { deliver($0) }
    }
}

/// A client data frame (masked with RFC 6455 §5.7's key) with RSV1 set: the first frame of a compressed message.
func compressedClientFrame(_ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true) -> [UInt8] {
    FrameEncoder.encode(opcode, payload: payload, fin: fin, compressed: true, maskingKey: 0x37FA_213D)
}

/// The code of the close frame among `actions`, if one is sent.
func sentCloseCode(_ actions: [RecordedAction]) -> UInt16? {
    for action in actions {
        if case .sendClose(_, let code) = action { return code.rawValue }
    }
    return nil
}

@Suite struct WebSocketSessionCompressionTests {
    private let hello = Array("Hello".utf8)
    /// RFC 7692 §7.2.3.1: "Hello" compressed (fixed Huffman codes), the sync flush's tail removed.
    static let helloPayload = hex("f2 48 cd c9 c9 07 00")
    /// The same message as a client sends it: FIN, RSV1 and text (c1), 7 bytes masked with key 37 fa 21 3d.
    static let maskedCompressedHello = hex("c1 87 37 fa 21 3d c5 b2 ec f4 fe fd 21")
    /// RFC 7692 §7.2.3.2: a second "Hello" compressed right after the first, referring back to it.
    static let secondHelloPayload = hex("f2 00 11 00 00")

    /// A session that negotiated permessage-deflate fed `bytes`, compressed messages going to `inflater`.
    private func negotiated(_ bytes: [UInt8], maxMessageBytes: Int = 1 << 20,
                            inflater: any MessageInflater = ZlibInflater(), cuts: [Int] = []) -> [RecordedAction] {
        var session = WebSocketSession(role: .server, maxMessageBytes: maxMessageBytes, compression: true)
        return feed(&session, bytes, cuts: cuts, inflater: inflater)
    }

    // MARK: Where RSV1 may be (RFC 6455 §5.2, RFC 7692 §6)

    @Test func theRFCsMaskedCompressedHelloIsWhatAClientSends() {
        #expect(compressedClientFrame(.text, Self.helloPayload) == Self.maskedCompressedHello)
    }

    @Test func rsv1WithoutNegotiationFailsWith1002() {
        let got = actions(.server, Self.maskedCompressedHello)
        #expect(got == failure(.reservedBitsSet))
        #expect(sentCloseCode(got) == 1002)
    }

    @Test func rsv1OnAContinuationFailsWith1002() {
        // The first frame of a compressed message, then a continuation with RSV1 set too.
        var continuation = clientFrame(.continuation, hex("07 00"))
        continuation[0] |= 0x40
        let bytes = compressedClientFrame(.text, hex("f2 48 cd c9 c9"), fin: false) + continuation
        let got = negotiated(bytes)
        #expect(got == failure(.misplacedCompressionBit))
        #expect(sentCloseCode(got) == 1002)
        // Also when the message it continues was not compressed.
        #expect(negotiated(clientFrame(.text, Array("He".utf8), fin: false) + continuation)
            == failure(.misplacedCompressionBit))
    }

    @Test(arguments: [WebSocketOpcode.ping, .pong, .close])
    func rsv1OnAControlFrameFailsWith1002(_ opcode: WebSocketOpcode) {
        var control = clientFrame(opcode, [])
        control[0] |= 0x40
        let got = negotiated(control)
        #expect(got == failure(.misplacedCompressionBit))
        #expect(sentCloseCode(got) == 1002)
        // Inside a compressed fragmented message as well.
        let inside = negotiated(compressedClientFrame(.text, hex("f2 48"), fin: false) + control)
        #expect(inside == failure(.misplacedCompressionBit))
    }

    /// permessage-deflate defines RSV1 only: RSV2 and RSV3 fail the connection even once it was negotiated.
    @Test(arguments: [0x20, 0x10, 0x30, 0x60, 0x50, 0x70] as [UInt8])
    func rsv2AndRsv3FailWith1002EvenWhenNegotiated(_ bits: UInt8) {
        var frame = clientFrame(.text, Self.helloPayload)
        frame[0] |= bits
        let got = negotiated(frame)
        #expect(got == failure(.reservedBitsSet), "bits \(bits)")
        #expect(sentCloseCode(got) == 1002)
    }

    // MARK: Compressed messages are inflated (RFC 7692 §7.2.2)

    @Test func theRFCsCompressedHelloIsInflatedForEverySplit() {
        // The compressed bytes are not UTF-8 (f2 48 is an invalid sequence): text is validated once inflated.
        expectSameActionsForEverySplit(.server, Self.maskedCompressedHello, [.text(hello)], compression: true,
                                       makeInflater: { ZlibInflater() })
    }

    @Test func aCompressedBinaryMessageIsDelivered() {
        let payload = (0 ..< 3000).map { UInt8(truncatingIfNeeded: $0 % 17) }
        let compressed = try! Deflater().compress(payload)
        #expect(negotiated(compressedClientFrame(.binary, compressed)) == [.binary(payload)])
    }

    /// RFC 7692 §7.2.3.6: an empty message compresses to the single byte 00.
    @Test func anEmptyCompressedMessageIsDelivered() {
        #expect(negotiated(compressedClientFrame(.text, [0x00])) == [.text([])])
    }

    @Test func aFragmentedCompressedMessageIsInflatedWholeForEverySplit() {
        // RSV1 on the first frame only (RFC 7692 §6.1); the compressed bytes are cut at arbitrary places.
        let bytes = compressedClientFrame(.text, hex("f2 48 cd"), fin: false)
            + clientFrame(.continuation, hex("c9 c9"), fin: false) + clientFrame(.continuation, hex("07 00"))
        expectSameActionsForEverySplit(.server, bytes, [.text(hello)], compression: true,
                                       makeInflater: { ZlibInflater() })
        // And over three reads, at every pair of cut points.
        for first in 0 ... bytes.count {
            for second in first ... bytes.count {
                #expect(negotiated(bytes, cuts: [first, second]) == [.text(hello)], "cuts at \(first), \(second)")
            }
        }
    }

    @Test func controlFramesInterleavedInACompressedMessageAreAnswered() {
        // "f2 48 cd", ping "x", "c9 c9", pong, "07 00": control frames between fragments (RFC 6455 §5.4).
        let bytes = compressedClientFrame(.text, hex("f2 48 cd"), fin: false) + clientFrame(.ping, Array("x".utf8))
            + clientFrame(.continuation, hex("c9 c9"), fin: false) + clientFrame(.pong, [])
            + clientFrame(.continuation, hex("07 00"))
        let expected: [RecordedAction] = [.sendPong(hex("8a 01 78")), .pongReceived, .text(hello)]
        expectSameActionsForEverySplit(.server, bytes, expected, compression: true, makeInflater: { ZlibInflater() })
    }

    @Test func theInflaterGetsTheWholeCompressedPayloadAndTheMessageCap() {
        let inflater = ScriptedInflater(output: hello)
        let bytes = compressedClientFrame(.text, hex("f2 48 cd"), fin: false)
            + clientFrame(.continuation, hex("c9 c9"), fin: false) + clientFrame(.continuation, hex("07 00"))
        #expect(negotiated(bytes, maxMessageBytes: 777, inflater: inflater) == [.text(hello)])
        #expect(inflater.payloads == [Self.helloPayload], "the fragments' payloads, joined, without the tail")
        #expect(inflater.caps == [777], "the cap applies to the inflated size")
    }

    @Test func uncompressedMessagesOnANegotiatedSessionStayOutOfTheInflater() {
        let inflater = ScriptedInflater(output: Array("wrong".utf8))
        let bytes = hex("81 85 37 fa 21 3d 7f 9f 4d 51 58")  // RFC 6455 §5.7: masked "Hello", RSV1 clear
            + clientFrame(.binary, [1, 2], fin: false) + clientFrame(.continuation, [3])
        #expect(negotiated(bytes, inflater: inflater) == [.text(hello), .binary([1, 2, 3])])
        #expect(inflater.payloads.isEmpty)
    }

    @Test func plainMessagesBetweenCompressedOnesLeaveTheWindowAlone() {
        // Compressed "Hello", plain "Hello", then §7.2.3.2's second compressed "Hello", which refers back to the
        // first: the plain message in between must not have entered the inflater's window.
        let bytes = Self.maskedCompressedHello + hex("81 85 37 fa 21 3d 7f 9f 4d 51 58")
            + compressedClientFrame(.text, Self.secondHelloPayload)
        expectSameActionsForEverySplit(.server, bytes, [.text(hello), .text(hello), .text(hello)], compression: true,
                                       makeInflater: { ZlibInflater() })
    }

    // MARK: Failures: 1009 and 1007 (RFC 7692 §8, RFC 6455 §7.4.1)

    @Test func aMessageInflatingPastTheCapFailsWith1009() {
        let got = negotiated(Self.maskedCompressedHello, maxMessageBytes: 4)
        #expect(got == failure(.messageTooBig(limit: 4)))
        #expect(sentCloseCode(got) == 1009)
        #expect(negotiated(Self.maskedCompressedHello, maxMessageBytes: 5) == [.text(hello)], "exactly the cap")
    }

    @Test func aDeflateBombFailsWith1009() throws {
        // A megabyte of zeros in about a kilobyte: well within the compressed-size bound, far over the cap.
        let bomb = try Deflater().compress([UInt8](repeating: 0, count: 1 << 20))
        let got = negotiated(compressedClientFrame(.binary, bomb), maxMessageBytes: 64 * 1024)
        #expect(got == failure(.messageTooBig(limit: 64 * 1024)))
    }

    @Test func corruptCompressedDataFailsWith1007() {
        // BTYPE 11 is reserved (RFC 1951 §3.2.3).
        let got = negotiated(compressedClientFrame(.text, hex("ff ff ff")))
        #expect(got == failure(.invalidCompressedData))
        #expect(sentCloseCode(got) == 1007)
    }

    @Test(arguments: [(InflateFailure.tooLarge, WebSocketError.messageTooBig(limit: 100)),
                      (.corrupt, .invalidCompressedData),
                      (.ratioExceeded(maxRatio: 256), .inflateRatioExceeded(maxRatio: 256))])
    func anInflaterFailureFailsTheConnection(_ inflateFailure: InflateFailure, _ error: WebSocketError) {
        let inflater = ScriptedInflater(failure: inflateFailure)
        #expect(negotiated(Self.maskedCompressedHello, maxMessageBytes: 100, inflater: inflater) == failure(error))
    }

    @Test func compressedTextThatInflatesToInvalidUTF8FailsWith1007() throws {
        // C3 28: a lead byte followed by a byte that cannot continue it.
        let compressed = try Deflater().compress([0xC3, 0x28])
        let got = negotiated(compressedClientFrame(.text, compressed))
        #expect(got == failure(.invalidUTF8))
        #expect(sentCloseCode(got) == 1007)
        #expect(negotiated(compressedClientFrame(.binary, compressed)) == [.binary([0xC3, 0x28])], "binary is bytes")
    }

    /// The compressed size may exceed the cap by deflate's worst-case expansion only: for a cap of 1000,
    /// 1000 / 2048 + 64 = 64 bytes. The header alone decides, before any payload arrives.
    @Test func aCompressedFrameAnnouncingMoreThanTheBoundFailsWith1009BeforeItsPayload() {
        let cap = 1000
        let bound = cap + cap / 2048 + 64
        // A masked compressed text frame header announcing `length` bytes (16-bit form), key 37 fa 21 3d.
        func header(_ length: Int, first: UInt8 = 0xC1) -> [UInt8] {
            [first, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF), 0x37, 0xFA, 0x21, 0x3D]
        }
        let over = negotiated(header(bound + 1), maxMessageBytes: cap)
        #expect(over == failure(.messageTooBig(limit: cap)))
        #expect(sentCloseCode(over) == 1009)
        #expect(negotiated(header(bound), maxMessageBytes: cap).isEmpty, "at the bound: waits for the payload")
        // Without RSV1 the cap itself is the bound.
        #expect(negotiated(header(cap + 1, first: 0x81), maxMessageBytes: cap) == failure(.messageTooBig(limit: cap)))
        #expect(negotiated(header(cap, first: 0x81), maxMessageBytes: cap).isEmpty)
    }

    @Test func theBoundCountsEveryFragmentOfACompressedMessage() {
        let cap = 1000
        let bound = cap + cap / 2048 + 64
        let first = compressedClientFrame(.binary, [UInt8](repeating: 0, count: 1000), fin: false)
        func continuation(_ length: Int) -> [UInt8] {
            // A masked continuation header announcing `length` bytes, key 37 fa 21 3d.
            [0x80, 0x80 | UInt8(length), 0x37, 0xFA, 0x21, 0x3D]
        }
        #expect(negotiated(first + continuation(bound - 1000 + 1), maxMessageBytes: cap)
            == failure(.messageTooBig(limit: cap)))
        #expect(negotiated(first + continuation(bound - 1000), maxMessageBytes: cap).isEmpty)
    }

    @Test func aCompressedMessageAfterOurCloseIsNotInflated() {
        var session = WebSocketSession(role: .server, maxMessageBytes: 1 << 20, compression: true)
        #expect(session.initiateClose(code: .policyViolation, reason: "") != nil)
        let inflater = ScriptedInflater(output: hello)
        let bytes = Self.maskedCompressedHello + compressedClientFrame(.text, Self.helloPayload, fin: false)
            + clientFrame(.continuation, [])
        #expect(feed(&session, bytes, inflater: inflater) == [])
        #expect(inflater.payloads.isEmpty)
    }
}
