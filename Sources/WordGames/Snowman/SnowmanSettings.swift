/// A Snowman room's settings, validated against explicit bounds so the rooms layer can expose them to hosts.
///
/// Changing settings never alters a running game: `SnowmanGame.updateSettings(_:)` stores them for the next one.
/// They include the host's own words (`customWords`), which no member may see: views carry `SnowmanView.Settings`,
/// which has only their count.
public struct SnowmanSettings: Hashable, Sendable {
    /// Where a game's secret comes from.
    public enum WordSource: String, Hashable, Sendable, CaseIterable {
        /// The chosen `pack` only.
        case pack
        /// The host's `customWords` only.
        case custom
        /// The host's words together with the pack's.
        case mixed
    }

    /// How many wrong guesses lose the game: 3-10, 7 by default.
    public static let maxWrongGuessesSpec = SettingSpec(
        key: "maxWrongGuesses", label: "Wrong guesses allowed", range: 3...10, initial: 7)
    /// The turn timer when it is on: 10-120 seconds. A new room has 60, long enough to think, short enough that a
    /// player who wandered off does not hold up the table.
    public static let turnSecondsSpec = SettingSpec(
        key: "turnSeconds", label: "Turn timer", name: "Turn timer (seconds)", range: 10...120, step: 5, initial: 60,
        unit: "s", canBeOff: true)
    /// The numbers a host sets, in the order the settings show them.
    public static let specs = [maxWrongGuessesSpec, turnSecondsSpec]

    /// Allowed values of `maxWrongGuesses`.
    public static let maxWrongGuessesRange = maxWrongGuessesSpec.range
    /// Default number of wrong guesses that lose the game.
    public static let defaultMaxWrongGuesses = maxWrongGuessesSpec.initial
    /// Allowed values of `turnSeconds` when the turn timer is on.
    public static let turnSecondsRange = turnSecondsSpec.range
    /// The turn timer of a new room.
    public static let defaultTurnSeconds = turnSecondsSpec.initial

    /// The defaults of the rules: 7 wrong guesses, no turn timer.
    public static let standard = SnowmanSettings(checkedMaxWrongGuesses: defaultMaxWrongGuesses, turnSeconds: nil)
    /// What a new room starts with: 7 wrong guesses and a 60-second turn timer (the host can switch it off), the
    /// general pack.
    public static let newRoom = SnowmanSettings(
        checkedMaxWrongGuesses: defaultMaxWrongGuesses, turnSeconds: defaultTurnSeconds)

    /// The game is lost on this many wrong guesses (3-10, default 7).
    public let maxWrongGuesses: Int
    /// Seconds a player has to guess before their turn is skipped, or `nil` for no timer (the default);
    /// otherwise 10-120.
    public let turnSeconds: Int?
    /// The id of the `WordPack` secrets are drawn from (`general` by default). Which ids exist depends on the
    /// packs the game has: `SnowmanGame` draws from its first pack for an id it does not know.
    public let pack: String
    /// Where secrets come from; always `.pack` when there are no `customWords`.
    public let wordSource: WordSource
    /// The host's own words, if they gave any; never shown to members, only counted.
    public let customWords: CustomWordList?

    /// Creates validated settings.
    ///
    /// - Parameters:
    ///   - maxWrongGuesses: Wrong guesses that lose the game, 3-10.
    ///   - turnSeconds: Turn timer in seconds, 10-120, or `nil` for none.
    ///   - pack: The pack's id.
    ///   - wordSource: Where secrets come from; without `customWords` it is `.pack` whatever is given (a host who
    ///     clears their words goes back to the pack).
    ///   - customWords: The host's own words.
    /// - Throws: `SettingsError` naming the first value out of range.
    public init(
        maxWrongGuesses: Int = SnowmanSettings.defaultMaxWrongGuesses, turnSeconds: Int? = nil,
        pack: String = WordPack.generalID, wordSource: WordSource = .pack, customWords: CustomWordList? = nil
    ) throws(SettingsError) {
        self.maxWrongGuesses = try Self.maxWrongGuessesSpec.check(maxWrongGuesses)
        if let turnSeconds {
            self.turnSeconds = try Self.turnSecondsSpec.check(turnSeconds)
        } else {
            self.turnSeconds = nil
        }
        self.pack = pack
        self.wordSource = customWords == nil ? .pack : wordSource
        self.customWords = customWords
    }

    private init(checkedMaxWrongGuesses: Int, turnSeconds: Int?) {
        self.maxWrongGuesses = checkedMaxWrongGuesses
        self.turnSeconds = turnSeconds
        self.pack = WordPack.generalID
        self.wordSource = .pack
        self.customWords = nil
    }
}

extension SnowmanSettings {
    /// Why settings that are in range were refused all the same.
    public enum Rejection: GameRejection, Hashable {
        /// Code `bad-setting`: `pack` is not the id of one of the game's packs (`given` is nil when it was not
        /// text); `packs` are the ids and titles there are.
        case unknownPack(given: String?, packs: [PackName])
        /// Code `bad-setting`: `wordSource` is not one of `WordSource` (nil when it was not text).
        case unknownWordSource(given: String?)
        /// Code `bad-words`: the host chose to play with their own words but has none.
        case noCustomWords(WordSource)
        /// Code `bad-setting`: `waitForHost` (a `create` option) is not true or false.
        case notOnOrOff(setting: String)
        /// Code `bad-setting`: a `create` option (`waitForHost`) in a later `settings` message.
        case createOnly(setting: String)

        public var code: String {
            switch self {
            case .unknownPack, .unknownWordSource, .notOnOrOff, .createOnly: "bad-setting"
            case .noCustomWords: "bad-words"
            }
        }

        public var title: String {
            switch self {
            case .unknownPack: "Unknown word pack"
            case .unknownWordSource: "Unknown word source"
            case .noCustomWords: "No words of your own"
            case .notOnOrOff, .createOnly: "Setting not understood"
            }
        }

        public var message: String {
            switch self {
            case .unknownPack(let given, let packs):
                let choices = packs.map { "\"\($0.id)\" (\($0.title))" }.joined(separator: ", ")
                let start = given.map { "There is no word pack \"\($0.prefix(32))\"." } ?? "\"pack\" must be text."
                return "\(start) Choose one of \(choices)."
            case .unknownWordSource(let given):
                let choices = WordSource.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                let start = given.map { "\"\($0.prefix(32))\" is not a word source." } ?? "\"wordSource\" must be text."
                return "\(start) Choose one of \(choices)."
            case .noCustomWords(let source):
                let what = source == .mixed ? "mix your own words with the pack" : "play with your own words only"
                return "To \(what), first paste at least \(CustomWordList.counts.lowerBound) words in \"customWords\"."
            case .notOnOrOff(let setting):
                return "\"\(setting)\" must be true or false."
            case .createOnly(let setting):
                return "\"\(setting)\" is chosen when the room is created; it cannot be changed afterwards."
            }
        }
    }

    /// A pack's id and title, as a refusal lists them (built only here, from the packs a room offers).
    public struct PackName: Hashable, Sendable {
        public var id: String
        public var title: String
    }
}
