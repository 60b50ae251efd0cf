import Testing
import WebSocket

@Suite struct Base64Tests {
    /// RFC 4648 §10 test vectors.
    @Test(arguments: [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="),
                      ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")])
    func matchesRFC4648Vectors(_ plain: String, _ encoded: String) {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(Base64.decode(encoded) == Array(plain.utf8))
    }

    @Test func roundTripsEveryLengthAndByte() {
        for length in 0 ..< 70 {
            let bytes = (0 ..< length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ length) }
            let encoded = Base64.encode(bytes)
            #expect(encoded.utf8.count == (length + 2) / 3 * 4)
            #expect(Base64.decode(encoded) == bytes, "length \(length)")
        }
        let all = (0 ... 255).map { UInt8($0) }
        #expect(Base64.decode(Base64.encode(all)) == all)
    }

    @Test(arguments: ["Zg", "Zg=", "Z===", "====", "Zg==Zg==", "Zm9v\n", " Zm9v", "Zm9-", "Zm9_", "Zh==",
                      "Zm9=", "Zm=v", "=m9v", "Zm9vY", "dGhlIHNhbXBsZSBub25jZQ"])
    func rejectsMalformedOrNonCanonicalText(_ text: String) {
        #expect(Base64.decode(text) == nil, "\(text)")
    }

    @Test func decodesTheRFC6455SampleNonceToSixteenBytes() {
        #expect(Base64.decode("dGhlIHNhbXBsZSBub25jZQ==") == Array("the sample nonce".utf8))
    }
}
