/// The `Decoder` that `JSONValueDecoder` hands to `init(from:)`: it reads one `JSONValue`.
///
/// Shaped like `ValueEncoder`, for the same reason (moves are decoded on every message): leaf types and arrays
/// of them are read directly (`unbox`); a nested value is read by a child decoder that its parent reuses; the
/// coding path is a chain of steps up the parents, built into `[CodingKey]` only for `codingPath` and errors.
///
/// Errors are Swift's `DecodingError`s as `JSONDecoder` reports them: `keyNotFound` at the container's path,
/// `valueNotFound` for `null` where a value is needed, `typeMismatch` for another kind of value, and
/// `dataCorrupted` for a number the type cannot hold exactly.
final class ValueDecoder: Decoder, CodingPathNode {
    /// The value being decoded.
    var value: JSONValue
    /// Unowned: a parent keeps its reusable child, never the reverse.
    unowned let parent: ValueDecoder?
    /// This value's step below its parent.
    var step: CodingPathStep
    /// Whether keyed containers record which members they read (`readFlags`): the root when asked for its
    /// unread keys, and a child at the same path (a wrapper decoding itself through a single-value container).
    var tracksReads = false
    /// The members of the root object read so far, by position.
    var readFlags: [Bool] = []
    /// The child decoder `unboxNested` reuses for each nested value.
    private var reusable: ValueDecoder?
    /// Set while this decoder decodes a value for its parent, so that a reentrant use gets a fresh one.
    private var busy = false
    /// The object keyed containers read: `value`'s.
    private(set) var object = JSONObject()
    /// `object.count`, read once per container rather than per member.
    private var objectCount = 0
    /// Where the next member is looked for first: types decode their members in the order they were encoded.
    private var nextPosition = 0
    /// The keyed container last made, with its key type, as `ValueEncoder` keeps one (the same cost, the same
    /// cycle, broken by `releaseContainers`).
    private var keyedContainer: AnyObject?
    private var keyedContainerKey: ObjectIdentifier?
    /// Whether `keyedContainer` may be kept: the root and its reusable children.
    private var keepsContainer = false
    /// Whether this is a thread's root decoder, kept between calls.
    private var isKeptRoot = false
    /// Whether the last type `unboxNested` decoded is an array.
    private var arrays = ArrayConformanceCache<any JSONArrayDecodable.Type>()

    init(value: JSONValue, parent: ValueDecoder?, step: CodingPathStep) {
        self.value = value
        self.parent = parent
        self.step = step
    }

    /// A decoder for a top-level value: the thread's own (`ThreadLocalCoder`), or a fresh one when that is in
    /// use. Hand it back with `endRoot`.
    static func takeRoot(_ value: JSONValue, tracksReads: Bool) -> ValueDecoder {
        let kept = ThreadLocalCoder.root(rootKey) { makeRoot(isKept: true) }
        let decoder = kept.busy ? makeRoot(isKept: false) : kept
        decoder.busy = true
        decoder.value = value
        decoder.tracksReads = tracksReads
        decoder.readFlags.removeAll(keepingCapacity: true)
        return decoder
    }

    private static func makeRoot(isKept: Bool) -> ValueDecoder {
        let decoder = ValueDecoder(value: .null, parent: nil, step: .none)
        decoder.keepsContainer = true
        decoder.isKeptRoot = isKept
        return decoder
    }

    /// Ends the use of a root from `takeRoot`. The values decoded are let go, so that a kept root does not hold
    /// the last message read on its thread.
    func endRoot() {
        busy = false
        if !isKeptRoot {
            releaseContainers()
            return
        }
        var node: ValueDecoder? = self
        while let current = node {
            current.value = .null
            current.object = JSONObject()
            current.objectCount = 0
            node = current.reusable
        }
    }

    /// Drops the kept containers of this decoder and its reusable children, which would otherwise keep them alive.
    func releaseContainers() {
        var node: ValueDecoder? = self
        while let current = node {
            current.keyedContainer = nil
            node = current.reusable
        }
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else {
            throw mismatch(KeyedDecodingContainer<Key>.self, value, at: .none)
        }
        self.object = object
        objectCount = object.count
        nextPosition = 0
        if tracksReads {
            let root = rootOfReads
            if root.readFlags.count != objectCount {
                root.readFlags = Array(repeating: false, count: objectCount)
            }
        }
        if let keyedContainer, keyedContainerKey == ObjectIdentifier(Key.self) {
            // A `KeyedDecodingContainer` is one reference to its box: the same bits as the `AnyObject` kept.
            return unsafeBitCast(keyedContainer, to: KeyedDecodingContainer<Key>.self)
        }
        let container = KeyedDecodingContainer(KeyedValueDecoder<Key>(decoder: self))
        if keepsContainer {
            keyedContainer = unsafeBitCast(container, to: AnyObject.self)
            keyedContainerKey = ObjectIdentifier(Key.self)
        }
        return container
    }

