import Testing
@testable import WebSocket

@Suite struct MaskingTests {
    @Test func matchesBytewiseReferenceForEveryLengthAndPosition() {
        let key: UInt32 = 0x37FA_213D
        let keyBytes = hex("37 fa 21 3d")
        for length in 0 ..< 80 {
            let payload = (0 ..< length).map { UInt8(truncatingIfNeeded: $0 &* 11 &+ 3) }
            for position in 0 ..< 4 {
                var masked = payload
                masked.withUnsafeMutableBytes { Masking.apply(key: key, position: position, to: $0) }
                #expect(masked == referenceMask(payload, key: keyBytes, position: position),
                        "length \(length), position \(position)")
            }
        }
    }

    @Test func maskingInChunksEqualsMaskingWhole() {
        let key: UInt32 = 0xDEAD_BEEF
        let payload = (0 ..< 100).map { UInt8($0) }
        var whole = payload
        whole.withUnsafeMutableBytes { Masking.apply(key: key, position: 0, to: $0) }
        for cut in 0 ... 100 {
            var chunked = payload
            chunked.withUnsafeMutableBytes { buffer in
                Masking.apply(key: key, position: 0, to: UnsafeMutableRawBufferPointer(rebasing: buffer[..<cut]))
                Masking.apply(key: key, position: cut, to: UnsafeMutableRawBufferPointer(rebasing: buffer[cut...]))
            }
            #expect(chunked == whole, "split at \(cut)")
        }
    }

    @Test func maskingTwiceRestoresThePayload() {
        let payload = Array("Hello, masking".utf8)
        var bytes = payload
        bytes.withUnsafeMutableBytes { Masking.apply(key: 0x1234_5678, position: 1, to: $0) }
        #expect(bytes != payload)
        bytes.withUnsafeMutableBytes { Masking.apply(key: 0x1234_5678, position: 1, to: $0) }
        #expect(bytes == payload)
    }
}
