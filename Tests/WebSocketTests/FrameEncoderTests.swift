import Testing
import WebSocket

@Suite struct FrameEncoderTests {
    @Test(arguments: [(0, 2), (125, 2), (126, 4), (65535, 4), (65536, 10), (Int(UInt32.max) + 1, 10)])
    func choosesShortestLengthForm(_ length: Int, _ header: Int) {
        #expect(FrameEncoder.headerLength(payloadLength: length, masked: false) == header)
        #expect(FrameEncoder.headerLength(payloadLength: length, masked: true) == header + 4)
    }

    @Test(arguments: [
        // 125: fits the 7-bit field.
        (125, hex("82 7d")),
        // 126: 16-bit length.
        (126, hex("82 7e 00 7e")),
        (65535, hex("82 7e ff ff")),
        // 65536: 64-bit length.
        (65536, hex("82 7f 00 00 00 00 00 01 00 00")),
    ])
    func writesHeaderForLength(_ length: Int, _ expected: [UInt8]) {
        var header = [UInt8](repeating: 0, count: FrameEncoder.maxHeaderLength)
        let written = header.withUnsafeMutableBytes {
            FrameEncoder.writeHeader(opcode: .binary, fin: true, payloadLength: length, maskingKey: nil,
                                     to: $0.baseAddress!)
        }
        #expect(Array(header[..<written]) == expected)
    }

    @Test func encodesRFCUnmaskedHello() {
        #expect(FrameEncoder.encodeText("Hello") == hex("81 05 48 65 6c 6c 6f"))
    }

    @Test func encodesRFCMaskedHello() {
        // RFC 6455 §5.7: key 37 fa 21 3d.
        #expect(FrameEncoder.encodeText("Hello", maskingKey: 0x37FA_213D) == hex("81 85 37 fa 21 3d 7f 9f 4d 51 58"))
    }

