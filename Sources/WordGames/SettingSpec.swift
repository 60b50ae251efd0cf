/// One number a host can set for their room's game, with its bounds: the single source of truth for both the
/// server, which checks every value against it, and the web client, whose steppers are built from it
/// (`GET /api/config` lists each game's specs).
public struct SettingSpec: Sendable, Hashable {
    /// The setting's key in `create` and `settings` messages and in the state, e.g. `"turnSeconds"`.
    public var key: String
    /// What the control is labelled, e.g. "Turn timer".
    public var label: String
    /// The setting's name in a sentence, as refusals say it, e.g. "Turn timer (seconds)".
    public var name: String
    /// The values a host may choose.
    public var range: ClosedRange<Int>
    /// How far one press of a stepper moves the value.
    public var step: Int
    /// The value of a new room.
    public var initial: Int
    /// The unit shown after the value (`s`, `letters`), if any.
    public var unit: String?
    /// Whether the setting can be switched off (`null` on the wire), as Snowman's turn timer can.
    public var canBeOff: Bool

    public init(key: String, label: String, name: String? = nil, range: ClosedRange<Int>, step: Int = 1,
                initial: Int, unit: String? = nil, canBeOff: Bool = false) {
        precondition(range.contains(initial), "the initial value of \(key) is out of its range")
        self.key = key
        self.label = label
        self.name = name ?? label
        self.range = range
        self.step = step
        self.initial = initial
        self.unit = unit
        self.canBeOff = canBeOff
    }

    /// Returns `value` if it lies in `range`.
    ///
    /// - Throws: `SettingsError` (`setting-out-of-range`) naming the setting and its bounds.
    public func check(_ value: Int) throws(SettingsError) -> Int {
        guard range.contains(value) else {
            throw SettingsError(setting: key, label: name, value: value, allowed: range, canBeOff: canBeOff)
        }
        return value
    }
}
