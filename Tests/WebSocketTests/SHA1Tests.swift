import Testing
import WebSocket

@Suite struct SHA1Tests {
    @Test(arguments: [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        // FIPS 180 example: the 448-bit message.
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
        ("The quick brown fox jumps over the lazy dog", "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12"),
    ])
    func matchesKnownDigests(_ message: String, _ digest: String) {
        #expect(hexString(SHA1.hash(Array(message.utf8))) == digest)
    }

    @Test func hashesOneMillionAs() {
        var sha = SHA1()
        let thousand = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0 ..< 1000 { sha.update(thousand) }
        #expect(hexString(sha.finalize()) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    /// Digests of bytes i % 251 around the padding boundaries (55/56 bytes need one or two final blocks).
    @Test(arguments: [
        (55, "8ae2d46729cfe68ff927af5eec9c7d1b66d65ac2"), (56, "636e2ec698dac903498e648bd2f3af641d3c88cb"),
        (57, "7cb1330f35244b57437539253304ea78a6b7c443"), (63, "6d942da0c4392b123528f2905c713a3ce28364bd"),
        (64, "c6138d514ffa2135bfce0ed0b8fac65669917ec7"), (65, "69bd728ad6e13cd76ff19751fde427b00e395746"),
        (119, "41c89d06001bab4ab78736b44efe7ce18ce6ae08"), (120, "d3dbd653bd8597b7475321b60a36891278e6a04a"),
        (128, "e6434bc401f98603d7eda504790c98c67385d535"), (1000, "c9c960a0b925474fab83942cc27d504fc24ac37b"),
    ])
    func handlesPaddingBoundaries(_ length: Int, _ digest: String) {
        let message = (0 ..< length).map { UInt8($0 % 251) }
        #expect(hexString(SHA1.hash(message)) == digest)
    }

    @Test func givesSameDigestForAnySplitOfUpdates() {
        let message = (0 ..< 200).map { UInt8($0 % 251) }
        let whole = SHA1.hash(message)
        for cut in stride(from: 0, through: 200, by: 7) {
            var sha = SHA1()
            sha.update(message[..<cut])
            sha.update(message[cut...])
            #expect(sha.finalize() == whole, "split at \(cut)")
        }
    }

    @Test func finalizeLeavesTheHashUsable() {
        var sha = SHA1()
        sha.update(Array("ab".utf8))
        _ = sha.finalize()
        sha.update(Array("c".utf8))
        #expect(hexString(sha.finalize()) == "a9993e364706816aba3e25717850c26c9cd0d89d")
    }
}