    @Test func encodesRFCFragmentsAndPing() {
        #expect(FrameEncoder.encode(.text, payload: Array("Hel".utf8), fin: false) == hex("01 03 48 65 6c"))
        #expect(FrameEncoder.encode(.continuation, payload: Array("lo".utf8)) == hex("80 02 6c 6f"))
        #expect(FrameEncoder.encode(.ping, payload: Array("Hello".utf8)) == hex("89 05 48 65 6c 6c 6f"))
        #expect(FrameEncoder.encode(.pong, payload: Array("Hello".utf8), maskingKey: 0x37FA_213D)
            == hex("8a 85 37 fa 21 3d 7f 9f 4d 51 58"))
    }

    @Test func encodesNonContiguousCollections() {
        let payload = (0 ..< 300).lazy.map { UInt8(truncatingIfNeeded: $0) }
        #expect(FrameEncoder.encode(.binary, payload: payload, maskingKey: 0x0102_0304)
            == FrameEncoder.encode(.binary, payload: Array(payload), maskingKey: 0x0102_0304))
    }

    @Test func encodesCloseWithCodeAndReason() {
        #expect(FrameEncoder.encodeClose(code: .goingAway, reason: "bye") == hex("88 05 03 e9 62 79 65"))
    }

    @Test func cutsLongCloseReasonAtCharacterBoundary() {
        // 61 two-byte characters plus one more: 124 bytes of reason, over the 123 that fit.
        let reason = String(repeating: "é", count: 62)
        let frame = FrameEncoder.encodeClose(code: .normalClosure, reason: reason)
        #expect(frame[1] == 2 + 122, "cut to 122 bytes, not 123, so é is not split")
        #expect(UTF8Validator.isValid(frame[4...]))
        let ascii = FrameEncoder.encodeClose(code: .normalClosure, reason: String(repeating: "x", count: 200))
        #expect(ascii.count == 2 + 125)
    }

    @Test func neverEncodes1005Or1006() {
        #expect(FrameEncoder.encodeClose(code: .other(1005), reason: "") == hex("88 02 03 e8"))
        #expect(FrameEncoder.encodeClose(code: .other(1006), reason: "") == hex("88 02 03 f3"))
    }

    @Test func randomMaskingKeysDiffer() {
        let keys = Set((0 ..< 16).map { _ in FrameEncoder.randomMaskingKey() })
        #expect(keys.count > 1)
    }

    @Test(arguments: [WebSocketRole.server, .client], [0, 1, 7, 125, 126, 65535, 65536])
    func roundTripsThroughParserOfThePeer(_ sender: WebSocketRole, _ length: Int) throws {
        let payload = (0 ..< length).map { UInt8(truncatingIfNeeded: $0 &* 5) }
        let key: UInt32? = sender == .client ? FrameEncoder.randomMaskingKey() : nil
        var frame = FrameEncoder.encode(.binary, payload: payload, fin: false, maskingKey: key)
        var parser = FrameParser(role: sender == .client ? .server : .client)
        let (header, received) = try parseOneFrame(&parser, &frame)
        #expect(header == FrameParser.Header(fin: false, opcode: .binary, maskingKey: key, payloadLength: UInt64(length)))
        #expect(received == payload)
    }

    /// RFC 7692 §7.2.3.1: the compressed "Hello" frame, unmasked and masked with RFC 6455 §5.7's key.
    @Test func encodesRFCCompressedHello() {
        let payload = hex("f2 48 cd c9 c9 07 00")
        #expect(FrameEncoder.encode(.text, payload: payload, compressed: true) == hex("c1 07 f2 48 cd c9 c9 07 00"))
        #expect(FrameEncoder.encode(.text, payload: payload, compressed: true, maskingKey: 0x37FA_213D)
            == hex("c1 87 37 fa 21 3d c5 b2 ec f4 fe fd 21"))
    }

    /// RSV1 (0x40 in byte 0) is set by `compressed: true` and only then, by `encode` and `write` alike, masked or
    /// not, FIN set or clear, at every length form.
    @Test(arguments: [nil, 0x37FA_213D] as [UInt32?], [0, 7, 126, 70000])
    func compressedSetsRSV1OnEncodeAndAppend(_ key: UInt32?, _ length: Int) throws {
        let payload = (0 ..< length).map { UInt8(truncatingIfNeeded: $0 &* 11) }
        for opcode in [WebSocketOpcode.text, .binary] {
            for fin in [true, false] {
                let encoded = FrameEncoder.encode(opcode, payload: payload, fin: fin, compressed: true, maskingKey: key)
                #expect(encoded[0] == (fin ? 0x80 : 0) | 0x40 | opcode.rawValue)
                let written = written(payload) {
                    FrameEncoder.write(opcode, payload: $0, fin: fin, compressed: true, maskingKey: key, to: $1)
                }
                #expect(written == encoded, "write writes what encode does")
                let plain = FrameEncoder.encode(opcode, payload: payload, fin: fin, maskingKey: key)
                #expect(plain[0] & 0x40 == 0, "RSV1 clear unless compressed")
                #expect(Array(encoded[1...]) == Array(plain[1...]), "nothing else changes")
            }
        }
        // What a compressed frame is to a parser that negotiated the extension.
        var frame = FrameEncoder.encode(.binary, payload: payload, compressed: true, maskingKey: key)
        var parser = FrameParser(role: key == nil ? .client : .server, allowsCompression: true)
        let (header, received) = try parseOneFrame(&parser, &frame)
        #expect(header.compressed)
        #expect(received == payload)
    }

    @Test(arguments: [nil, 0x37FA_213D] as [UInt32?], [0, 5, 125, 126, 65535, 65536, 70000])
    func writeWritesTheSameFrameAsEncodeAndNothingMore(_ key: UInt32?, _ length: Int) {
        let payload = (0 ..< length).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let expected = FrameEncoder.encode(.binary, payload: payload, maskingKey: key)
        #expect(FrameEncoder.frameLength(payloadLength: length, masked: key != nil) == expected.count)
        // Written into the middle of a buffer: the bytes around the frame must stay as they were.
        var buffer = [UInt8](repeating: 0xA5, count: expected.count + 16)
        let count = buffer.withUnsafeMutableBytes { raw in
            payload.withUnsafeBytes { FrameEncoder.write(.binary, payload: $0, maskingKey: key, to: raw.baseAddress! + 8) }
        }
        #expect(count == expected.count)
        #expect(Array(buffer[8 ..< 8 + count]) == expected)
        #expect(buffer[..<8].allSatisfy { $0 == 0xA5 } && buffer[(8 + count)...].allSatisfy { $0 == 0xA5 })
    }

    /// The frame `write` puts into a buffer of exactly `frameLength` bytes.
    private func written(_ payload: [UInt8],
                         _ body: (UnsafeRawBufferPointer, UnsafeMutableRawPointer) -> Int) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: FrameEncoder.maxHeaderLength + payload.count)
        let count = buffer.withUnsafeMutableBytes { raw in payload.withUnsafeBytes { body($0, raw.baseAddress!) } }
        return Array(buffer[..<count])
    }
}
