extension SplitMix64 {
    /// A number in 0..<1, from the top 53 bits (a `Double`'s precision): the bots' shares and jitter.
    public mutating func unit() -> Double {
        Double(next() >> 11) / Double(1 << 53)
    }
}
