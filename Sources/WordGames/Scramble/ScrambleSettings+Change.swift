/// Read back as saved (or as a host's `create` message gives them): a missing key takes its default, and the
/// values are checked again.
extension ScrambleSettings: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            rounds: try container.decodeIfPresent(Int.self, forKey: .rounds) ?? Self.defaultRounds,
            roundSeconds: try container.decodeIfPresent(Int.self, forKey: .roundSeconds) ?? Self.defaultRoundSeconds,
            minWordLength: try container.decodeIfPresent(Int.self, forKey: .minWordLength)
                ?? Self.defaultMinWordLength,
            breakSeconds: try container.decodeIfPresent(Int.self, forKey: .breakSeconds) ?? Self.defaultBreakSeconds)
    }

    /// What a host's `create` or `settings` message changes; `null` leaves a setting as it is.
    public struct Change: Decodable, Sendable, Equatable {
        public var rounds: SettingUpdate<Int> = .unchanged
        public var roundSeconds: SettingUpdate<Int> = .unchanged
        public var minWordLength: SettingUpdate<Int> = .unchanged
        public var breakSeconds: SettingUpdate<Int> = .unchanged

        public init() {}

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            rounds = try container.update(Int.self, .rounds)
            roundSeconds = try container.update(Int.self, .roundSeconds)
            minWordLength = try container.update(Int.self, .minWordLength)
            breakSeconds = try container.update(Int.self, .breakSeconds)
        }
    }

    /// These settings with what `change` changes, checked.
    ///
    /// - Throws: `SettingsError` for a value out of range.
    public func applying(_ change: Change) throws(SettingsError) -> ScrambleSettings {
        try ScrambleSettings(rounds: change.rounds.applied(to: rounds) ?? rounds,
                             roundSeconds: change.roundSeconds.applied(to: roundSeconds) ?? roundSeconds,
                             minWordLength: change.minWordLength.applied(to: minWordLength) ?? minWordLength,
                             breakSeconds: change.breakSeconds.applied(to: breakSeconds) ?? breakSeconds)
    }
}
