import Testing
import WebSocket

@Suite struct UTF8ValidatorTests {
    @Test(arguments: [
        ("empty", [] as [UInt8]),
        ("ASCII", Array("Hello, world! 0123456789 long enough for the word loop".utf8)),
        ("U+007F", hex("7f")), ("U+0080", hex("c2 80")), ("U+07FF", hex("df bf")),
        ("U+0800", hex("e0 a0 80")), ("U+D7FF", hex("ed 9f bf")), ("U+E000", hex("ee 80 80")),
        ("U+FFFF", hex("ef bf bf")), ("U+10000", hex("f0 90 80 80")), ("U+10FFFF", hex("f4 8f bf bf")),
        ("Greek", Array("κόσμε".utf8)), ("emoji", Array("👋🌍".utf8)),
    ])
    func acceptsValidUTF8(_ name: String, _ bytes: [UInt8]) {
        #expect(UTF8Validator.isValid(bytes), "\(name)")
    }

    @Test(arguments: [
        ("overlong 2-byte NUL", hex("c0 80")), ("overlong 2-byte via C1", hex("c1 bf")),
        ("overlong 3-byte", hex("e0 9f bf")), ("overlong 4-byte", hex("f0 8f bf bf")),
        ("high surrogate U+D800", hex("ed a0 80")), ("low surrogate U+DFFF", hex("ed bf bf")),
        ("U+110000", hex("f4 90 80 80")), ("F5 lead", hex("f5 80 80 80")), ("FF byte", hex("ff")),
        ("lone continuation", hex("80")), ("truncated 2-byte", hex("c2")), ("truncated 3-byte", hex("e2 82")),
        ("truncated 4-byte", hex("f0 9f 98")), ("ASCII where continuation expected", hex("e2 41 82")),
        ("bad byte after 8 ASCII bytes", Array("abcdefgh".utf8) + hex("ff")),
    ])
    func rejectsInvalidUTF8(_ name: String, _ bytes: [UInt8]) {
        #expect(!UTF8Validator.isValid(bytes), "\(name)")
    }

    @Test func isIncrementalAcrossEverySplit() {
        let text = Array("a κόσμε 👋 z".utf8)
        for cut in 0 ... text.count {
            var validator = UTF8Validator()
            let valid = text.withUnsafeBytes { bytes in
                validator.validate(UnsafeRawBufferPointer(rebasing: bytes[..<cut]))
                    && validator.validate(UnsafeRawBufferPointer(rebasing: bytes[cut...]))
            }
            #expect(valid, "split at \(cut)")
            #expect(validator.isComplete, "split at \(cut)")
        }
    }

    @Test func failsAtTheFirstBadByteWithoutWaitingForTheEnd() {
        var validator = UTF8Validator()
        #expect(hex("ce ba").withUnsafeBytes { validator.validate($0) })
        #expect(!hex("ed a0").withUnsafeBytes { validator.validate($0) }, "a surrogate's second byte is already bad")
        #expect(validator.hasFailed)
        #expect(!Array("fine".utf8).withUnsafeBytes { validator.validate($0) }, "failure is sticky")
        validator.reset()
        #expect(validator.isComplete && !validator.hasFailed)
    }

    @Test func reportsPendingSequenceAsIncomplete() {
        var validator = UTF8Validator()
        #expect(hex("f0 9f").withUnsafeBytes { validator.validate($0) })
        #expect(!validator.isComplete)
    }

    @Test func agreesWithTheStandardLibraryOnRandomInput() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0 ..< 2000 {
            let length = Int.random(in: 0 ... 24, using: &generator)
            // Bias towards bytes that form or nearly form multi-byte sequences.
            let bytes = (0 ..< length).map { _ in
                [UInt8.random(in: 0x00 ... 0x7F, using: &generator), UInt8.random(in: 0x80 ... 0xBF, using: &generator),
                 UInt8.random(in: 0xC0 ... 0xFF, using: &generator)][Int.random(in: 0 ... 2, using: &generator)]
            }
            let expected = String(validating: bytes, as: UTF8.self) != nil
            #expect(UTF8Validator.isValid(bytes) == expected, "\(hexString(bytes))")
        }
    }

    /// The all-ASCII shortcut sees a byte of 0x80 or more wherever it lies (in a 32-byte step, an 8-byte one or
    /// the last few bytes), and what is not ASCII still gets the full check.
    @Test(arguments: [0, 1, 7, 8, 9, 31, 32, 33, 40, 64, 71])
    func aNonASCIIByteAnywhereIsSeenAndChecked(_ length: Int) {
        let ascii = [UInt8](repeating: UInt8(ascii: "a"), count: length)
        #expect(UTF8Validator.isValid(ascii))
        for position in 0 ..< length {
            var stray = ascii
            stray[position] = 0x80
            #expect(!UTF8Validator.isValid(stray), "a stray continuation byte at \(position) of \(length)")
            guard position + 1 < length else { continue }
            var accented = ascii
            accented[position] = 0xC3
            accented[position + 1] = 0xA9
            #expect(UTF8Validator.isValid(accented), "é at \(position) of \(length)")
        }
    }
}
