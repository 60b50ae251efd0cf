import Testing
@testable import Rooms
import WordGames

/// The journal's checksum: the standard check value, and the sliced loop against the bit-by-bit definition at
/// every length around its eight-byte step.
@Suite struct CRC32Tests {
    /// CRC-32/ISO-HDLC bit by bit, as the polynomial defines it.
    private static func reference(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }

    @Test func checkValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([]) == 0)
        #expect(CRC32.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
    }

    @Test func matchesTheDefinitionAtEveryLength() {
        var random = SplitMix64(seed: 7)
        for length in 0..<70 {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            #expect(CRC32.checksum(bytes) == Self.reference(bytes), "length \(length)")
        }
        let large = (0..<10_003).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        #expect(CRC32.checksum(large) == Self.reference(large))
    }

    @Test func aFlippedBitChangesIt() {
        var bytes = Array(repeating: UInt8(0x5A), count: 64)
        let before = CRC32.checksum(bytes)
        bytes[37] ^= 0x10
        #expect(CRC32.checksum(bytes) != before)
    }
}
