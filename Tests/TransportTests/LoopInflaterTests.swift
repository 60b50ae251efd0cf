import Deflate
import Testing
import WebSocket
@testable import Transport

/// The inflater sessions use: the size cap, and the ratio bound beyond its floor, each said as what it is.
@Suite struct LoopInflaterTests {
    private func inflate(_ message: [UInt8], maxBytes: Int, maxRatio: Int = 256) throws(InflateFailure) -> Int {
        let compressed = try! Deflater().compress(message)
        let inflater = try! LoopInflater(windowBits: 15, resetsContext: true, maxRatio: maxRatio)
        var size = -1
        let result = compressed.withUnsafeBytes { bytes in
            Result { () throws(InflateFailure) in
                try inflater.inflate(bytes, maxBytes: maxBytes) { size = $0.count }
            }
        }
        try result.get()
        return size
    }

    @Test func smallMessagesPassWhateverTheirRatio() throws {
        // 60 KiB of one byte compresses about 1000:1, but stays under the 64 KiB floor.
        #expect(try inflate([UInt8](repeating: 0x61, count: 60 * 1024), maxBytes: 1 << 24) == 60 * 1024)
    }

    @Test func aBombBeyondTheFloorIsRefusedForItsRatio() {
        #expect(throws: InflateFailure.ratioExceeded(maxRatio: 256)) {
            try inflate([UInt8](repeating: 0, count: 1 << 20), maxBytes: 1 << 24)
        }
    }

    @Test func theFloorIsAQuarterOfASmallCap() throws {
        // A game socket's 16 KiB cap: 15,000 bytes of one byte (about 30 compressed, 500:1) pass the cap, not the
        // ratio; under a quarter of the cap the same bytes pass.
        #expect(LoopInflater.ratioFloor(maxBytes: 16 * 1024) == 4 * 1024)
        #expect(throws: InflateFailure.ratioExceeded(maxRatio: 256)) {
            try inflate([UInt8](repeating: 0x61, count: 15_000), maxBytes: 16 * 1024)
        }
        #expect(try inflate([UInt8](repeating: 0x61, count: 4_000), maxBytes: 16 * 1024) == 4_000)
    }

    @Test func theSizeCapIsReportedAsTheSizeCap() {
        // Under the floor the cap decides: 10 KiB against a cap of 4 KiB.
        #expect(throws: InflateFailure.tooLarge) {
            try inflate([UInt8](repeating: 0, count: 10 * 1024), maxBytes: 4096)
        }
    }

    @Test func aGenerousRatioLetsTheSameMessageThrough() throws {
        #expect(try inflate([UInt8](repeating: 0, count: 1 << 20), maxBytes: 1 << 24, maxRatio: 4096) == 1 << 20)
    }
}
