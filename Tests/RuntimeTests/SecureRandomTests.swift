import Testing
import Runtime

/// Room codes, keys and seeds come from getrandom(2) through `SecureRandom`.
@Suite struct SecureRandomTests {
    @Test(arguments: [0, 1, 7, 12, 64, 4096])
    func fillsBuffersOfAnySize(count: Int) {
        let bytes = SecureRandom.bytes(count)
        #expect(bytes.count == count)
        if count >= 64 {
            // 64 zero bytes from a working source: a chance of 2^-512.
            #expect(bytes.contains { $0 != 0 })
        }
    }

    @Test func drawsDifferentValuesEachTime() {
        var generator = SecureRandom()
        let values = (0..<1_000).map { _ in generator.next() }
        // 1,000 draws of 64 bits: a repeat has a chance of about 2.7e-14.
        #expect(Set(values).count == values.count)
        // Every bit position takes both values somewhere.
        let ored = values.reduce(0, |)
        let anded = values.reduce(~0, &)
        #expect(ored == ~0 && anded == 0)
    }

    @Test func servesAsARandomNumberGenerator() {
        var generator = SecureRandom()
        let picks = Set((0..<200).map { _ in Int.random(in: 0..<4, using: &generator) })
        #expect(picks == [0, 1, 2, 3])
    }
}
