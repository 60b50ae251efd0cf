import Testing
@testable import WebSocket
import WebSocketTestSupport

/// One RFC 6455 §5.7 example, the role that receives it, and what that role must do.
struct RFCVector: CustomTestStringConvertible, Sendable {
    let name: String
    let role: WebSocketRole
    let bytes: [UInt8]
    let expected: [RecordedAction]
    var testDescription: String { name }

    static let all: [RFCVector] = {
        let hello = Array("Hello".utf8)
        let payload256 = (0 ..< 256).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let payload64K = (0 ..< 65536).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 1) }
        let key = hex("37 fa 21 3d")
        return [
            // A single-frame masked text message containing "Hello", key 37 fa 21 3d.
            RFCVector(name: "masked Hello", role: .server, bytes: hex("81 85 37 fa 21 3d 7f 9f 4d 51 58"),
                      expected: [.text(hello)]),
            // A single-frame unmasked text message containing "Hello".
            RFCVector(name: "unmasked Hello", role: .client, bytes: hex("81 05 48 65 6c 6c 6f"),
                      expected: [.text(hello)]),
            // A fragmented unmasked text message: "Hel" (FIN clear), then "lo" as a final continuation.
            RFCVector(name: "fragmented Hello", role: .client, bytes: hex("01 03 48 65 6c") + hex("80 02 6c 6f"),
                      expected: [.text(hello)]),
            // An unmasked ping carrying "Hello": the client answers with a (masked) pong carrying "Hello".
            RFCVector(name: "unmasked ping", role: .client, bytes: hex("89 05 48 65 6c 6c 6f"),
                      expected: [.sendPong(hex("8a 05 48 65 6c 6c 6f"))]),
            // The same ping masked with key 37 fa 21 3d: the server answers with an unmasked pong.
            RFCVector(name: "masked ping", role: .server, bytes: hex("89 85 37 fa 21 3d 7f 9f 4d 51 58"),
                      expected: [.sendPong(hex("8a 05 48 65 6c 6c 6f"))]),
            // A 256-byte binary message: 16-bit length 01 00.
            RFCVector(name: "256-byte binary", role: .client, bytes: hex("82 7E 01 00") + payload256,
                      expected: [.binary(payload256)]),
            RFCVector(name: "256-byte binary, masked", role: .server,
                      bytes: hex("82 FE 01 00") + key + referenceMask(payload256, key: key),
                      expected: [.binary(payload256)]),
            // A 64 KiB binary message: 64-bit length 00 00 00 00 00 01 00 00.
            RFCVector(name: "64 KiB binary", role: .client, bytes: hex("82 7F 00 00 00 00 00 01 00 00") + payload64K,
                      expected: [.binary(payload64K)]),
            RFCVector(name: "64 KiB binary, masked", role: .server,
                      bytes: hex("82 FF 00 00 00 00 00 01 00 00") + key + referenceMask(payload64K, key: key),
                      expected: [.binary(payload64K)]),
        ]
    }()
}

@Suite struct WebSocketSessionTests {
    @Test(arguments: RFCVector.all)
    func deliversRFCExample(_ vector: RFCVector) {
        #expect(actions(vector.role, vector.bytes) == vector.expected)
    }

    @Test(arguments: RFCVector.all)
    func givesSameActionsForEverySplitOfRFCExample(_ vector: RFCVector) {
        if vector.bytes.count <= 1024 {
            expectSameActionsForEverySplit(vector.role, vector.bytes, vector.expected)
            return
        }
        // The 64 KiB frames have 65 547 split points; comparing whole action arrays for each is too slow in a
        // debug build, so each split checks the single delivery word by word against the expected payload.
        guard case .binary(let expectedPayload)? = vector.expected.first, vector.expected.count == 1 else {
            Issue.record("large vectors are expected to deliver one binary message")
            return
        }
        expectedPayload.withUnsafeBytes { expected in
            for cut in 0 ... vector.bytes.count {
                var session = WebSocketSession(role: vector.role, maxMessageBytes: 1 << 20)
                var deliveries = 0
                var allMatch = true
                forEachChunk(of: vector.bytes, endingAt: [cut]) { chunk in
                    session.receive(chunk) { action in
                        deliveries += 1
                        guard case .deliverBinary(let payload) = action, sameBytes(payload, expected) else {
                            allMatch = false
                            return
                        }
                    }
                }
                if deliveries != 1 || !allMatch {
                    Issue.record("split at \(cut): \(deliveries) actions, payload matches: \(allMatch)")
                    return
                }
            }
        }
        var session = WebSocketSession(role: vector.role, maxMessageBytes: 1 << 20)
        #expect(feedByteByByte(&session, vector.bytes).map(\.unmasked) == vector.expected)
    }

