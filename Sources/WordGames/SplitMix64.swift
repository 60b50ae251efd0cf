/// A small, fast, seedable random number generator (Steele, Lea and Flood's SplitMix64).
///
/// The rules never create randomness themselves: the rooms layer owns one of these per room (seeded from
/// `SystemRandomNumberGenerator`, or from a fixed seed to replay a game) and passes it to the calls that pick words.
/// The same seed and the same sequence of calls give the same words. It is not cryptographically secure, which
/// the games do not need.
public struct SplitMix64: RandomNumberGenerator, Hashable, Sendable {
    /// The golden-ratio increment that SplitMix64 adds on every step.
    private static let increment: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// The generator's whole state; saving it and restoring it resumes the same sequence.
    public private(set) var state: UInt64

    /// Creates a generator whose sequence is fully determined by `seed`.
    ///
    /// - Parameter seed: Any value; 0 is fine.
    public init(seed: UInt64) {
        state = seed
    }

    /// Creates a generator seeded from another generator, e.g. `SystemRandomNumberGenerator` for live rooms.
    ///
    /// - Parameter generator: The source of the seed.
    public init(seededFrom generator: inout some RandomNumberGenerator) {
        state = generator.next()
    }

    /// Returns the next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= Self.increment
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
