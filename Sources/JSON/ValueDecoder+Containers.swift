/// The keyed container of `ValueDecoder`, over the decoder's object (so that the decoder can keep it for the next
/// value of the same type).
struct KeyedValueDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ValueDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] { decoder.object.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { decoder.object.index(forKey: key.stringValue) != nil }

    /// The member's value, or nil if there is none; a read the decoder records when it tracks reads.
    @inline(__always)
    private func member(_ key: Key) -> JSONValue? {
        guard let position = decoder.position(of: key.stringValue) else { return nil }
        return decoder.object.value(at: position)
    }

    @inline(__always)
    private func required(_ key: Key) throws -> JSONValue {
        guard let value = member(key) else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(
                codingPath: codingPath, debugDescription: "No member \"\(key.stringValue)\"."))
        }
        return value
    }

    /// The member's value, or nil if it is absent or `null` (`decodeIfPresent`).
    @inline(__always)
    private func present(_ key: Key) -> JSONValue? {
        guard let value = member(key), !value.isNull else { return nil }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try required(key).isNull }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.bool(required(key), at: .key(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try decoder.string(required(key), at: .key(key))
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try decoder.double(required(key), at: .key(key))
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try decoder.float(required(key), at: .key(key))
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.unbox(type, from: required(key), at: .key(key))
    }

    @inline(__always)
    private func integer<I: FixedWidthInteger>(_ type: I.Type, _ key: Key) throws -> I {
        try decoder.integer(required(key), type, at: .key(key))
    }

    // Absent and `null` are both nil. Swift's default implementations look the key up three times (`contains`,
    // `decodeNil`, `decode`); these look it up once.

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try present(key).map { try decoder.bool($0, at: .key(key)) }
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try present(key).map { try decoder.string($0, at: .key(key)) }
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try present(key).map { try decoder.double($0, at: .key(key)) }
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try present(key).map { try decoder.float($0, at: .key(key)) }
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try optionalInteger(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try optionalInteger(type, key) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try present(key).map { try decoder.unbox(type, from: $0, at: .key(key)) }
    }

    @inline(__always)
    private func optionalInteger<I: FixedWidthInteger>(_ type: I.Type, _ key: Key) throws -> I? {
        try present(key).map { try decoder.integer($0, type, at: .key(key)) }
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder.detachedDecoder(for: required(key), at: .key(key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.detachedDecoder(for: required(key), at: .key(key)).unkeyedContainer()
    }

    /// As with `JSONDecoder`, a missing `super` member gives a decoder of `null`, not an error.
    func superDecoder() throws -> any Decoder {
        let key = CodingPathKey.super
        let value = decoder.position(of: key.stringValue).map { decoder.object.value(at: $0) } ?? .null
        return decoder.detachedDecoder(for: value, at: .key(key))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.detachedDecoder(for: member(key) ?? .null, at: .key(key))
    }
}

/// The unkeyed container of `ValueDecoder`. Its index moves past an element only once the element is decoded,
/// so a failed decode can be retried as another type.
struct UnkeyedValueDecoder: UnkeyedDecodingContainer {
    let decoder: ValueDecoder
    let elements: [JSONValue]
    private(set) var currentIndex = 0

    init(decoder: ValueDecoder, elements: [JSONValue]) {
        self.decoder = decoder
        self.elements = elements
    }

    var codingPath: [any CodingKey] { decoder.codingPath }

    var count: Int? { elements.count }

    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The current element; `valueNotFound` past the end.
    @inline(__always)
    private func current(_ type: Any.Type) throws -> JSONValue {
        guard currentIndex < elements.count else {
            throw DecodingError.valueNotFound(type, DecodingError.Context(
                codingPath: decoder.codingPath(appending: .index(currentIndex)),
                debugDescription: "Expected \(type) but the array has only \(elements.count) elements."))
        }
        return elements[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard try current(Never.self).isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { try $0.bool($1, at: $2) } }
    mutating func decode(_ type: String.Type) throws -> String { try next(type) { try $0.string($1, at: $2) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type) { try $0.double($1, at: $2) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type) { try $0.float($1, at: $2) } }

    mutating func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    @inline(__always)
    private mutating func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        try next(type) { try $0.integer($1, type, at: $2) }
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try next(type) { try $0.unbox(type, from: $1, at: $2) }
    }

    /// Reads the current element with `read` (given the decoder, the element and its path step) and moves past it.
    @inline(__always)
    private mutating func next<T>(
        _ type: Any.Type, _ read: (ValueDecoder, JSONValue, CodingPathStep) throws -> T
    ) throws -> T {
        let result = try read(decoder, current(type), .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let element = try current(KeyedDecodingContainer<NestedKey>.self)
        let result = try decoder.detachedDecoder(for: element, at: .index(currentIndex)).container(keyedBy: type)
        currentIndex += 1
        return result
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let element = try current((any UnkeyedDecodingContainer).self)
        let result = try decoder.detachedDecoder(for: element, at: .index(currentIndex)).unkeyedContainer()
        currentIndex += 1
        return result
    }

    mutating func superDecoder() throws -> any Decoder {
        let element = try current((any Decoder).self)
        let result = decoder.detachedDecoder(for: element, at: .index(currentIndex))
        currentIndex += 1
        return result
    }
}