    /// The position of the member `key` in `object`, looked for first after the last one found.
    @inline(__always)
    func position(of key: String) -> Int? {
        let hint = nextPosition
        let found: Int
        if hint < objectCount, object.key(at: hint).bytewiseEquals(key) {
            found = hint
        } else if let position = object.index(forKey: key) {
            found = position
        } else {
            return nil
        }
        nextPosition = found + 1
        if tracksReads { markRead(found) }
        return found
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw mismatch((any UnkeyedDecodingContainer).self, value, at: .none)
        }
        return UnkeyedValueDecoder(decoder: self, elements: elements)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// The decoder whose `readFlags` this one's reads go to.
    private var rootOfReads: ValueDecoder {
        var node = self
        while case .none = node.step, let parent = node.parent { node = parent }
        return node
    }

    /// Records that every member of the tracked object was read (a `JSONValue` takes them all).
    func markAllRead() {
        let root = rootOfReads
        root.readFlags = Array(repeating: true, count: root.readFlags.count)
    }

    /// Records that the member at `position` of the tracked object was read.
    func markRead(_ position: Int) {
        let root = rootOfReads
        if position < root.readFlags.count { root.readFlags[position] = true }
    }

    /// A decoder of its own for `value` at `step`, for nested containers and super decoders, which their
    /// owners may keep while this decoder goes on.
    func detachedDecoder(for value: JSONValue, at step: CodingPathStep) -> ValueDecoder {
        ValueDecoder(value: value, parent: self, step: step)
    }

    // MARK: Values

    /// Decodes a `T` from `value`, which sits at `step` below this decoder.
    ///
    /// The common leaf types are read here: comparing metadata is a few instructions, where `init(from:)` costs
    /// a container and a call per value.
    @inline(__always)
    func unbox<T: Decodable>(
        _ type: T.Type, from value: JSONValue, at step: @autoclosure () -> CodingPathStep
    ) throws -> T {
        if T.self == String.self { return unsafeBitCast(try string(value, at: step()), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try integer(value, Int.self, at: step()), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try bool(value, at: step()), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try double(value, at: step()), to: T.self) }
        if T.self == JSONValue.self { return unsafeBitCast(value, to: T.self) }
        if T.self == [String].self { return unsafeBitCast(try strings(value, at: step()), to: T.self) }
        if T.self == [Int].self { return unsafeBitCast(try integers(value, at: step()), to: T.self) }
        return try unboxNested(type, from: value, at: step())
    }

    /// A value that decodes itself, read by the reusable child decoder.
    func unboxNested<T: Decodable>(_ type: T.Type, from value: JSONValue, at step: CodingPathStep) throws -> T {
        let child: ValueDecoder
        if let reusable, !reusable.busy {
            child = reusable
            child.value = value
            child.step = step
        } else {
            child = ValueDecoder(value: value, parent: self, step: step)
            if reusable == nil {
                reusable = child
                child.keepsContainer = keepsContainer
            }
        }
        if case .none = step { child.tracksReads = tracksReads } else { child.tracksReads = false }
        child.busy = true
        defer { child.busy = false }
        if case .array(let elements) = value,
           let arrayType = arrays.conformance(of: T.self, lookUp: { T.self as? any JSONArrayDecodable.Type }) {
            return try child.array(of: elements, as: arrayType)
        }
        return try T(from: child)
    }

    /// An array of type `A`, returned as `T` (the same type) from `elements`.
    private func array<T, A: JSONArrayDecodable>(of elements: [JSONValue], as _: A.Type) throws -> T {
        unsafeBitCast(try A.decodeElements(elements, decoder: self), to: T.self)
    }

    func bool(_ value: JSONValue, at step: @autoclosure () -> CodingPathStep) throws -> Bool {
        guard case .bool(let result) = value else { throw mismatch(Bool.self, value, at: step()) }
        return result
    }

    func string(_ value: JSONValue, at step: @autoclosure () -> CodingPathStep) throws -> String {
        guard case .string(let result) = value else { throw mismatch(String.self, value, at: step()) }
        return result
    }

