import Testing
@testable import Deflate

@Suite struct InflaterTests {
    private let hello = Array("Hello".utf8)

    /// The payloads of RFC 7692 §7.2.3: each inflates to "Hello".
    @Test(arguments: [
        // §7.2.3.1: compressed with fixed Huffman codes.
        [0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00],
        // §7.2.3.3: a stored ("no compression") block.
        [0x00, 0x05, 0x00, 0xFA, 0xFF, 0x48, 0x65, 0x6C, 0x6C, 0x6F, 0x00],
        // §7.2.3.4: the same with BFINAL set.
        [0xF3, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00, 0x00],
        // §7.2.3.5: two deflate blocks in one message.
        [0xF2, 0x48, 0x05, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xCA, 0xC9, 0xC9, 0x07, 0x00],
    ] as [[UInt8]])
    func theRFCsExamplesInflateToHello(payload: [UInt8]) throws {
        let inflater = try Inflater()
        #expect(try inflater.decompress(payload, maxBytes: 100, resetContext: false) == hello)
        // And the stream is ready for the next message.
        #expect(try inflater.decompress([0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00], maxBytes: 100, resetContext: false) == hello)
    }

    /// RFC 7692 §7.2.3.2: the second message refers to the first one's window.
    @Test func contextTakeoverIsFollowed() throws {
        let inflater = try Inflater()
        _ = try inflater.decompress([0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00], maxBytes: 100, resetContext: false)
        #expect(try inflater.decompress([0xF2, 0x00, 0x11, 0x00, 0x00], maxBytes: 100, resetContext: false) == hello)
    }

    @Test func aResetContextCannotResolveABackReference() throws {
        let inflater = try Inflater()
        _ = try inflater.decompress([0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00], maxBytes: 100, resetContext: true)
        #expect(throws: Inflater.Failure.corrupt) {
            try inflater.decompress([0xF2, 0x00, 0x11, 0x00, 0x00], maxBytes: 100, resetContext: false)
        }
    }

    /// A deflate bomb: a megabyte of zeros in about a kilobyte stops at the limit.
    @Test func theInflatedSizeIsBoundedWhileInflating() throws {
        let bomb = try Deflater().compress([UInt8](repeating: 0, count: 1 << 20))
        #expect(bomb.count < 2048)
        let inflater = try Inflater()
        #expect(throws: Inflater.Failure.tooLarge) { try inflater.decompress(bomb, maxBytes: 16 * 1024, resetContext: false) }
        // A failure leaves a fresh stream behind, not a broken one.
        #expect(try inflater.decompress([0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00], maxBytes: 100, resetContext: false) == hello)
    }

    @Test func garbageIsCorrupt() throws {
        let inflater = try Inflater()
        // BTYPE 11 is reserved (RFC 1951 §3.2.3).
        #expect(throws: Inflater.Failure.corrupt) { try inflater.decompress([0xFF, 0xFF, 0xFF], maxBytes: 100, resetContext: false) }
    }

    // MARK: The pointer variant and its output buffer

    @Test func thePointerVariantPassesTheMessageToBodyAndReturnsWhatBodyReturns() throws {
        let inflater = try Inflater()
        let payload: [UInt8] = [0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]
        let result = try payload.withUnsafeBytes { bytes in
            try inflater.decompress(bytes, maxBytes: 100, resetContext: false) { message in
                (Array(message), message.count)
            }
        }
        #expect(result.0 == hello)
        #expect(result.1 == 5)
    }

    /// The inflated message goes to one buffer kept from message to message: no allocation once it has grown.
    @Test func theOutputBufferIsReusedAcrossMessages() throws {
        let deflater = try Deflater()
        let inflater = try Inflater()
        // 3000 bytes grow the buffer beyond its first kilobyte; the next messages fit in it.
        let messages = (0..<5).map { round in (0..<(3000 - round * 100)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ round) } }
        var buffers: Set<UnsafeRawPointer?> = []
        var capacities: Set<Int> = []
        for message in messages {
            let compressed = deflater.compress(message)
            let inflated = try compressed.withUnsafeBytes { bytes in
                try inflater.decompress(bytes, maxBytes: 1 << 20, resetContext: false) { output in
                    buffers.insert(output.baseAddress)
                    return Array(output)
                }
            }
            #expect(inflated == message)
            capacities.insert(inflater.outputCapacity)
        }
        #expect(buffers.count == 1, "every message was inflated into the same buffer")
        #expect(capacities.count == 1 && capacities.first! >= 3000)
    }

    @Test func aBigMessagesBufferIsGivenBackAfterwards() throws {
        let deflater = try Deflater()
        let inflater = try Inflater()
        let small = inflater.outputCapacity
        let big = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 / 3) }
        #expect(try inflater.decompress(deflater.compress(big), maxBytes: 1 << 20, resetContext: false) == big)
        #expect(inflater.outputCapacity == small, "shrunk once the message was delivered")
        // The window is kept all the same: a message referring back to the big one still inflates.
        let tail = Array(big.suffix(1000))
        #expect(try inflater.decompress(deflater.compress(tail), maxBytes: 1 << 20, resetContext: false) == tail)
        // After a failure too.
        #expect(throws: Inflater.Failure.tooLarge) {
            try inflater.decompress(deflater.compress(big), maxBytes: 200_000, resetContext: false)
        }
        #expect(inflater.outputCapacity == small)
    }

    /// `maxBytes` is the largest message accepted: exactly its size passes, one byte less does not, whether
    /// the message fits the first buffer, ends at a growth step or needs several.
    @Test(arguments: [1, 5, 1023, 1024, 1025, 2048, 5000, 65536, 100_000])
    func maxBytesIsInclusive(_ size: Int) throws {
        let message = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 7) }
        let compressed = try Deflater(resetsContext: true).compress(message)
        let inflater = try Inflater()
        #expect(try inflater.decompress(compressed, maxBytes: size, resetContext: true) == message, "at the size")
        #expect(throws: Inflater.Failure.tooLarge, "one below") {
            try inflater.decompress(compressed, maxBytes: size - 1, resetContext: true)
        }
        #expect(try inflater.decompress(compressed, maxBytes: size, resetContext: true) == message, "fresh after")
    }

    @Test func anEmptyMessageFitsAZeroLimit() throws {
        let inflater = try Inflater()
        // RFC 7692 §7.2.3.6: the empty message.
        #expect(try inflater.decompress([0x00], maxBytes: 0, resetContext: false).isEmpty)
        #expect(throws: Inflater.Failure.tooLarge) {
            try inflater.decompress([0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00], maxBytes: 0, resetContext: false)
        }
    }
}
