/// XOR masking of payload bytes (RFC 6455 §5.3), shared by the encoder (client frames) and the parser (unmasking
/// in place), so the word-at-a-time loop exists once.
enum Masking {
    /// XORs `buffer` with `key`, in place.
    ///
    /// - Parameters:
    ///   - key: the masking key; its big-endian bytes are the 4 key bytes as they appear on the wire.
    ///   - position: how many payload bytes of this frame came before `buffer`, so a payload unmasked in chunks
    ///     continues the key where the previous chunk stopped (RFC 6455 §5.3: octet i uses key octet i MOD 4).
    ///   - buffer: the bytes to transform; masking and unmasking are the same operation.
    @inline(__always)
    static func apply(key: UInt32, position: Int, to buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        let shift = UInt32((position & 3) &* 8)
        let rotated = shift == 0 ? key : (key << shift) | (key >> (32 &- shift))
        // In memory the key repeats every 4 bytes; `.bigEndian` lays the wire order out in native memory order
        // on either endianness, and the same 4 bytes in both halves of a word keep that true 8 bytes at a time.
        let key32 = rotated.bigEndian
        let key64 = UInt64(key32) | (UInt64(key32) << 32)
        let count = buffer.count
        var index = 0
        while index &+ 32 <= count {
            let word0 = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let word1 = base.loadUnaligned(fromByteOffset: index &+ 8, as: UInt64.self)
            let word2 = base.loadUnaligned(fromByteOffset: index &+ 16, as: UInt64.self)
            let word3 = base.loadUnaligned(fromByteOffset: index &+ 24, as: UInt64.self)
            base.storeBytes(of: word0 ^ key64, toByteOffset: index, as: UInt64.self)
            base.storeBytes(of: word1 ^ key64, toByteOffset: index &+ 8, as: UInt64.self)
            base.storeBytes(of: word2 ^ key64, toByteOffset: index &+ 16, as: UInt64.self)
            base.storeBytes(of: word3 ^ key64, toByteOffset: index &+ 24, as: UInt64.self)
            index &+= 32
        }
        while index &+ 8 <= count {
            let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            base.storeBytes(of: word ^ key64, toByteOffset: index, as: UInt64.self)
            index &+= 8
        }
        // `index` is a multiple of 8 here, so the tail starts at key byte 0 of `rotated`.
        while index < count {
            let keyByte = UInt8(truncatingIfNeeded: rotated >> (24 &- UInt32(index & 3) &* 8))
            let byte = base.load(fromByteOffset: index, as: UInt8.self)
            base.storeBytes(of: byte ^ keyByte, toByteOffset: index, as: UInt8.self)
            index &+= 1
        }
    }
}
