import Testing
@testable import Deflate

@Suite struct DeflaterTests {
    private let hello = Array("Hello".utf8)

    /// RFC 7692 §7.2.3.1: "Hello" as one compressed message.
    @Test func helloIsTheRFCsSevenBytes() throws {
        let deflater = try Deflater()
        #expect(deflater.compress(hello) == [0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00])
    }

    /// RFC 7692 §7.2.3.2: with context takeover the second "Hello" refers back to the first.
    @Test func contextTakeoverShrinksARepeatedMessage() throws {
        let deflater = try Deflater()
        _ = deflater.compress(hello)
        #expect(deflater.compress(hello) == [0xF2, 0x00, 0x11, 0x00, 0x00])
    }

    @Test func noContextTakeoverCompressesEveryMessageAlike() throws {
        let deflater = try Deflater(resetsContext: true)
        #expect(deflater.compress(hello) == deflater.compress(hello))
    }

    /// RFC 7692 §7.2.3.6: an empty message is one byte.
    @Test func anEmptyMessageIsOneByte() throws {
        let deflater = try Deflater()
        let inflater = try Inflater()
        #expect(deflater.compress([]) == [0x00])
        // Also after another message, when zlib itself would write nothing.
        #expect(try inflater.decompress(deflater.compress(hello), maxBytes: 10, resetContext: false) == hello)
        #expect(deflater.compress([]) == [0x00])
        #expect(try inflater.decompress([0x00], maxBytes: 10, resetContext: false).isEmpty)
        #expect(try inflater.decompress(deflater.compress(hello), maxBytes: 10, resetContext: false) == hello)
    }

    @Test func largeAndRepetitiveMessagesRoundTrip() throws {
        let deflater = try Deflater(windowBits: 10)
        let inflater = try Inflater(windowBits: 10)
        let patch = Array(#"[{"op":"replace","path":"/snowman/turn","value":"p2"},{"op":"add","path":"/chat/-","value":{"text":"hi"}}]"#.utf8)
        for round in 0..<50 {
            let message = Array(repeating: patch, count: round % 7 + 1).flatMap { $0 } + Array("\(round)".utf8)
            let compressed = deflater.compress(message)
            #expect(try inflater.decompress(compressed, maxBytes: 1 << 20, resetContext: false) == message)
        }
        var random = SystemRandomNumberGenerator()
        let noise = (0..<200_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        #expect(try inflater.decompress(deflater.compress(noise), maxBytes: 1 << 20, resetContext: false) == noise)
    }

    // MARK: restart()

    /// Messages that repeat what came before, so that with context takeover they refer back to it.
    private static let patches = (0..<6).map { round in
        Array(#"[{"op":"replace","path":"/snowman/guessed","value":"aeiou"},{"op":"replace","path":"/turn","value":"p\#(round % 3)"}]"#.utf8)
    }

    @Test func withoutRestartAFreshInflaterCannotReadALaterMessage() throws {
        let deflater = try Deflater()
        let inflater = try Inflater()
        for patch in Self.patches.dropLast() {
            #expect(try inflater.decompress(deflater.compress(patch), maxBytes: 1 << 16, resetContext: false) == patch)
        }
        let later = deflater.compress(Self.patches.last!)
        #expect(later.count < Self.patches.last!.count / 4, "it refers back to the earlier messages")
        #expect(throws: Inflater.Failure.corrupt) {
            try Inflater().decompress(later, maxBytes: 1 << 16, resetContext: false)
        }
        // The inflater that saw them all reads it.
        #expect(try inflater.decompress(later, maxBytes: 1 << 16, resetContext: false) == Self.patches.last!)
    }

    @Test func afterRestartAMessageRefersToNothingEarlier() throws {
        let deflater = try Deflater(windowBits: 11, memoryLevel: 1)
        let following = try Inflater(windowBits: 11)
        for patch in Self.patches.dropLast() {
            #expect(try following.decompress(deflater.compress(patch), maxBytes: 1 << 16, resetContext: false) == patch)
        }
        deflater.restart()
        let fresh = deflater.compress(Self.patches.last!)
        // A fresh inflater reads it, and so does one whose window holds something else entirely.
        #expect(try Inflater(windowBits: 11).decompress(fresh, maxBytes: 1 << 16, resetContext: false)
            == Self.patches.last!)
        let elsewhere = try Inflater(windowBits: 11)
        let other = try Deflater(windowBits: 11)
        let noise = Array("an unrelated message the other stream sent, twice: an unrelated message".utf8)
        #expect(try elsewhere.decompress(other.compress(noise), maxBytes: 1 << 16, resetContext: false) == noise)
        #expect(try elsewhere.decompress(fresh, maxBytes: 1 << 16, resetContext: false) == Self.patches.last!)
        // A receiver that followed the stream all along still reads it, and what comes after.
        #expect(try following.decompress(fresh, maxBytes: 1 << 16, resetContext: false) == Self.patches.last!)
        let next = deflater.compress(Self.patches[0])
        #expect(next.count < Self.patches[0].count / 4, "after the restart the window fills again")
        #expect(try following.decompress(next, maxBytes: 1 << 16, resetContext: false) == Self.patches[0])
        #expect(try elsewhere.decompress(next, maxBytes: 1 << 16, resetContext: false) == Self.patches[0])
    }
}
