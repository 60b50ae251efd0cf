/// The `Encoder` that `JSONValueEncoder` hands to `encode(to:)`: it builds the `JSONValue` of one value.
///
/// Cost is what this type is shaped by, since a room encodes its views on every move:
/// - Strings, integers, Booleans, doubles and arrays of them become `JSONValue`s directly (`box`), without an
///   encoder or a container.
/// - A nested value is encoded by a child encoder that its parent keeps and reuses (`reusable`): encoding a list
///   of structs allocates one child once, not one per element. A child is free again once `finish` has taken its
///   value, which happens before its parent encodes anything else.
/// - The coding path is a chain of steps up the parents, turned into `[CodingKey]` only when read.
/// - Nested containers and super encoders, whose owners may write to them at any time while their parent goes on,
///   are fresh encoders whose place in the parent is filled when the parent finishes (`deferred`).
///
/// Containers hold their encoder, so one kept past the `encode(to:)` it came from writes into whatever the encoder
/// builds next; no `Encodable` conformance does that.
final class ValueEncoder: Encoder, CodingPathNode {
    /// Which kind of container the value asked for.
    enum Content {
        case nothing
        case single
        case object
        case array
    }

    /// Where a deferred encoder's value goes in its parent.
    enum Slot {
        case key(String)
        case index(Int)
    }

    /// An encoder handed out before its value exists, and its place.
    struct Deferred {
        let slot: Slot
        let encoder: ValueEncoder
    }

    // Unchecked, this and every stored property below that encoding touches: an encoder is used by one thread for
    // one encoding at a time (`busy`). Callgrind (Word Scramble, 40 rooms of 8 bots): the dynamic checks were
    // ~1,500 of the ~5,000 instructions of each list element a view update encodes (4,990 -> 3,490).
    @exclusivity(unchecked) private(set) var content = Content.nothing
    @exclusivity(unchecked) private var single = JSONValue.null
    @exclusivity(unchecked) var object = JSONObject()
    @exclusivity(unchecked) var array: [JSONValue] = []
    @exclusivity(unchecked) private var deferred: [Deferred] = []

    /// Unowned: a parent keeps its children (`reusable`, `deferred`), never the reverse.
    unowned let parent: ValueEncoder?
    /// This value's step below its parent.
    @exclusivity(unchecked) var step: CodingPathStep
    /// The child encoder `box` reuses for each nested value.
    @exclusivity(unchecked) private var reusable: ValueEncoder?
    /// Set while this encoder encodes a value for its parent, so that a reentrant use gets a fresh one.
    @exclusivity(unchecked) private var busy = false
    /// Member count of the last object this encoder built: the next one (often of the same type) reserves it.
    @exclusivity(unchecked) private var objectCapacity = 0
    /// One bit per key hash of the object being built (`put`): a clear bit proves a key new, so it is appended
    /// without searching the members for it.
    @exclusivity(unchecked) private var keyBits: UInt64 = 0
    /// The keyed containers last made, with their key types, for an encoder reused on values of a few types (a
    /// room's view differ encodes score lines, player lines and found words in turn through the thread's root):
    /// making one costs a box allocation and generic metadata look-ups, more than the members it then encodes.
    /// They hold this encoder: a cycle that `releaseContainers` breaks when a fresh root's encoding ends, or when
    /// its thread ends for a thread's root (`ThreadLocalCoder`).
    @exclusivity(unchecked) private var keyedContainers: [(key: ObjectIdentifier, container: AnyObject)] = []
    /// Where the next container kept goes once `keyedContainers` is full (the oldest is replaced).
    @exclusivity(unchecked) private var nextKeptContainer = 0
    private static let keptContainers = 4
    /// Whether `keyedContainers` may be kept: true for the root and its reusable children, which the root's
    /// `releaseContainers` reaches.
    private var keepsContainer = false
    /// Whether this is a thread's root encoder, kept between calls.
    private var isKeptRoot = false
    /// Whether the last type `boxNested` encoded is an array.
    @exclusivity(unchecked) private var arrays = ArrayConformanceCache<any JSONArrayEncodable.Type>()

    /// Whether `encodeIfPresent` of nil writes `null` rather than leaving the key out (`JSONValueEncoder`'s
    /// `writesNilMembers`); children take their parent's.
    @exclusivity(unchecked) var writesNilMembers = false

    init(parent: ValueEncoder?, step: CodingPathStep) {
        self.parent = parent
        self.step = step
        writesNilMembers = parent?.writesNilMembers ?? false
    }

    /// An encoder for a top-level value: the thread's own (`ThreadLocalCoder`), or a fresh one when that is in
    /// use. Hand it back with `endRoot`.
    static func takeRoot() -> ValueEncoder {
        let kept = ThreadLocalCoder.root(rootKey) { makeRoot(isKept: true) }
        let encoder = kept.busy ? makeRoot(isKept: false) : kept
        encoder.busy = true
        encoder.reset()
        return encoder
    }

