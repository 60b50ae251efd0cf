/// A Word Scramble room's settings, validated against explicit bounds so the rooms layer can expose them to hosts.
///
/// Changing settings never alters a running match: `ScrambleGame.updateSettings(_:)` stores them for the next
/// one. Decoding fills missing keys with the defaults and throws `SettingsError` for out-of-range values.
///
/// Shown (`settings`, `nextSettings`) and saved alike: the four values under their names, in this order.
public struct ScrambleSettings: Hashable, Sendable, Encodable {
    enum CodingKeys: String, CodingKey { case rounds, roundSeconds, minWordLength, breakSeconds }

    /// Rounds in a match: 3-20, 6 by default.
    public static let roundsSpec = SettingSpec(
        key: "rounds", label: "Rounds", name: "Rounds per match", range: 3...20, initial: 6)
    /// A round's length: 30-300 seconds, 90 by default.
    public static let roundSecondsSpec = SettingSpec(
        key: "roundSeconds", label: "Round length", name: "Round length (seconds)", range: 30...300, step: 15,
        initial: 90, unit: "s")
    /// The shortest word accepted: 3-6 letters, 3 by default.
    public static let minWordLengthSpec = SettingSpec(
        key: "minWordLength", label: "Shortest word", name: "Minimum word length", range: 3...6, initial: 3,
        unit: "letters")
    /// The break between rounds: 5-60 seconds, 20 by default.
    public static let breakSecondsSpec = SettingSpec(
        key: "breakSeconds", label: "Break between rounds", name: "Break between rounds (seconds)", range: 5...60,
        step: 5, initial: 20, unit: "s")
    /// The numbers a host sets, in the order the settings show them.
    public static let specs = [roundsSpec, roundSecondsSpec, minWordLengthSpec, breakSecondsSpec]

    /// Allowed values of `rounds`.
    public static let roundsRange = roundsSpec.range
    /// Allowed values of `roundSeconds`.
    public static let roundSecondsRange = roundSecondsSpec.range
    /// Allowed values of `minWordLength`.
    public static let minWordLengthRange = minWordLengthSpec.range
    /// Allowed values of `breakSeconds`.
    public static let breakSecondsRange = breakSecondsSpec.range
    /// Default rounds per match.
    public static let defaultRounds = roundsSpec.initial
    /// Default round length in seconds.
    public static let defaultRoundSeconds = roundSecondsSpec.initial
    /// Default shortest accepted word.
    public static let defaultMinWordLength = minWordLengthSpec.initial
    /// Default intermission between rounds, in seconds.
    public static let defaultBreakSeconds = breakSecondsSpec.initial

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
        self.rounds = try Self.roundsSpec.check(rounds)
        self.roundSeconds = try Self.roundSecondsSpec.check(roundSeconds)
        self.minWordLength = try Self.minWordLengthSpec.check(minWordLength)
        self.breakSeconds = try Self.breakSecondsSpec.check(breakSeconds)
    }

    private init(checkedRounds: Int, roundSeconds: Int, minWordLength: Int, breakSeconds: Int) {
        self.rounds = checkedRounds
        self.roundSeconds = roundSeconds
        self.minWordLength = minWordLength
        self.breakSeconds = breakSeconds
    }
}
