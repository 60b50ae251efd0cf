/// A Sleuth room's settings: how long a round lasts. Changing them never alters a running round: they apply from
/// the next one (`SleuthGame.updateSettings(_:)`).
public struct SleuthSettings: Hashable, Sendable {
    /// A round's length: 60-600 seconds, 180 by default.
    public static let roundSecondsSpec = SettingSpec(
        key: "roundSeconds", label: "Round length", name: "Round length (seconds)", range: 60...600, step: 30,
        initial: 180, unit: "s")
    /// The numbers a host sets, in the order the settings show them.
    public static let specs = [roundSecondsSpec]

    /// The defaults: rounds of three minutes.
    public static let standard = SleuthSettings(checkedRoundSeconds: roundSecondsSpec.initial)

    /// Length of a round in seconds.
    public let roundSeconds: Int

    /// Creates validated settings.
    ///
    /// - Throws: `SettingsError` when `roundSeconds` is out of its range.
    public init(roundSeconds: Int = SleuthSettings.roundSecondsSpec.initial) throws(SettingsError) {
        self.roundSeconds = try Self.roundSecondsSpec.check(roundSeconds)
    }

    private init(checkedRoundSeconds: Int) {
        roundSeconds = checkedRoundSeconds
    }
}

/// Shown (`settings`, `nextSettings`) and saved alike; a missing key takes its default, and saved values are
/// checked again.
extension SleuthSettings: Codable {
    private enum CodingKeys: String, CodingKey { case roundSeconds }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(roundSeconds, forKey: .roundSeconds)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(roundSeconds: try container.decodeIfPresent(Int.self, forKey: .roundSeconds)
            ?? Self.roundSecondsSpec.initial)
    }

    /// What a host's `create` or `settings` message changes; `null` leaves a setting as it is.
    public struct Change: Decodable, Sendable, Equatable {
        public var roundSeconds: SettingUpdate<Int> = .unchanged

        public init() {}

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            roundSeconds = try container.update(Int.self, .roundSeconds)
        }
    }

    /// These settings with what `change` changes, checked.
    ///
    /// - Throws: `SettingsError` for a value out of range.
    public func applying(_ change: Change) throws(SettingsError) -> SleuthSettings {
        try SleuthSettings(roundSeconds: change.roundSeconds.applied(to: roundSeconds) ?? roundSeconds)
    }
}