    private static func makeRoot(isKept: Bool) -> ValueEncoder {
        let encoder = ValueEncoder(parent: nil, step: .none)
        encoder.keepsContainer = true
        encoder.isKeptRoot = isKept
        return encoder
    }

    /// Ends the use of a root from `takeRoot`.
    func endRoot() {
        busy = false
        if !isKeptRoot { releaseContainers() }
    }

    /// Drops the kept containers of this encoder and its reusable children, which would otherwise keep them alive.
    func releaseContainers() {
        var node: ValueEncoder? = self
        while let current = node {
            current.keyedContainers.removeAll()
            node = current.reusable
        }
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        startObject()
        let key = ObjectIdentifier(Key.self)
        for kept in keyedContainers where kept.key == key {
            // A `KeyedEncodingContainer` is one reference to its box: the same bits as the `AnyObject` kept.
            return unsafeBitCast(kept.container, to: KeyedEncodingContainer<Key>.self)
        }
        let container = KeyedEncodingContainer(KeyedValueEncoder<Key>(encoder: self))
        if keepsContainer {
            let entry = (key: key, container: unsafeBitCast(container, to: AnyObject.self))
            if keyedContainers.count < Self.keptContainers {
                keyedContainers.append(entry)
            } else {
                keyedContainers[nextKeptContainer] = entry
                nextKeptContainer = (nextKeptContainer + 1) % Self.keptContainers
            }
        }
        return container
    }

    /// Sets the member `key` of the object being built: appended when new, replaced in place when encoded again.
    @inline(__always)
    func put(_ value: JSONValue, forKey key: String) {
        let bit = Self.keyBit(key)
        if keyBits & bit == 0 {
            keyBits |= bit
            object.appendNew(key: key, value: value)
        } else {
            object.updateValue(value, forKey: key)
        }
    }

