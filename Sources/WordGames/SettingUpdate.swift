/// One setting of a host's `settings` message: left as it is (absent), switched off (`null`), or set.
public enum SettingUpdate<Value: Decodable & Sendable>: Sendable {
    case unchanged
    case off
    case set(Value)

    /// The setting's new value: `current` when unchanged, nil when switched off.
    public func applied(to current: Value?) -> Value? {
        switch self {
        case .unchanged: current
        case .off: nil
        case .set(let value): value
        }
    }
}

extension SettingUpdate: Equatable where Value: Equatable {}

extension KeyedDecodingContainer {
    /// The setting at `key`: `.unchanged` when absent, `.off` for `null`, the value otherwise.
    public func update<Value: Decodable & Sendable>(_ type: Value.Type = Value.self, _ key: Key) throws
        -> SettingUpdate<Value> {
        guard contains(key) else { return .unchanged }
        if try decodeNil(forKey: key) { return .off }
        return .set(try decode(Value.self, forKey: key))
    }
}