    @Test(arguments: RFCVector.all)
    func actsOnNoStrictPrefixOfRFCExample(_ vector: RFCVector) {
        if vector.bytes.count <= 1024 {
            expectNoActionForStrictPrefixes(vector.role, vector.bytes)
        } else {
            // One session fed byte by byte sees every strict prefix in turn; it must not act before the last byte.
            var session = WebSocketSession(role: vector.role, maxMessageBytes: 1 << 20)
            let got = feed(&session, Array(vector.bytes.dropLast()), cuts: Array(0 ..< vector.bytes.count - 1))
            #expect(got.isEmpty)
        }
    }

    @Test(arguments: [0, 1, 125, 126, 127, 65535, 65536, 70000])
    func deliversMessagesAtLengthBoundaries(_ length: Int) {
        let payload = (0 ..< length).map { UInt8(truncatingIfNeeded: $0) }
        #expect(actions(.server, clientFrame(.binary, payload)) == [.binary(payload)])
        #expect(actions(.client, FrameEncoder.encode(.binary, payload: payload)) == [.binary(payload)])
    }

    @Test func deliversManyFramesFromOneRead() {
        let bytes = clientFrame(.text, Array("one".utf8)) + clientFrame(.binary, [1, 2])
            + clientFrame(.ping, []) + clientFrame(.pong, [9])
        #expect(actions(.server, bytes) == [.text(Array("one".utf8)), .binary([1, 2]),
                                            .sendPong(hex("8a 00")), .pongReceived])
    }

    /// Whole frames (taken in one step) and frames that are not (split, fragmented, control) in one stream: the
    /// actions are the same whether it comes in one read, in every split into two, or byte by byte.
    @Test func wholeFramesBesideSplitAndFragmentedOnesGiveTheSameActionsHoweverTheyArrive() {
        let long = (0 ..< 300).map { UInt8(truncatingIfNeeded: $0 &* 5) }
        let bytes = clientFrame(.text, Array("one".utf8)) + clientFrame(.binary, long)
            + clientFrame(.text, Array("frag".utf8), fin: false) + clientFrame(.ping, [1])
            + clientFrame(.continuation, Array("ment".utf8)) + clientFrame(.text, Array("é".utf8))
            + clientFrame(.binary, [])
        let expected: [RecordedAction] = [.text(Array("one".utf8)), .binary(long), .sendPong(hex("8a 01 01")),
                                          .text(Array("fragment".utf8)), .text(Array("é".utf8)), .binary([])]
        #expect(actions(.server, bytes) == expected)
        expectSameActionsForEverySplit(.server, bytes, expected)
    }

    @Test func deliversEmptyMessages() {
        #expect(actions(.server, clientFrame(.text, [])) == [.text([])])
        #expect(actions(.server, clientFrame(.binary, [])) == [.binary([])])
        // Fragmented message with an empty final fragment.
        let bytes = clientFrame(.binary, [1], fin: false) + clientFrame(.continuation, [])
        expectSameActionsForEverySplit(.server, bytes, [.binary([1])])
    }

    @Test func answersControlFramesInterleavedInFragments() {
        // "Hel", ping "x", pong, "lo": control frames may sit between fragments (RFC 6455 §5.4).
        let bytes = clientFrame(.text, Array("Hel".utf8), fin: false) + clientFrame(.ping, Array("x".utf8))
            + clientFrame(.pong, []) + clientFrame(.continuation, Array("lo".utf8))
        let expected: [RecordedAction] = [.sendPong(hex("8a 01 78")), .pongReceived, .text(Array("Hello".utf8))]
        expectSameActionsForEverySplit(.server, bytes, expected)
    }

    @Test func answersPingWithSamePayload() {
        let payload = (0 ..< 125).map { UInt8($0) }
        expectSameActionsForEverySplit(.server, clientFrame(.ping, payload),
                                       [.sendPong(FrameEncoder.encode(.pong, payload: payload))])
    }

    @Test func clientPongIsMaskedWithSamePayload() throws {
        var session = WebSocketSession(role: .client, maxMessageBytes: 100)
        let got = feed(&session, hex("89 02 61 62"))  // unmasked ping "ab"
        guard case .sendPong(let frame)? = got.first else {
            Issue.record("expected a pong, got \(got)")
            return
        }
        #expect(frame[1] & 0x80 != 0, "client pong must be masked")
        #expect(unmaskFrame(frame) == hex("8a 02 61 62"))
    }

    @Test func clientMasksEachFrameWithFreshKey() {
        let session = WebSocketSession(role: .client, maxMessageBytes: 100)
        let payload = Array("same payload".utf8)
        let frames = (0 ..< 8).map { _ in payload.withUnsafeBytes { session.encode(.text, payload: $0) } }
        #expect(frames.allSatisfy { $0[1] & 0x80 != 0 })
        #expect(Set(frames.map { Array($0[2 ..< 6]) }).count > 1, "all 8 frames used the same masking key")
        #expect(frames.allSatisfy { unmaskFrame($0) == FrameEncoder.encode(.text, payload: payload) })
    }

    @Test func serverEncodesUnmasked() {
        let session = WebSocketSession(role: .server, maxMessageBytes: 100)
        let frame = Array("hi".utf8).withUnsafeBytes { session.encode(.binary, payload: $0) }
        #expect(frame == hex("82 02 68 69"))
    }

    @Test(arguments: [WebSocketRole.server, .client])
    func roundTripsEncodedFramesThroughPeerSession(_ senderRole: WebSocketRole) {
        let sender = WebSocketSession(role: senderRole, maxMessageBytes: 1 << 20)
        var receiver = WebSocketSession(role: senderRole == .server ? .client : .server, maxMessageBytes: 1 << 20)
        for length in [0, 5, 125, 126, 1000, 65535, 65536] {
            let payload = (0 ..< length).map { UInt8(truncatingIfNeeded: $0 * 31) }
            let frame = payload.withUnsafeBytes { sender.encode(.binary, payload: $0) }
            #expect(feed(&receiver, frame) == [.binary(payload)], "length \(length)")
        }
    }

    // MARK: Failures

    @Test func rejectsUnmaskedClientFrame() {
        #expect(actions(.server, hex("81 05 48 65 6c 6c 6f")) == failure(.unmaskedClientFrame))
    }

    @Test func rejectsMaskedServerFrame() {
        let got = actions(.client, hex("81 85 37 fa 21 3d 7f 9f 4d 51 58"))
        #expect(got == [.sendClose(serverClose(.protocolError, WebSocketError.maskedServerFrame.description),
                                   .protocolError), .closeConnection])
    }

    @Test(arguments: [0x10, 0x20, 0x40, 0x70] as [UInt8])
    func rejectsReservedBits(_ bits: UInt8) {
        var frame = clientFrame(.text, Array("a".utf8))
        frame[0] |= bits
        #expect(actions(.server, frame) == failure(.reservedBitsSet))
    }

    @Test(arguments: [3, 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF] as [UInt8])
    func rejectsUnknownOpcode(_ opcode: UInt8) {
        let frame = clientFrame(WebSocketOpcode(rawValue: opcode), [])
        #expect(actions(.server, frame) == failure(.unknownOpcode(WebSocketOpcode(rawValue: opcode))))
    }

    @Test func rejectsControlFrameOver125Bytes() {
        #expect(actions(.server, clientFrame(.ping, Array(repeating: 0, count: 126)))
            == failure(.controlFrameTooLong))
        // A fake header claiming a 64-bit-length close frame: refused on the header alone.
        #expect(actions(.client, hex("88 7F 00 00 00 00 00 00 00 7E")) == failure(.controlFrameTooLong))
    }

    @Test func rejectsFragmentedControlFrame() {
        // A fake frame header that claims this is a fragmented ping frame.
        #expect(actions(.client, hex("09 00")) == failure(.fragmentedControlFrame))
    }

    @Test func rejects64BitLengthWithMostSignificantBitSet() {
        // A binary frame header announcing 2^63 + 1 bytes: must fail, never trap converting it to Int.
        #expect(actions(.client, hex("82 7F 80 00 00 00 00 00 00 01")) == failure(.payloadLengthOverflow))
    }

    @Test func rejectsContinuationWithoutStart() {
        #expect(actions(.server, clientFrame(.continuation, [1])) == failure(.unexpectedContinuation))
    }

    @Test func rejectsNewDataFrameDuringFragmentedMessage() {
        let bytes = clientFrame(.text, Array("a".utf8), fin: false) + clientFrame(.binary, [1])
        #expect(actions(.server, bytes) == failure(.expectedContinuation))
    }

    @Test func rejectsOversizedMessageOnHeaderBeforePayload() {
        // Only the header of a 1001-byte frame: with a 1000-byte cap it fails before any payload arrives.
        let header = Array(clientFrame(.binary, Array(repeating: 0, count: 1001)).prefix(8))
        #expect(actions(.server, header, maxMessageBytes: 1000) == failure(.messageTooBig(limit: 1000)))
        #expect(actions(.server, clientFrame(.binary, Array(repeating: 0, count: 1000)), maxMessageBytes: 1000)
            == [.binary(Array(repeating: 0, count: 1000))])
    }

    @Test func rejectsOversizedFragmentedMessageOnTheFragmentThatExceedsCap() {
        let first = clientFrame(.binary, Array(repeating: 1, count: 600), fin: false)
        let second = clientFrame(.continuation, Array(repeating: 2, count: 401))
        var session = WebSocketSession(role: .server, maxMessageBytes: 1000)
        #expect(feed(&session, first).isEmpty)
        // Just the header of the second fragment is enough to exceed 1000.
        #expect(feed(&session, Array(second.prefix(8))) == failure(.messageTooBig(limit: 1000)))
        #expect(session.state == .closed)
    }

    @Test func rejectsHugeAnnouncedLengthWithoutAllocating() {
        // A 64-bit length of 2^62 bytes under a 1 MiB cap.
        let header = hex("82 FF 40 00 00 00 00 00 00 00 37 fa 21 3d")
        #expect(actions(.server, header) == failure(.messageTooBig(limit: 1 << 20)))
    }

    @Test(arguments: [
        ("overlong 2-byte slash", hex("c0 af")),
        ("overlong 3-byte", hex("e0 80 af")),
        ("overlong 4-byte", hex("f0 80 80 af")),
        ("UTF-16 high surrogate", hex("ed a0 80")),
        ("UTF-16 low surrogate", hex("ed bf bf")),
        ("above U+10FFFF", hex("f4 90 80 80")),
        ("F5 lead byte", hex("f5 80 80 80")),
        ("stray continuation", hex("80")),
        ("truncated at message end", hex("ce")),
        ("truncated 4-byte at message end", hex("f0 9f 98")),
    ])
    func rejectsInvalidUTF8Text(_ name: String, _ bytes: [UInt8]) {
        let frame = clientFrame(.text, Array("ok ".utf8) + bytes)
        #expect(actions(.server, frame) == failure(.invalidUTF8), "\(name)")
        expectSameActionsForEverySplit(.server, frame, failure(.invalidUTF8))
    }

    @Test func acceptsUTF8SplitAcrossFragments() {
        // "κόσμε" with the 2-byte ό split between fragments.
        let text = Array("κόσμε".utf8)
        let bytes = clientFrame(.text, Array(text[..<3]), fin: false) + clientFrame(.continuation, Array(text[3...]))
        expectSameActionsForEverySplit(.server, bytes, [.text(text)])
    }

    @Test func failsInvalidUTF8AtTheMiddleFragmentBeforeMessageEnds() {
        var session = WebSocketSession(role: .server, maxMessageBytes: 1000)
        #expect(feed(&session, clientFrame(.text, Array("fine".utf8), fin: false)).isEmpty)
        // Middle fragment holds an invalid byte (FF): the connection fails now, not at the final fragment.
        #expect(feed(&session, clientFrame(.continuation, hex("41 ff 41"), fin: false)) == failure(.invalidUTF8))
        #expect(feed(&session, clientFrame(.continuation, Array("end".utf8))).isEmpty)
    }

    @Test func failsInvalidUTF8InsideFrameBeforeItsEnd() {
        // Only the first bytes of a 100-byte text frame arrive, the 5th of which is invalid.
        let frame = clientFrame(.text, Array("abcd".utf8) + [0xFF] + Array(repeating: 0x61, count: 95))
        #expect(actions(.server, Array(frame.prefix(6 + 5))) == failure(.invalidUTF8))
    }

    @Test func failsTextTruncatedAtFinalFragment() {
        let bytes = clientFrame(.text, hex("e2 82"), fin: false) + clientFrame(.continuation, [])
        expectSameActionsForEverySplit(.server, bytes, failure(.invalidUTF8))
    }

    @Test func acceptsInvalidUTF8InBinaryMessage() {
        #expect(actions(.server, clientFrame(.binary, hex("ff fe"))) == [.binary(hex("ff fe"))])
    }

    @Test func ignoresInputAfterFailure() {
        var session = WebSocketSession(role: .server, maxMessageBytes: 1000)
        #expect(feed(&session, hex("81 05 48 65 6c 6c 6f")) == failure(.unmaskedClientFrame))
        #expect(feed(&session, clientFrame(.text, Array("late".utf8))).isEmpty)
        #expect(session.state == .closed)
    }

    // MARK: Close handshake

    /// Received close codes and whether they are valid (RFC 6455 §7.4; Autobahn 7.7.x and 7.9.x).
    static let closeCodeRules: [(UInt16, Bool)] = [
        (0, false), (999, false), (1000, true), (1001, true), (1002, true), (1003, true), (1004, false),
        (1005, false), (1006, false), (1007, true), (1008, true), (1009, true), (1010, true), (1011, true),
        (1012, true), (1013, true), (1014, true), (1015, false), (1016, false), (1100, false), (2000, false),
        (2999, false), (3000, true), (3999, true), (4000, true), (4999, true), (5000, false), (65535, false),
    ]

    @Test(arguments: closeCodeRules)
    func validatesReceivedCloseCode(_ code: UInt16, _ isValid: Bool) {
        let frame = clientFrame(.close, [UInt8(code >> 8), UInt8(code & 0xFF)] + Array("bye".utf8))
        let expected: [RecordedAction] = isValid
            ? [.closeReceived(CloseCode(rawValue: code), "bye"),
               .sendClose(serverClose(CloseCode(rawValue: code)), CloseCode(rawValue: code)), .closeConnection]
            : failure(.invalidCloseCode(code))
        #expect(actions(.server, frame) == expected)
    }

    @Test func echoesCloseWithoutCodeAs1000() {
        expectSameActionsForEverySplit(.server, clientFrame(.close, []),
                                       [.closeReceived(nil, ""), .sendClose(serverClose(.normalClosure), .normalClosure),
                                        .closeConnection])
    }

    @Test func rejectsOneByteClosePayload() {
        #expect(actions(.server, clientFrame(.close, [0x03])) == failure(.closePayloadTooShort))
    }

    @Test func rejectsCloseReasonThatIsNotUTF8() {
        let frame = clientFrame(.close, hex("03 e8") + hex("ce"))
        #expect(actions(.server, frame) == failure(.invalidCloseReason))
        #expect(WebSocketError.invalidCloseReason.closeCode == .invalidPayload)
    }

    @Test func ignoresDataAfterClose() {
        let bytes = clientFrame(.close, hex("03 e8")) + clientFrame(.text, Array("late".utf8)) + clientFrame(.ping, [])
        let expected: [RecordedAction] = [.closeReceived(.normalClosure, ""),
                                          .sendClose(serverClose(.normalClosure), .normalClosure), .closeConnection]
        expectSameActionsForEverySplit(.server, bytes, expected)
    }

    @Test func clientEchoesCloseAndLetsServerCloseTCP() {
        var session = WebSocketSession(role: .client, maxMessageBytes: 100)
        let got = feed(&session, hex("88 02 03 e9")).map(\.unmasked)  // server's close, 1001
        #expect(got == [.closeReceived(.goingAway, ""), .sendClose(serverClose(.goingAway), .goingAway)])
        #expect(session.state == .closed)
    }

    @Test(arguments: [WebSocketRole.server, .client])
    func closesConnectionWhenPeerAnswersOurClose(_ role: WebSocketRole) throws {
        var session = WebSocketSession(role: role, maxMessageBytes: 100)
        let closeFrame = session.initiateClose(code: .goingAway, reason: "restart")
        let sent = try #require(closeFrame)
        #expect(unmaskFrame(sent) == serverClose(.goingAway, "restart"))
        #expect((sent[1] & 0x80 != 0) == (role == .client))
        #expect(session.state == .closeSent)
        #expect(session.initiateClose(code: .normalClosure, reason: "") == nil, "a second close must not be sent")
        let reply = role == .server ? clientFrame(.close, hex("03 e9")) : hex("88 02 03 e9")
        #expect(feed(&session, reply) == [.closeReceived(.goingAway, ""), .closeConnection])
        #expect(session.state == .closed)
    }

    @Test func dropsDataAndSendsNoPongAfterOurCloseButHearsThePeersClose() throws {
        var session = WebSocketSession(role: .server, maxMessageBytes: 100)
        #expect(session.initiateClose(code: .normalClosure, reason: "") != nil)
        // A whole message, a fragmented one (not valid UTF-8 either: not even checked), a ping, then the close.
        let bytes = clientFrame(.text, Array("in flight".utf8)) + clientFrame(.text, [0xFF], fin: false)
            + clientFrame(.continuation, [0xFE]) + clientFrame(.ping, [1]) + clientFrame(.close, hex("03 e8"))
        #expect(feed(&session, bytes) == [.closeReceived(.normalClosure, ""), .closeConnection])
    }

    @Test func consumeStopsAtTheFrameAfterHandleSaysStopAndLeavesTheRestMasked() {
        var session = WebSocketSession(role: .server, maxMessageBytes: 100)
        let first = clientFrame(.text, Array("one".utf8))
        // The second message in two fragments, so that the slow path stops too.
        let rest = clientFrame(.text, Array("tw".utf8), fin: false) + clientFrame(.continuation, Array("o".utf8))
            + clientFrame(.binary, [3])
        var bytes = first + rest
        var heard: [RecordedAction] = []
        let consumed = bytes.withUnsafeMutableBytes { buffer in
            session.consume(buffer) { action in
                heard.append(RecordedAction(action))
                return false
            }
        }
        #expect(heard == [.text(Array("one".utf8))])
        #expect(consumed == first.count)
        #expect(Array(bytes[consumed...]) == rest, "what was not consumed must be left as it came")
        var left = Array(bytes[consumed...])
        heard = []
        let second = left.withUnsafeMutableBytes { buffer in
            session.consume(buffer) { action in
                heard.append(RecordedAction(action))
                return false
            }
        }
        #expect(heard == [.text(Array("two".utf8))])
        #expect(Array(left[second...]) == clientFrame(.binary, [3]))
        #expect(feed(&session, Array(left[second...])) == [.binary([3])])
    }

    @Test func consumeTakesEverythingWhileHandleSaysGoOn() {
        var session = WebSocketSession(role: .server, maxMessageBytes: 100)
        var bytes = clientFrame(.text, Array("a".utf8)) + clientFrame(.ping, [])
            + clientFrame(.text, Array("b".utf8), fin: false)
        let count = bytes.count
        let consumed = bytes.withUnsafeMutableBytes { buffer in session.consume(buffer) { _ in true } }
        #expect(consumed == count)
    }

    @Test func failureAfterOurCloseSendsNoSecondClose() throws {
        var session = WebSocketSession(role: .server, maxMessageBytes: 100)
        #expect(session.initiateClose(code: .normalClosure, reason: "") != nil)
        #expect(feed(&session, hex("81 00")) == [.closeConnection])
    }

    @Test(arguments: [(CloseCode.other(1005), CloseCode.normalClosure), (.other(1006), .internalError),
                      (.other(1015), .internalError), (.other(999), .internalError), (.other(4000), .other(4000))])
    func neverSendsReservedCloseCodes(_ asked: CloseCode, _ sent: CloseCode) throws {
        var session = WebSocketSession(role: .server, maxMessageBytes: 100)
        let closeFrame = session.initiateClose(code: asked, reason: "")
        let frame = try #require(closeFrame)
        #expect(frame == serverClose(sent))
        #expect(Array(frame[2...]) == [UInt8(sent.rawValue >> 8), UInt8(sent.rawValue & 0xFF)])
    }

    @Test func sessionIsSmall() {
        #expect(MemoryLayout<WebSocketSession>.size <= 64, "WebSocketSession is \(MemoryLayout<WebSocketSession>.size) bytes")
        #expect(MemoryLayout<FrameParser>.size <= 32, "FrameParser is \(MemoryLayout<FrameParser>.size) bytes")
    }
}
