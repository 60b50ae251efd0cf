/// A setting outside its allowed range, refused when a host changes a room's settings.
///
/// Shared by `SnowmanSettings` and `ScrambleSettings` so that rooms report every bad setting the same way.
public struct SettingsError: GameRejection, Hashable {
    /// The setting's key as it appears in JSON, e.g. `"maxWrongGuesses"`.
    public var setting: String
    /// The setting's name for people, e.g. "Wrong guesses allowed".
    public var label: String
    /// The refused value.
    public var value: Int
    /// The values that would have been accepted.
    public var allowed: ClosedRange<Int>
    /// Whether the setting can also be switched off (encoded as `null`).
    public var canBeOff: Bool

    /// Creates the error for one refused value.
    public init(setting: String, label: String, value: Int, allowed: ClosedRange<Int>, canBeOff: Bool = false) {
        self.setting = setting
        self.label = label
        self.value = value
        self.allowed = allowed
        self.canBeOff = canBeOff
    }

    public var code: String { "setting-out-of-range" }
    public var title: String { "Setting out of range" }
    public var message: String {
        let range = "between \(allowed.lowerBound) and \(allowed.upperBound)"
        return "\(label) must be \(range)\(canBeOff ? " or off" : ""); \(value) is not allowed."
    }
}
