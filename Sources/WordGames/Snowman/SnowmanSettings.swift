/// A Snowman room's settings, validated against explicit bounds so the rooms layer can expose them to hosts.
///
/// Changing settings never alters a running game: `SnowmanGame.updateSettings(_:)` stores them for the next one.
/// Encodes as `{"maxWrongGuesses": 7, "turnSeconds": null}`; decoding fills missing keys with the defaults and
/// throws `SettingsError` for out-of-range values.
public struct SnowmanSettings: Hashable, Sendable {
    /// Allowed values of `maxWrongGuesses`.
    public static let maxWrongGuessesRange: ClosedRange<Int> = 3...10
    /// Default number of wrong guesses that lose the game.
    public static let defaultMaxWrongGuesses = 7
    /// Allowed values of `turnSeconds` when the turn timer is on.
    public static let turnSecondsRange: ClosedRange<Int> = 10...120
    /// The turn timer of a new room: long enough to think, short enough that a player who wandered off does not
    /// hold up the table.
    public static let defaultTurnSeconds = 60

    /// The defaults of the rules: 7 wrong guesses, no turn timer.
    public static let standard = SnowmanSettings(checkedMaxWrongGuesses: defaultMaxWrongGuesses, turnSeconds: nil)
    /// What a new room starts with: 7 wrong guesses and a 60-second turn timer (the host can switch it off).
    public static let newRoom = SnowmanSettings(
        checkedMaxWrongGuesses: defaultMaxWrongGuesses, turnSeconds: defaultTurnSeconds)

    /// The game is lost on this many wrong guesses (3-10, default 7).
    public let maxWrongGuesses: Int
    /// Seconds a player has to guess before their turn is skipped, or `nil` for no timer (the default);
    /// otherwise 10-120.
    public let turnSeconds: Int?

    /// Creates validated settings.
    ///
    /// - Parameters:
    ///   - maxWrongGuesses: Wrong guesses that lose the game, 3-10.
    ///   - turnSeconds: Turn timer in seconds, 10-120, or `nil` for none.
    /// - Throws: `SettingsError` naming the first value out of range.
    public init(
        maxWrongGuesses: Int = SnowmanSettings.defaultMaxWrongGuesses, turnSeconds: Int? = nil
    ) throws(SettingsError) {
        self.maxWrongGuesses = try SettingsError.check(
            maxWrongGuesses, in: Self.maxWrongGuessesRange, setting: "maxWrongGuesses",
            label: "Wrong guesses allowed")
        if let turnSeconds {
            self.turnSeconds = try SettingsError.check(
                turnSeconds, in: Self.turnSecondsRange, setting: "turnSeconds",
                label: "Turn timer (seconds)", canBeOff: true)
        } else {
            self.turnSeconds = nil
        }
    }

    private init(checkedMaxWrongGuesses: Int, turnSeconds: Int?) {
        self.maxWrongGuesses = checkedMaxWrongGuesses
        self.turnSeconds = turnSeconds
    }
}
