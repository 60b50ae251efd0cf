import Testing
@testable import Bots

@Suite struct FanoutPayloadTests {
    private func parse(_ bytes: [UInt8]) -> FanoutPayload? {
        bytes.withUnsafeBytes { FanoutPayload(parsing: $0) }
    }

    @Test func aStampedTemplateReadsBack() throws {
        var bytes = FanoutPayload.template(size: 200)
        let payload = FanoutPayload(sender: 4_017, sequence: 123_456, sentAt: 98_765_432_101_234)
        payload.write(into: &bytes)
        #expect(bytes.count == 200)
        #expect(parse(bytes) == payload)
        #expect(String(decoding: bytes.prefix(FanoutPayload.headerBytes), as: UTF8.self)
                == "f00004017 0000123456 00000098765432101234 ")
        #expect(bytes.dropFirst(FanoutPayload.headerBytes).allSatisfy { $0 == UInt8(ascii: "x") })
    }

    @Test func restampingOverwritesTheHeaderOnly() {
        var bytes = FanoutPayload.template(size: 60)
        FanoutPayload(sender: 99_999_999, sequence: 9_999_999_999, sentAt: UInt64.max).write(into: &bytes)
        let second = FanoutPayload(sender: 1, sequence: 2, sentAt: 3)
        second.write(into: &bytes)
        #expect(parse(bytes) == second)
    }

    @Test func theSmallestMessageIsTheHeader() {
        var bytes = FanoutPayload.template(size: FanoutPayload.headerBytes)
        let payload = FanoutPayload(sender: 7, sequence: 0, sentAt: 42)
        payload.write(into: &bytes)
        #expect(parse(bytes) == payload)
    }

    @Test(arguments: [
        // Cut inside the header.
        Array("f00000001 0000000002 0000000000000000".utf8),
        // Not a fanout message: another marker.
        Array("e00000001 0000000002 00000000000000000003 xxxx".utf8),
        // A letter where a digit belongs.
        Array("f0000000a 0000000002 00000000000000000003 xxxx".utf8),
        // No separator after the sender.
        Array("f000000010000000002 00000000000000000003 xxxxx".utf8),
        // Padding changed at the end (a relay that cut or altered the message).
        Array("f00000001 0000000002 00000000000000000003 xxxy".utf8),
    ])
    func refusesWhatIsNotAFanoutMessage(bytes: [UInt8]) {
        #expect(parse(bytes) == nil)
    }
}
