/// SHA-1 (FIPS 180-4), incremental.
///
/// RFC 6455 §4.2.2 derives `Sec-WebSocket-Accept` from a SHA-1 digest. We ship our own because this module
/// imports nothing (no Foundation, no crypto library) and the handshake is its only use. SHA-1 is broken for
/// collision resistance, which does not matter here: the accept key only proves the server read the request.
public struct SHA1: Sendable {
    /// The digest size in bytes.
    public static let digestLength = 20
    private static let blockLength = 64

    private var h0: UInt32 = 0x6745_2301
    private var h1: UInt32 = 0xEFCD_AB89
    private var h2: UInt32 = 0x98BA_DCFE
    private var h3: UInt32 = 0x1032_5476
    private var h4: UInt32 = 0xC3D2_E1F0
    /// Bytes not yet compressed (less than one block).
    private var pending: [UInt8] = []
    /// Total message length in bytes.
    private var length: UInt64 = 0

    /// A fresh hash of the empty message.
    public init() {}

    /// Appends bytes to the message.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard var base = bytes.baseAddress else { return }
        var count = bytes.count
        length &+= UInt64(count)
        if !pending.isEmpty {
            let take = min(Self.blockLength - pending.count, count)
            pending.append(contentsOf: UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: take))
            base += take
            count -= take
            if pending.count < Self.blockLength { return }
            pending.withUnsafeBytes { compress($0.baseAddress!) }
            pending.removeAll(keepingCapacity: true)
        }
        while count >= Self.blockLength {
            compress(base)
            base += Self.blockLength
            count -= Self.blockLength
        }
        if count > 0 {
            pending.append(contentsOf: UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: count))
        }
    }

    /// Appends bytes to the message.
    public mutating func update(_ bytes: some Collection<UInt8>) {
        if bytes.withContiguousStorageIfAvailable({ update(UnsafeRawBufferPointer($0)) }) == nil {
            Array(bytes).withUnsafeBytes { update($0) }
        }
    }

    /// The digest of everything appended so far (the hash itself is left unchanged).
    public func finalize() -> [UInt8] {
        var copy = self
        // FIPS 180-4 §5.1.1: a 1 bit, zeros up to 56 mod 64 bytes, then the bit length as a 64-bit big-endian.
        let bitLength = length &* 8
        var padding: [UInt8] = [0x80]
        let afterMarker = (pending.count + 1) % Self.blockLength
        let zeros = afterMarker <= 56 ? 56 - afterMarker : 56 + Self.blockLength - afterMarker
        padding.append(contentsOf: repeatElement(0, count: zeros))
        for shift in stride(from: 56, through: 0, by: -8) {
            padding.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        padding.withUnsafeBytes { copy.update($0) }
        assert(copy.pending.isEmpty)
        var digest: [UInt8] = []
        digest.reserveCapacity(Self.digestLength)
        for word in [copy.h0, copy.h1, copy.h2, copy.h3, copy.h4] {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        return digest
    }

    /// The digest of `bytes`.
    public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var sha = SHA1()
        sha.update(bytes)
        return sha.finalize()
    }

    /// FIPS 180-4 §6.1.2: one 64-byte block, with the 80-word schedule kept as a rolling 16-word window.
    private mutating func compress(_ block: UnsafeRawPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 16) { w in
            for i in 0..<16 {
                w[i] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))
            }
            var a = h0, b = h1, c = h2, d = h3, e = h4
            for t in 0..<80 {
                let word: UInt32
                if t < 16 {
                    word = w[t]
                } else {
                    let mixed = w[(t - 3) & 15] ^ w[(t - 8) & 15] ^ w[(t - 14) & 15] ^ w[t & 15]
                    word = (mixed << 1) | (mixed >> 31)
                    w[t & 15] = word
                }
                let f: UInt32, k: UInt32
                switch t {
                case 0..<20: f = (b & c) | (~b & d); k = 0x5A82_7999
                case 20..<40: f = b ^ c ^ d; k = 0x6ED9_EBA1
                case 40..<60: f = (b & c) | (b & d) | (c & d); k = 0x8F1B_BCDC
                default: f = b ^ c ^ d; k = 0xCA62_C1D6
                }
                let temp = ((a << 5) | (a >> 27)) &+ f &+ e &+ k &+ word
                e = d
                d = c
                c = (b << 30) | (b >> 2)
                b = a
                a = temp
            }
            h0 &+= a
            h1 &+= b
            h2 &+= c
            h3 &+= d
            h4 &+= e
        }
    }
}
