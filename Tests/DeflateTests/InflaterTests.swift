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
}