    /// A bit chosen by the key's length and first and last bytes; equal keys get the same bit.
    @inline(__always)
    static func keyBit(_ key: String) -> UInt64 {
        let hash = key.utf8.withContiguousStorageIfAvailable { bytes -> Int in
            guard let first = bytes.first, let last = bytes.last else { return 0 }
            return bytes.count &* 7 &+ Int(first) &* 3 &+ Int(last)
        } ?? key.utf8.count
        return 1 << UInt64(hash & 63)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        startArray()
        return UnkeyedValueEncoder(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func startObject() {
        switch content {
        case .object:
            return
        case .nothing:
            content = .object
            if objectCapacity > 0 { object.reserveCapacity(objectCapacity) }
        case .single, .array:
            preconditionFailure("JSONValueEncoder: a keyed container asked for after another kind at \(codingPath)")
        }
    }

    func startArray() {
        switch content {
        case .array:
            return
        case .nothing:
            content = .array
        case .single, .object:
            preconditionFailure("JSONValueEncoder: an unkeyed container asked for after another kind at \(codingPath)")
        }
    }

    func setSingle(_ value: JSONValue) {
        switch content {
        case .nothing, .single:
            content = .single
            single = value
        case .object, .array:
            preconditionFailure("JSONValueEncoder: a single value encoded after a container at \(codingPath)")
        }
    }

    // MARK: Values

    /// The JSON of `value`, which sits at `step` below this encoder.
    ///
    /// The common leaf types are converted here; comparing metadata is a few instructions, where going through
    /// `encode(to:)` costs a container and a call per value.
    @inline(__always)
    func box<T: Encodable>(_ value: T, at step: @autoclosure () -> CodingPathStep) throws -> JSONValue {
        if T.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
        if T.self == Int.self { return .integer(Int64(unsafeBitCast(value, to: Int.self))) }
        if T.self == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
        if T.self == Double.self { return try number(unsafeBitCast(value, to: Double.self), at: step()) }
        if T.self == JSONValue.self { return unsafeBitCast(value, to: JSONValue.self) }
        if T.self == [String].self { return .array(unsafeBitCast(value, to: [String].self).map(JSONValue.string)) }
        if T.self == [Int].self {
            return .array(unsafeBitCast(value, to: [Int].self).map { .integer(Int64($0)) })
        }
        return try boxNested(value, at: step())
    }

    /// The JSON of a value that encodes itself, built by the reusable child encoder.
    func boxNested<T: Encodable>(_ value: T, at step: CodingPathStep) throws -> JSONValue {
        let child: ValueEncoder
        if let reusable, !reusable.busy {
            child = reusable
            child.step = step
            child.writesNilMembers = writesNilMembers
            child.reset()
        } else {
            child = ValueEncoder(parent: self, step: step)
            if reusable == nil {
                reusable = child
                child.keepsContainer = keepsContainer
            }
        }
        child.busy = true
        defer { child.busy = false }
        if let arrayType = arrays.conformance(of: T.self, lookUp: { T.self as? any JSONArrayEncodable.Type }) {
            return .array(try child.elements(of: value, as: arrayType))
        }
        try value.encode(to: child)
        return try child.finish()
    }

    /// The elements of `value`, an array of type `A`.
    private func elements<T, A: JSONArrayEncodable>(of value: T, as _: A.Type) throws -> [JSONValue] {
        try unsafeBitCast(value, to: A.self).jsonElements(encoder: self)
    }

    /// Clears what an encoding that threw left behind.
    private func reset() {
        guard case .nothing = content else {
            content = .nothing
            single = .null
            object = JSONObject()
            keyBits = 0
            array = []
            deferred.removeAll()
            return
        }
        if !deferred.isEmpty { deferred.removeAll() }
    }

    /// Takes the value built, leaving the encoder empty for its next use. A value that asked for no container
    /// is an empty object, as with Swift's `JSONEncoder`.
    func finish() throws -> JSONValue {
        if !deferred.isEmpty { try fillDeferred() }
        let result: JSONValue
        switch content {
        case .nothing:
            return .object(JSONObject())
        case .single:
            result = single
            single = .null
        case .object:
            var taken = JSONObject()
            swap(&taken, &object)
            keyBits = 0
            objectCapacity = taken.count
            result = .object(taken)
        case .array:
            var taken: [JSONValue] = []
            swap(&taken, &array)
            result = .array(taken)
        }
        content = .nothing
        return result
    }

    private func fillDeferred() throws {
        let pending = deferred
        deferred.removeAll()
        for entry in pending {
            let value = try entry.encoder.finish()
            switch entry.slot {
            case .key(let key): object.updateValue(value, forKey: key)
            case .index(let index): array[index] = value
            }
        }
    }

    /// A fresh encoder for a nested container or a super encoder at `slot`, which holds `null` until this
    /// encoder finishes.
    func deferredEncoder(at slot: Slot, step: CodingPathStep) -> ValueEncoder {
        let encoder = ValueEncoder(parent: self, step: step)
        switch slot {
        case .key(let key): put(.null, forKey: key)
        case .index: array.append(.null)
        }
        deferred.append(Deferred(slot: slot, encoder: encoder))
        return encoder
    }

    /// A double as JSON, refusing what JSON cannot write (RFC 8259 §6: no NaN or infinity).
    @inline(__always)
    func number(_ value: Double, at step: @autoclosure () -> CodingPathStep) throws -> JSONValue {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: codingPath(appending: step()),
                debugDescription: "\(value) is not a JSON number (RFC 8259 §6)."))
        }
        return .number(value)
    }

    /// An unsigned integer as JSON: `.integer` when it fits in `Int64`, else a double that holds it exactly.
    @inline(__always)
    func unsigned<U: FixedWidthInteger & UnsignedInteger>(
        _ value: U, at step: @autoclosure () -> CodingPathStep
    ) throws -> JSONValue {
        if let integer = Int64(exactly: value) { return .integer(integer) }
        if let double = Double(exactly: value) { return .number(double) }
        throw EncodingError.invalidValue(value, EncodingError.Context(
            codingPath: codingPath(appending: step()),
            debugDescription: "\(value) does not fit in Int64 and has no exact double."))
    }
}

/// The slot of each thread's root encoder.
private let rootKey = ThreadLocalCoder.makeKey()

extension ValueEncoder: ThreadLocalCoder.Root {}

extension ValueEncoder: SingleValueEncodingContainer {
    func encodeNil() { setSingle(.null) }
    func encode(_ value: Bool) { setSingle(.bool(value)) }
    func encode(_ value: String) { setSingle(.string(value)) }
    func encode(_ value: Double) throws { setSingle(try number(value, at: .none)) }
    func encode(_ value: Float) throws { setSingle(try number(Double(value), at: .none)) }
    func encode(_ value: Int) { setSingle(.integer(Int64(value))) }
    func encode(_ value: Int8) { setSingle(.integer(Int64(value))) }
    func encode(_ value: Int16) { setSingle(.integer(Int64(value))) }
    func encode(_ value: Int32) { setSingle(.integer(Int64(value))) }
    func encode(_ value: Int64) { setSingle(.integer(value)) }
    func encode(_ value: UInt) throws { setSingle(try unsigned(value, at: .none)) }
    func encode(_ value: UInt8) { setSingle(.integer(Int64(value))) }
    func encode(_ value: UInt16) { setSingle(.integer(Int64(value))) }
    func encode(_ value: UInt32) { setSingle(.integer(Int64(value))) }
    func encode(_ value: UInt64) throws { setSingle(try unsigned(value, at: .none)) }
    func encode<T: Encodable>(_ value: T) throws { setSingle(try box(value, at: .none)) }
}
