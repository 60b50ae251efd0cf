import Testing
@testable import Bots

@Suite struct EchoBotTests {
    private func stamped(_ sequence: Int, size: Int = 32) -> [UInt8] {
        var payload = [UInt8](repeating: UInt8(ascii: "x"), count: size)
        payload.withUnsafeMutableBytes { EchoBot.stamp(sequence: sequence, into: $0) }
        return payload
    }

    private func matches(_ text: UnsafeRawBufferPointer, _ expected: [UInt8]) -> Bool {
        expected.withUnsafeBytes { EchoBot.matches(text, $0) }
    }

    @Test func stampedPayloadMatchesOnlyItsOwnSequence() {
        let payload = stamped(4711)
        #expect(String(decoding: payload.prefix(14), as: UTF8.self) == "000000004711xx")
        payload.withUnsafeBytes { bytes in
            #expect(matches(bytes, stamped(4711)))
            #expect(!matches(bytes, stamped(4712)))
            #expect(!matches(bytes, stamped(4711, size: 33)))
        }
    }

    @Test func shortPayloadsKeepTheLowDigits() {
        let payload = stamped(12345, size: 3)
        #expect(payload == Array("345".utf8))
        payload.withUnsafeBytes { bytes in
            #expect(matches(bytes, stamped(12345, size: 3)))
        }
    }

    @Test func aChangedTailIsAMismatch() {
        var payload = stamped(1, size: 40)
        payload[20] = UInt8(ascii: "y")
        payload.withUnsafeBytes { bytes in
            #expect(!matches(bytes, stamped(1, size: 40)))
        }
    }

    /// Counting up in place gives what stamping the next number gives, carries and the wrap included.
    @Test(arguments: [0, 8, 9, 99, 4711, 999_999, 999_999_999_999, 1_000_000_000_000], [32, 3, 12, 0])
    func incrementIsStampingTheNextNumber(_ sequence: Int, _ size: Int) {
        var payload = stamped(sequence, size: size)
        payload.withUnsafeMutableBytes { EchoBot.increment($0) }
        #expect(payload == stamped(sequence + 1, size: size))
    }

    @Test func emptyMessagesMatchEmptyOnes() {
        [UInt8]().withUnsafeBytes { bytes in
            #expect(matches(bytes, []))
            #expect(!matches(bytes, [1]))
        }
    }
}