    func strings(_ value: JSONValue, at step: @autoclosure () -> CodingPathStep) throws -> [String] {
        guard case .array(let elements) = value else { throw mismatch([String].self, value, at: step()) }
        var result: [String] = []
        result.reserveCapacity(elements.count)
        for element in elements {
            guard case .string(let string) = element else {
                throw detachedDecoder(for: value, at: step()).mismatch(String.self, element, at: .index(result.count))
            }
            result.append(string)
        }
        return result
    }

    func integers(_ value: JSONValue, at step: @autoclosure () -> CodingPathStep) throws -> [Int] {
        guard case .array(let elements) = value else { throw mismatch([Int].self, value, at: step()) }
        var result: [Int] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            if case .integer(let integer) = element, let exact = Int(exactly: integer) {
                result.append(exact)
            } else {
                // An integral double, or an error to report at the element's path.
                result.append(try detachedDecoder(for: value, at: step()).integer(element, Int.self, at: .index(index)))
            }
        }
        return result
    }

    /// A double from either kind of JSON number (an integer beyond 2^53 is rounded, as `Double(_:)` does).
    func double(_ value: JSONValue, at step: @autoclosure () -> CodingPathStep) throws -> Double {
        switch value {
        case .number(let result): return result
        case .integer(let integer): return Double(integer)
        default: throw mismatch(Double.self, value, at: step())
        }
    }

    func float(_ value: JSONValue, at step: @autoclosure () -> CodingPathStep) throws -> Float {
        let double = try double(value, at: step())
        let result = Float(double)
        guard result.isFinite || !double.isFinite else {
            throw corrupted("Number \(value) does not fit in Float.", at: step())
        }
        return result
    }

    /// An integer of type `I` from a JSON integer, or from a double with an exact integral value in `I`'s range.
    @inline(__always)
    func integer<I: FixedWidthInteger>(
        _ value: JSONValue, _ type: I.Type, at step: @autoclosure () -> CodingPathStep
    ) throws -> I {
        switch value {
        case .integer(let integer):
            if let result = I(exactly: integer) { return result }
        case .number(let double):
            if let integer = JSONValue.exactInteger(double) {
                if let result = I(exactly: integer) { return result }
            } else if let unsigned = Self.exactUInt64(double), let result = I(exactly: unsigned) {
                return result
            }
        default:
            throw mismatch(I.self, value, at: step())
        }
        throw corrupted("Number \(value) is not an exact \(I.self).", at: step())
    }

    /// A double in [2^63, 2^64) with an integral value as `UInt64` (the parser gives such integers as doubles).
    private static func exactUInt64(_ double: Double) -> UInt64? {
        let twoToThe63 = 9_223_372_036_854_775_808.0
        let twoToThe64 = 18_446_744_073_709_551_616.0
        guard double >= twoToThe63, double < twoToThe64 else { return nil }
        let integer = UInt64(double)
        return Double(integer) == double ? integer : nil
    }

    // MARK: Errors

    /// `valueNotFound` for `null`, else `typeMismatch`, naming what was found.
    func mismatch(_ type: Any.Type, _ value: JSONValue, at step: CodingPathStep) -> DecodingError {
        let path = codingPath(appending: step)
        if value.isNull {
            return .valueNotFound(type, DecodingError.Context(
                codingPath: path, debugDescription: "Expected \(type) but found null."))
        }
        return .typeMismatch(type, DecodingError.Context(
            codingPath: path, debugDescription: "Expected \(type) but found \(value.kindName)."))
    }

    func corrupted(_ description: String, at step: CodingPathStep) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: codingPath(appending: step), debugDescription: description))
    }
}

/// The slot of each thread's root decoder.
private let rootKey = ThreadLocalCoder.makeKey()

extension ValueDecoder: ThreadLocalCoder.Root {}

extension ValueDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { value.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try bool(value, at: .none) }
    func decode(_ type: String.Type) throws -> String { try string(value, at: .none) }
    func decode(_ type: Double.Type) throws -> Double { try double(value, at: .none) }
    func decode(_ type: Float.Type) throws -> Float { try float(value, at: .none) }
    func decode(_ type: Int.Type) throws -> Int { try integer(value, type, at: .none) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(value, type, at: .none) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(value, type, at: .none) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(value, type, at: .none) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(value, type, at: .none) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(value, type, at: .none) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(value, type, at: .none) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(value, type, at: .none) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(value, type, at: .none) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(value, type, at: .none) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try unbox(type, from: value, at: .none) }
}

extension JSONValue {
    /// What the value is, for error messages: "a string", "an object".
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a Boolean"
        case .integer, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
