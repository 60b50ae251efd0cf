/// A Word Scramble room's settings, validated against explicit bounds so the rooms layer can expose them to hosts.
///
/// Changing settings never alters a running match: `ScrambleGame.updateSettings(_:)` stores them for the next
/// one. Decoding fills missing keys with the defaults and throws `SettingsError` for out-of-range values.
public struct ScrambleSettings: Hashable, Sendable {
    /// Allowed values of `rounds`.
    public static let roundsRange: ClosedRange<Int> = 3...20
    /// Allowed values of `roundSeconds`.
    public static let roundSecondsRange: ClosedRange<Int> = 30...300
    /// Allowed values of `minWordLength`.
    public static let minWordLengthRange: ClosedRange<Int> = 3...6
    /// Allowed values of `breakSeconds`.
    public static let breakSecondsRange: ClosedRange<Int> = 5...60
    /// Default rounds per match.
    public static let defaultRounds = 6
    /// Default round length in seconds.
    public static let defaultRoundSeconds = 90
    /// Default shortest accepted word.
    public static let defaultMinWordLength = 3
    /// Default intermission between rounds, in seconds.
    public static let defaultBreakSeconds = 20

    /// The defaults: 6 rounds of 90 seconds with 20-second breaks, words of 3 letters or more.
    public static let standard = ScrambleSettings(
        checkedRounds: defaultRounds, roundSeconds: defaultRoundSeconds, minWordLength: defaultMinWordLength,
        breakSeconds: defaultBreakSeconds)

    /// Rounds in a match (3-20, default 6).
    public let rounds: Int
    /// Length of a round in seconds (30-300, default 90).
    public let roundSeconds: Int
    /// Shortest word accepted (3-6, default 3).
    public let minWordLength: Int
    /// The intermission between two rounds in seconds (5-60, default 20); everyone pressing Ready ends it early.
    public let breakSeconds: Int

    /// Creates validated settings.
    ///
    /// - Parameters:
    ///   - rounds: Rounds in a match, 3-20.
    ///   - roundSeconds: Seconds per round, 30-300.
    ///   - minWordLength: Shortest accepted word, 3-6.
    ///   - breakSeconds: Seconds between rounds, 5-60.
    /// - Throws: `SettingsError` naming the first value out of range.
    public init(
        rounds: Int = ScrambleSettings.defaultRounds,
        roundSeconds: Int = ScrambleSettings.defaultRoundSeconds,
        minWordLength: Int = ScrambleSettings.defaultMinWordLength,
        breakSeconds: Int = ScrambleSettings.defaultBreakSeconds
    ) throws(SettingsError) {
        self.rounds = try SettingsError.check(
            rounds, in: Self.roundsRange, setting: "rounds", label: "Rounds per match")
        self.roundSeconds = try SettingsError.check(
            roundSeconds, in: Self.roundSecondsRange, setting: "roundSeconds",
            label: "Round length (seconds)")
        self.minWordLength = try SettingsError.check(
            minWordLength, in: Self.minWordLengthRange, setting: "minWordLength",
            label: "Minimum word length")
        self.breakSeconds = try SettingsError.check(
            breakSeconds, in: Self.breakSecondsRange, setting: "breakSeconds", label: "Break between rounds (seconds)")
    }

    private init(checkedRounds: Int, roundSeconds: Int, minWordLength: Int, breakSeconds: Int) {
        self.rounds = checkedRounds
        self.roundSeconds = roundSeconds
        self.minWordLength = minWordLength
        self.breakSeconds = breakSeconds
    }
}
