import Testing
import WebSocket
import WebSocketTestSupport

/// Feeds `bytes` to a fresh parser in chunks ending at `cuts`, expecting it to read every chunk to the end.
func parse(_ role: WebSocketRole, _ bytes: [UInt8], cuts: [Int] = [], allowsCompression: Bool = false,
           sourceLocation: SourceLocation = #_sourceLocation) -> ParsedFrames {
    let parsed = ParsedFrames(role, bytes, cuts: cuts, allowsCompression: allowsCompression)
    #expect(parsed.chunksLeftUnread == 0, "the parser must consume everything it is given",
            sourceLocation: sourceLocation)
    return parsed
}

/// Parses exactly one frame from `frame` (which is unmasked in place).
func parseOneFrame(_ parser: inout FrameParser, _ frame: inout [UInt8],
                   sourceLocation: SourceLocation = #_sourceLocation) throws -> (FrameParser.Header, [UInt8]) {
    var header: FrameParser.Header?
    var payload: [UInt8] = []
    var ended = false
    try frame.withUnsafeMutableBytes { buffer in
        var offset = 0
        while let event = try parser.next(in: buffer, at: &offset) {
            switch event {
            case .header(let value): header = value
            case .payload(let bytes): payload += bytes
            case .end: ended = true
            }
        }
    }
    #expect(ended, "frame did not end", sourceLocation: sourceLocation)
    return (try #require(header, sourceLocation: sourceLocation), payload)
}

@Suite struct FrameParserTests {
    @Test func parsesRFCMaskedHello() {
        let parsed = parse(.server, hex("81 85 37 fa 21 3d 7f 9f 4d 51 58"))
        #expect(parsed.frames.count == 1)
        #expect(parsed.frames.first?.header
            == FrameParser.Header(fin: true, opcode: .text, maskingKey: 0x37FA_213D, payloadLength: 5))
        #expect(parsed.frames.first?.payload == Array("Hello".utf8))
        #expect(parsed.ended == 1)
    }

    @Test func parsesRFCFragmentedHelloAsTwoFrames() {
        let parsed = parse(.client, hex("01 03 48 65 6c 80 02 6c 6f"))
        #expect(parsed.frames.map(\.header.fin) == [false, true])
        #expect(parsed.frames.map(\.header.opcode) == [.text, .continuation])
        #expect(parsed.frames.map(\.payload) == [Array("Hel".utf8), Array("lo".utf8)])
    }

    @Test(arguments: RFCVector.all.filter { $0.bytes.count < 1024 })
    func yieldsSameFramesForEverySplitOfRFCExample(_ vector: RFCVector) {
        let whole = parse(vector.role, vector.bytes)
        #expect(whole.error == nil && !whole.frames.isEmpty)
        for cut in 0 ... vector.bytes.count {
            #expect(parse(vector.role, vector.bytes, cuts: [cut]) == whole, "split at \(cut)")
        }
        #expect(parse(vector.role, vector.bytes, cuts: Array(0 ..< vector.bytes.count)) == whole, "byte by byte")
    }

    @Test(arguments: [125, 126, 65535, 65536])
    func parsesLengthBoundariesInAnySplit(_ length: Int) {
        let payload = (0 ..< length).map { UInt8(truncatingIfNeeded: $0 &* 3) }
        let frame = FrameEncoder.encode(.binary, payload: payload, maskingKey: 0xA1B2_C3D4)
        let whole = parse(.server, frame)
        #expect(whole.frames.first?.payload == payload)
        #expect(whole.frames.first?.header.payloadLength == UInt64(length))
        for cut in Array(0 ... 20) + [frame.count / 2, frame.count - 1] {
            #expect(parse(.server, frame, cuts: [cut]) == whole, "split at \(cut)")
        }
    }

    @Test func stopsAtEveryStrictPrefixWithoutEndingTheFrame() {
        let frame = hex("81 85 37 fa 21 3d 7f 9f 4d 51 58")
        for length in 0 ..< frame.count {
            let parsed = parse(.server, Array(frame[..<length]))
            #expect(parsed.ended == 0 && parsed.error == nil, "prefix of \(length)")
            #expect(parsed.frames.count == (length >= 6 ? 1 : 0), "the header is complete after 6 bytes")
        }
    }

    @Test func reportsFrameBoundary() throws {
        var parser = FrameParser(role: .client)
        #expect(parser.isAtFrameBoundary)
        var bytes = hex("82 02 01")
        try bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while try parser.next(in: buffer, at: &offset) != nil {}
        }
        #expect(!parser.isAtFrameBoundary)
    }

    @Test func yieldsEndOfEmptyFrameWithoutMoreInput() throws {
        var parser = FrameParser(role: .client)
        var bytes = hex("8a 00")  // an empty pong
        var events: [String] = []
        try bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while let event = try parser.next(in: buffer, at: &offset) {
                switch event {
                case .header: events.append("header")
                case .payload: events.append("payload")
                case .end: events.append("end")
                }
            }
        }
        #expect(events == ["header", "end"])
        #expect(parser.isAtFrameBoundary)
    }

    @Test func unmasksPayloadInPlace() throws {
        var bytes = hex("81 85 37 fa 21 3d 7f 9f 4d 51 58")
        var parser = FrameParser(role: .server)
        _ = try parseOneFrame(&parser, &bytes)
        #expect(Array(bytes[6...]) == Array("Hello".utf8), "payload bytes were unmasked where they lie")
    }

    @Test(arguments: [
        // RSV1 set on a masked text frame.
        ("RSV1", hex("c1 80 00 00 00 00"), WebSocketRole.server, WebSocketError.reservedBitsSet),
        // Opcode 0x3 is reserved.
        ("opcode 3", hex("83 80 00 00 00 00"), .server, .unknownOpcode(WebSocketOpcode(rawValue: 3))),
        // Server receiving an unmasked frame.
        ("unmasked", hex("81 00"), .server, .unmaskedClientFrame),
        // Client receiving a masked frame.
        ("masked", hex("81 80 00 00 00 00"), .client, .maskedServerFrame),
        // A ping announcing 126 bytes via the 16-bit form.
        ("long ping", hex("89 7e 00 7e"), .client, .controlFrameTooLong),
        // A close with FIN clear.
        ("fragmented close", hex("08 00"), .client, .fragmentedControlFrame),
        // 64-bit length 2^63.
        ("length MSB", hex("82 7f 80 00 00 00 00 00 00 00"), .client, .payloadLengthOverflow),
    ])
    func rejectsInvalidHeaders(_ name: String, _ bytes: [UInt8], _ role: WebSocketRole, _ error: WebSocketError) {
        #expect(parse(role, bytes).error == error, "\(name)")
        #expect(parse(role, bytes, cuts: Array(0 ..< bytes.count)).error == error, "\(name), byte by byte")
    }

    @Test func rejectsBadFirstByteBeforeTheSecondArrives() {
        // Only the first byte: reserved bits are visible already.
        #expect(parse(.server, hex("f1")).error == .reservedBitsSet)
        #expect(parse(.server, hex("8b")).error == .unknownOpcode(WebSocketOpcode(rawValue: 0xB)))
        #expect(parse(.server, hex("09")).error == .fragmentedControlFrame)
    }

    // MARK: RSV1 and permessage-deflate (RFC 7692 §6)

    @Test func marksTheFirstFrameOfACompressedMessageWhenNegotiated() {
        // RFC 7692 §7.2.3.1's compressed "Hello" (c1: FIN, RSV1, text), masked with key 37 fa 21 3d.
        let bytes = hex("c1 87 37 fa 21 3d c5 b2 ec f4 fe fd 21")
        let whole = parse(.server, bytes, allowsCompression: true)
        #expect(whole.error == nil)
        #expect(whole.frames.first?.header == FrameParser.Header(fin: true, opcode: .text, maskingKey: 0x37FA_213D,
                                                                 payloadLength: 7, compressed: true))
        #expect(whole.frames.first?.payload == hex("f2 48 cd c9 c9 07 00"))
        for cut in 0 ... bytes.count {
            #expect(parse(.server, bytes, cuts: [cut], allowsCompression: true) == whole, "split at \(cut)")
        }
        // A plain frame on the same kind of parser is not marked.
        let plain = parse(.server, hex("81 85 37 fa 21 3d 7f 9f 4d 51 58"), allowsCompression: true)
        #expect(plain.frames.first?.header.compressed == false)
    }

    @Test(arguments: [
        // RSV1 on a text frame without the extension negotiated.
        ("RSV1, not negotiated", hex("c1 80 00 00 00 00"), false, WebSocketError.reservedBitsSet),
        // RSV1 on a binary frame without the extension negotiated.
        ("RSV1 binary, not negotiated", hex("c2 80 00 00 00 00"), false, .reservedBitsSet),
        // RSV1 on a continuation frame: only a message's first frame carries it.
        ("RSV1 continuation", hex("c0 80 00 00 00 00"), true, .misplacedCompressionBit),
        // RSV1 on a ping, a pong and a close: control frames are never compressed.
        ("RSV1 ping", hex("c9 80 00 00 00 00"), true, .misplacedCompressionBit),
        ("RSV1 pong", hex("ca 80 00 00 00 00"), true, .misplacedCompressionBit),
        ("RSV1 close", hex("c8 80 00 00 00 00"), true, .misplacedCompressionBit),
        // RSV2, RSV3 and RSV1 with either: permessage-deflate defines RSV1 alone.
        ("RSV2", hex("a1 80 00 00 00 00"), true, .reservedBitsSet),
        ("RSV3", hex("91 80 00 00 00 00"), true, .reservedBitsSet),
        ("RSV1 RSV2", hex("e1 80 00 00 00 00"), true, .reservedBitsSet),
        ("RSV1 RSV3", hex("d1 80 00 00 00 00"), true, .reservedBitsSet),
    ])
    func rejectsReservedBitsWhereTheExtensionAllowsNone(_ name: String, _ bytes: [UInt8], _ negotiated: Bool,
                                                        _ error: WebSocketError) {
        #expect(parse(.server, bytes, allowsCompression: negotiated).error == error, "\(name)")
        #expect(parse(.server, bytes, cuts: Array(0 ..< bytes.count), allowsCompression: negotiated).error == error,
                "\(name), byte by byte")
        // The first byte alone shows it.
        #expect(parse(.server, [bytes[0]], allowsCompression: negotiated).error == error, "\(name), first byte")
    }

    @Test func acceptsMaximal63BitLengthWithoutTrapping() {
        // 2^63 - 1 bytes announced: valid for the parser (the session's cap refuses it).
        let parsed = parse(.client, hex("82 7f 7f ff ff ff ff ff ff ff 01 02"))
        #expect(parsed.error == nil)
        #expect(parsed.frames.first?.header.payloadLength == UInt64(Int64.max))
        #expect(parsed.frames.first?.payload == [1, 2])
    }

    @Test func acceptsNonMinimalLengthEncoding() {
        // 5 bytes announced with the 16-bit form.
        let parsed = parse(.client, hex("82 7e 00 05 01 02 03 04 05"))
        #expect(parsed.frames.first?.payload == [1, 2, 3, 4, 5])
    }

    // MARK: The whole-frame fast path

    /// What `nextWholeDataFrame` makes of `bytes` from `offset`: the opcode and payload, and where it left off.
    private func wholeFrame(_ role: WebSocketRole, _ bytes: [UInt8], maxPayload: Int = 1 << 20,
                            allowsCompression: Bool = false) -> (WebSocketOpcode, [UInt8], Int)? {
        var parser = FrameParser(role: role, allowsCompression: allowsCompression)
        var bytes = bytes
        return bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            guard let (opcode, payload) = parser.nextWholeDataFrame(in: buffer, at: &offset, maxPayload: maxPayload)
            else {
                #expect(offset == 0, "declined without consuming anything")
                return nil
            }
            return (opcode, Array(payload), offset)
        }
    }

    @Test(arguments: [0, 5, 125, 126, 300, 65535])
    func wholeFrameTakesMaskedAndUnmaskedDataFramesWithTheirPayloadUnmasked(_ length: Int) throws {
        let payload = (0 ..< length).map { UInt8(truncatingIfNeeded: $0 &* 3) }
        for opcode in [WebSocketOpcode.text, .binary] {
            let masked = FrameEncoder.encode(opcode, payload: payload, maskingKey: 0x1234_5678)
            let server = try #require(wholeFrame(.server, masked + [0x81]))
            #expect(server.0 == opcode && server.1 == payload && server.2 == masked.count, "stops at the frame's end")
            let plain = FrameEncoder.encode(opcode, payload: payload)
            let client = try #require(wholeFrame(.client, plain))
            #expect(client.0 == opcode && client.1 == payload && client.2 == plain.count)
        }
    }

    /// Everything but a whole, final, plain data frame within the cap goes the long way, with its checks.
    @Test func wholeFrameDeclinesEveryOtherFrame() {
        let hello = Array("Hello".utf8)
        let key: UInt32 = 0x37FA_213D
        #expect(wholeFrame(.server, FrameEncoder.encode(.text, payload: hello, fin: false, maskingKey: key)) == nil,
                "a first fragment")
        #expect(wholeFrame(.server, FrameEncoder.encode(.continuation, payload: hello, maskingKey: key)) == nil,
                "a continuation")
        #expect(wholeFrame(.server, FrameEncoder.encode(.ping, payload: hello, maskingKey: key)) == nil, "a ping")
        #expect(wholeFrame(.server, FrameEncoder.encode(.close, payload: [3, 232], maskingKey: key)) == nil,
                "a close")
        #expect(wholeFrame(.server, FrameEncoder.encode(.text, payload: hello, compressed: true, maskingKey: key),
                           allowsCompression: true) == nil, "a compressed message")
        #expect(wholeFrame(.server, FrameEncoder.encode(.text, payload: hello)) == nil, "unmasked to a server")
        #expect(wholeFrame(.client, FrameEncoder.encode(.text, payload: hello, maskingKey: key)) == nil,
                "masked to a client")
        #expect(wholeFrame(.server, [0x83, 0x80, 0, 0, 0, 0]) == nil, "a reserved opcode")
        #expect(wholeFrame(.server, [0xC1, 0x80, 0, 0, 0, 0]) == nil, "RSV1 without compression")
        let big = [UInt8](repeating: 7, count: 70_000)
        #expect(wholeFrame(.client, FrameEncoder.encode(.binary, payload: big)) == nil, "a 64-bit length")
        #expect(wholeFrame(.client, FrameEncoder.encode(.binary, payload: hello), maxPayload: 4) == nil,
                "over the cap")
        let whole = FrameEncoder.encode(.text, payload: hello, maskingKey: key)
        for cut in 0 ..< whole.count {
            #expect(wholeFrame(.server, Array(whole[..<cut])) == nil, "cut at \(cut)")
        }
    }

}
