/// The `Encoder` a view encodes itself into for `JSONViewDiffer`: it walks the view's members, compares each with
/// the member kept (`ViewMembers`) and encodes only those that changed, writing their operations.
///
/// A view must encode as an object (a keyed container), with the same members in the same order every time, as
/// a struct does. A member left out by `encodeIfPresent` is written as `null`, so that the members stay the same.
final class ViewDiffEncoder: Encoder {
    let members: ViewMembers
    let base: [String]
    /// Whether this encoding records the members for the first time (no operations), or compares.
    let recording: Bool
    let encoder: JSONValueEncoder
    // Unchecked, with the members and memos it walks (`ViewMembers`, `ViewMemberMemo`): one update of one room's
    // differ uses them, on one thread. Callgrind (Word Scramble, 40 rooms of 8 bots): their checks were ~10,000
    // instructions of each view update (with the encoder's, 70.7k -> 54.7k per update).
    @exclusivity(unchecked) var operations: [JSONPatch.Operation] = []
    /// The next member's position.
    @exclusivity(unchecked) var position = 0
    /// Set when the view's members are not those kept: the update then fails and the differ starts afresh.
    @exclusivity(unchecked) var mismatch: String?

    init(members: ViewMembers, base: [String], recording: Bool, encoder: JSONValueEncoder) {
        self.members = members
        self.base = base
        self.recording = recording
        self.encoder = encoder
    }

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(ViewMemberContainer<Key>(owner: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        mismatch = "a view must encode as an object, not a list"
        return ValueEncoder(parent: nil, step: .none).unkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        mismatch = "a view must encode as an object, not a single value"
        return ValueEncoder(parent: nil, step: .none).singleValueContainer()
    }

    /// Throws when the encoding did not go over the members kept, one by one.
    func checkComplete() throws(EncodingError) {
        if mismatch == nil, position != members.keys.count {
            mismatch = "the view has \(position) members where it had \(members.keys.count)"
        }
        if let mismatch {
            throw EncodingError.invalidValue(mismatch, EncodingError.Context(codingPath: [],
                                                                            debugDescription: mismatch))
        }
    }

    /// One member: recorded, or compared with the one kept and its operations written when it changed.
    func member<T: Encodable>(_ key: String, _ value: T) throws(EncodingError) {
        defer { position += 1 }
        if recording {
            members.keys.append(key)
            members.memos.append(try ViewMemberMemo.make(for: value, encoder: encoder))
            return
        }
        guard position < members.keys.count, members.keys[position] == key else {
            if mismatch == nil { mismatch = "the view's member \"\(key)\" is not where it was" }
            return
        }
        try members.memos[position].update(to: value, base: base, key: key, into: &operations, encoder: encoder)
    }
}

/// The keyed container of `ViewDiffEncoder`: every member goes to `member`.
struct ViewMemberContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let owner: ViewDiffEncoder

    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { try owner.member(key.stringValue, JSONValue.null) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try owner.member(key.stringValue, value) }
    mutating func encode(_ value: String, forKey key: Key) throws { try owner.member(key.stringValue, value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try owner.member(key.stringValue, value) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try owner.member(key.stringValue, value) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try owner.member(key.stringValue, value) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try owner.member(key.stringValue, value) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try owner.member(key.stringValue, value) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try owner.member(key.stringValue, value) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try owner.member(key.stringValue, value) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try owner.member(key.stringValue, value) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try owner.member(key.stringValue, value) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try owner.member(key.stringValue, value) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try owner.member(key.stringValue, value) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try owner.member(key.stringValue, value) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try owner.member(key.stringValue, value)
    }

    // Absent optionals are `null`: the view keeps the same members, and a value coming or going is a `replace`.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try owner.member(key.stringValue, value) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        try owner.member(key.stringValue, value)
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        try owner.member(key.stringValue, value)
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try owner.member(key.stringValue, value) }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        try owner.member(key.stringValue, value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey> {
        owner.mismatch = "a view's member \"\(key.stringValue)\" must be a value, not a nested container"
        return ValueEncoder(parent: nil, step: .none).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        owner.mismatch = "a view's member \"\(key.stringValue)\" must be a value, not a nested container"
        return ValueEncoder(parent: nil, step: .none).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        owner.mismatch = "a view cannot encode a super encoder"
        return owner
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        owner.mismatch = "a view cannot encode a super encoder"
        return owner
    }
}
