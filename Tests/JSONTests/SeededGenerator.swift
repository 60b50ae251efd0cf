import WordGames

/// The randomized tests' generator: seeded, so a test that fails reproduces from the seed in its failure message.
typealias SeededGenerator = SplitMix64
