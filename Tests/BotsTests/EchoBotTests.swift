import Testing
@testable import Bots

@Suite struct EchoBotTests {
    @Test func stampedPayloadMatchesOnlyItsOwnSequence() {
        var payload = [UInt8](repeating: UInt8(ascii: "x"), count: 32)
        EchoBot.stamp(sequence: 4711, into: &payload)
        #expect(String(decoding: payload.prefix(14), as: UTF8.self) == "000000004711xx")
        payload.withUnsafeBytes { bytes in
            #expect(EchoBot.matches(bytes, sequence: 4711, size: 32))
            #expect(!EchoBot.matches(bytes, sequence: 4712, size: 32))
            #expect(!EchoBot.matches(bytes, sequence: 4711, size: 33))
        }
    }

    @Test func shortPayloadsKeepTheLowDigits() {
        var payload = [UInt8](repeating: UInt8(ascii: "x"), count: 3)
        EchoBot.stamp(sequence: 12345, into: &payload)
        #expect(payload == Array("345".utf8))
        payload.withUnsafeBytes { bytes in
            #expect(EchoBot.matches(bytes, sequence: 12345, size: 3))
        }
    }

    @Test func aChangedTailIsAMismatch() {
        var payload = [UInt8](repeating: UInt8(ascii: "x"), count: 40)
        EchoBot.stamp(sequence: 1, into: &payload)
        payload[39] = UInt8(ascii: "y")
        payload.withUnsafeBytes { bytes in
            #expect(!EchoBot.matches(bytes, sequence: 1, size: 40))
        }
    }
}
