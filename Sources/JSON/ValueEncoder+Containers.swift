/// The keyed container of `ValueEncoder`: members go into the encoder's object in the order they are encoded,
/// so a type's wire order is its `CodingKeys` order. Encoding a key again replaces its value in place.
struct KeyedValueEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ValueEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    @inline(__always)
    private func put(_ value: JSONValue, _ key: Key) {
        encoder.put(value, forKey: key.stringValue)
    }

    mutating func encodeNil(forKey key: Key) { put(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) { put(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) { put(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { put(try encoder.number(value, at: .key(key)), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        put(try encoder.number(Double(value), at: .key(key)), key)
    }
    mutating func encode(_ value: Int, forKey key: Key) { put(.integer(Int64(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) { put(.integer(Int64(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) { put(.integer(Int64(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) { put(.integer(Int64(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) { put(.integer(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(try encoder.unsigned(value, at: .key(key)), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) { put(.integer(Int64(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) { put(.integer(Int64(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) { put(.integer(Int64(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        put(try encoder.unsigned(value, at: .key(key)), key)
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        put(try encoder.box(value, at: .key(key)), key)
    }

    // With `writesNilMembers`, a nil optional is `null` instead of a missing key.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else if encoder.writesNilMembers { put(.null, key) }
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else if encoder.writesNilMembers { put(.null, key) }
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else if encoder.writesNilMembers { put(.null, key) }
    }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else if encoder.writesNilMembers { put(.null, key) }
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else if encoder.writesNilMembers { put(.null, key) }
    }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else if encoder.writesNilMembers { put(.null, key) }
    }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else if encoder.writesNilMembers { put(.null, key) }
    }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else if encoder.writesNilMembers { put(.null, key) }
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else if encoder.writesNilMembers { put(.null, key) }
    }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else if encoder.writesNilMembers { put(.null, key) }
    }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else if encoder.writesNilMembers { put(.null, key) }
    }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else if encoder.writesNilMembers { put(.null, key) }
    }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else if encoder.writesNilMembers { put(.null, key) }
    }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else if encoder.writesNilMembers { put(.null, key) }
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else if encoder.writesNilMembers { put(.null, key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = encoder.deferredEncoder(at: .key(key.stringValue), step: .key(key))
        nested.startObject()
        return KeyedEncodingContainer(KeyedValueEncoder<NestedKey>(encoder: nested))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = encoder.deferredEncoder(at: .key(key.stringValue), step: .key(key))
        nested.startArray()
        return UnkeyedValueEncoder(encoder: nested)
    }

    mutating func superEncoder() -> any Encoder {
        encoder.deferredEncoder(at: .key(CodingPathKey.super.stringValue), step: .key(CodingPathKey.super))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoder.deferredEncoder(at: .key(key.stringValue), step: .key(key))
    }
}

/// The unkeyed container of `ValueEncoder`: elements go into the encoder's array.
struct UnkeyedValueEncoder: UnkeyedEncodingContainer {
    let encoder: ValueEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    var count: Int { encoder.array.count }

    @inline(__always)
    private func append(_ value: JSONValue) {
        encoder.array.append(value)
    }

    mutating func encodeNil() { append(.null) }
    mutating func encode(_ value: Bool) { append(.bool(value)) }
    mutating func encode(_ value: String) { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(try encoder.number(value, at: .index(count))) }
    mutating func encode(_ value: Float) throws { append(try encoder.number(Double(value), at: .index(count))) }
    mutating func encode(_ value: Int) { append(.integer(Int64(value))) }
    mutating func encode(_ value: Int8) { append(.integer(Int64(value))) }
    mutating func encode(_ value: Int16) { append(.integer(Int64(value))) }
    mutating func encode(_ value: Int32) { append(.integer(Int64(value))) }
    mutating func encode(_ value: Int64) { append(.integer(value)) }
    mutating func encode(_ value: UInt) throws { append(try encoder.unsigned(value, at: .index(count))) }
    mutating func encode(_ value: UInt8) { append(.integer(Int64(value))) }
    mutating func encode(_ value: UInt16) { append(.integer(Int64(value))) }
    mutating func encode(_ value: UInt32) { append(.integer(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { append(try encoder.unsigned(value, at: .index(count))) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        append(try encoder.box(value, at: .index(count)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = encoder.deferredEncoder(at: .index(count), step: .index(count))
        nested.startObject()
        return KeyedEncodingContainer(KeyedValueEncoder<NestedKey>(encoder: nested))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = encoder.deferredEncoder(at: .index(count), step: .index(count))
        nested.startArray()
        return UnkeyedValueEncoder(encoder: nested)
    }

    mutating func superEncoder() -> any Encoder {
        encoder.deferredEncoder(at: .index(count), step: .index(count))
    }
}
