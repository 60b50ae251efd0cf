import JSON

/// The JSON of one part of a room's state, kept until what the part shows changes.
///
/// Returning the very same `JSONValue` (the same copy-on-write storage) for an unchanged part is what lets
/// `JSONPatch.diff` skip it by identity instead of comparing it member by member.
struct JSONMemo<Key: Equatable> {
    private var key: Key?
    private var json: JSONValue = .null

    /// The JSON for `key`: the kept value when `key` equals the last one, otherwise `build(key)`, kept for next time.
    mutating func value(for key: Key, _ build: (Key) -> JSONValue) -> JSONValue {
        if let kept = self.key, kept == key { return json }
        json = build(key)
        self.key = key
        return json
    }

    /// For a part whose JSON is not kept (see `StateEditor.set(_:_:memo:for:_:)`): whether `key` differs from
    /// the last one, and the last one (nil before the first call); remembers `key` for the next call.
    mutating func change(to key: Key) -> (changed: Bool, previous: Key?) {
        let previous = self.key
        if let previous, previous == key { return (false, previous) }
        self.key = key
        return (true, previous)
    }
}
