import Testing
import Transport

/// Which of the machine's addresses the start line offers friends on the same network.
@Suite struct InterfaceAddressesTests {
    @Test(arguments: [
        ([192, 168, 1, 20], true), ([10, 0, 0, 7], true), ([192, 0, 2, 2], true), ([172, 16, 5, 1], true),
        ([127, 0, 0, 1], false), ([127, 1, 2, 3], false), ([169, 254, 10, 1], false), ([0, 0, 0, 0], false),
    ] as [([UInt8], Bool)])
    func ipv4(_ bytes: [UInt8], _ shareable: Bool) {
        #expect(InterfaceAddresses.isShareable(bytes) == shareable)
    }

    @Test func ipv6() {
        func address(_ head: [UInt8], _ tail: [UInt8] = []) -> [UInt8] {
            head + [UInt8](repeating: 0, count: 16 - head.count - tail.count) + tail
        }
        #expect(InterfaceAddresses.isShareable(address([0xFD, 0x00], [0x02])), "a unique local address (fd00::2)")
        #expect(InterfaceAddresses.isShareable(address([0x20, 0x01, 0x0D, 0xB8], [0x01])), "a global one")
        #expect(!InterfaceAddresses.isShareable(address([], [0x01])), "::1")
        #expect(!InterfaceAddresses.isShareable(address([])), "::")
        #expect(!InterfaceAddresses.isShareable(address([0xFE, 0x80], [0x01])), "fe80::1, link-local")
        #expect(!InterfaceAddresses.isShareable(address([0xFE, 0xBF], [0x01])), "still inside fe80::/10")
        #expect(InterfaceAddresses.isShareable(address([0xFE, 0xC0], [0x01])), "just outside fe80::/10")
        #expect(!InterfaceAddresses.isShareable(address([], [0xFF, 0xFF, 192, 168, 1, 2])), "IPv4-mapped")
        #expect(!InterfaceAddresses.isShareable([1, 2, 3]), "not an address")
    }

    @Test func urlsBracketIPv6() {
        #expect(InterfaceAddresses.url("192.168.1.20", port: 8080) == "http://192.168.1.20:8080/")
        #expect(InterfaceAddresses.url("fd00::2", port: 8080) == "http://[fd00::2]:8080/")
    }

    @Test func whatTheMachineHasIsNumericAndShareable() {
        for address in InterfaceAddresses.shareable(includingIPv6: true) {
            #expect(!address.hasPrefix("127.") && address != "::1" && !address.lowercased().hasPrefix("fe80"))
        }
        #expect(InterfaceAddresses.shareable(includingIPv6: false).allSatisfy { !$0.contains(":") })
    }
}
