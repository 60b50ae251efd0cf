import Testing
import WordGames

@Suite struct SplitMix64Tests {
    @Test func matchesReferenceOutputsForSeedZero() {
        var generator = SplitMix64(seed: 0)
        // First outputs of the reference splitmix64.c with x = 0.
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(generator.next() == 0x06C4_5D18_8009_454F)
    }

    @Test func sameSeedGivesSameSequence() {
        var first = SplitMix64(seed: 2024)
        var second = SplitMix64(seed: 2024)
        for _ in 0..<100 {
            #expect(first.next() == second.next())
        }
    }

    @Test func differentSeedsDiverge() {
        var first = SplitMix64(seed: 1)
        var second = SplitMix64(seed: 2)
        #expect((0..<10).map { _ in first.next() } != (0..<10).map { _ in second.next() })
    }

    @Test func savedStateResumesSequence() throws {
        var generator = SplitMix64(seed: 7)
        _ = generator.next()
        var restored = SplitMix64(seed: generator.state)
        #expect(restored.next() == generator.next())
    }

    @Test func seedsFromAnotherGenerator() {
        var source = SplitMix64(seed: 9)
        var expectedSource = SplitMix64(seed: 9)
        let derived = SplitMix64(seededFrom: &source)
        #expect(derived == SplitMix64(seed: expectedSource.next()))
    }
}
