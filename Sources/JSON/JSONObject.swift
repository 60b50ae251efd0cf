/// A JSON object (RFC 8259 §4): members kept in insertion order, with keys compared byte by byte.
///
/// Insertion order makes serialization deterministic (the same value always gives the same bytes) and mirrors
/// what a JavaScript client does when it applies a JSON Patch: `add` of a new member appends it, `replace` keeps
/// its place. Equality ignores order, as RFC 6902 §4.6 requires for `test`.
///
/// Small objects are searched linearly; above a few dozen members a hash index is kept so lookups stay O(1) for
/// large maps such as players keyed by id.
///
/// An object can be *frozen* (`frozen()`): kept as its serialized text in one allocation, instead of an array of
/// members with their keys and values, for the entries of a room's lists (a chat line, a found word, a finished
/// game), which never change once added. Nothing tells a frozen object from its plain form but cost: it is
/// written by copying its text and compared by its bytes, while reading a member parses it and changing one makes
/// it plain again. For values that are written and compared, not read.
///
/// Sendable though its side storage is a `ManagedBuffer` (which the standard library keeps from being Sendable):
/// that storage is immutable while shared, as a copy-on-write buffer is.
public struct JSONObject: @unchecked Sendable {
    /// One member of the object.
    public typealias Element = (key: String, value: JSONValue)

    /// Member count above which a hash index is maintained; below it a linear search is cheaper than building
    /// and updating the index (a room's state objects have up to 16 members and are rebuilt on every change).
    static let indexThreshold = 32

    /// A struct rather than the `Element` tuple: arrays of tuples are destroyed through generic tuple metadata.
    private struct Member {
        var key: String
        var value: JSONValue
    }

    /// Empty when the object is frozen.
    private var members: [Member]
    /// The hash index of a large object, or the text of a frozen one: one reference, so that an object takes two
    /// words and a `JSONValue` no more than a string does.
    private var side: Side?

    /// Creates an empty object.
    public init() {
        members = []
        side = nil
    }

    /// Creates an object from members in order; a repeated key replaces the earlier value in place.
    ///
    /// - Parameter members: The members, in the order they should be serialized.
    public init<S: Sequence>(_ members: S) where S.Element == (String, JSONValue) {
        self.init()
        self.members.reserveCapacity(members.underestimatedCount)
        for (key, value) in members {
            self[key] = value
        }
    }

    // MARK: Frozen objects

    /// Whether the object is kept as its text (see `frozen()`).
    public var isFrozen: Bool { side?.isFrozen ?? false }

    /// The same object kept as its serialized text, which costs less memory; already frozen, the object itself.
    /// An empty object stays as it is (it holds nothing).
    public func frozen() -> JSONObject {
        guard !isFrozen, !members.isEmpty else { return self }
        var text: [UInt8] = []
        JSONWriter().write(.object(self), into: &text)
        var result = JSONObject()
        result.side = text.withUnsafeBufferPointer { Side.holding(text: $0) }
        return result
    }

    /// Runs `body` on the text of a frozen object; nil, without calling it, for a plain one.
    func withFrozenText<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        guard let side, side.isFrozen else { return nil }
        return try side.withText(body)
    }

    /// The object with its members, parsed from its text if it is frozen.
    var plain: JSONObject {
        guard let side, side.isFrozen else { return self }
        let value = side.withText { text in
            // The text is the writer's own output, so it parses: no limit narrower than the text itself.
            let size = Swift.max(text.count, 1)
            let limits = JSONParser.Limits(maxDepth: size, maxBytes: size, maxStringLength: size, maxElements: size)
            return try? JSONParser(limits: limits).parse(validatedUTF8: UnsafeRawBufferPointer(text))
        }
        guard case .object(let object)? = value else {
            preconditionFailure("JSONObject: frozen text does not parse back")
        }
        return object
    }

    /// Makes a frozen object plain before it changes.
    private mutating func thaw() {
        if isFrozen { self = plain }
    }

    // MARK: Members

    /// Reserves storage for `minimumCapacity` members.
    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        thaw()
        members.reserveCapacity(minimumCapacity)
    }

    /// The keys, in order.
    public var keys: some RandomAccessCollection<String> { plain.members.lazy.map(\.key) }

    /// The values, in key order.
    public var values: some RandomAccessCollection<JSONValue> { plain.members.lazy.map(\.value) }

    /// The position of the member named `key`, compared byte by byte.
    ///
    /// - Parameter key: The member name.
    /// - Returns: The member's position, or `nil` if there is none.
    public func index(forKey key: String) -> Int? {
        if let side {
            if side.isFrozen { return plain.index(forKey: key) }
            if let index = side.header.index { return index[ObjectKey(key)] }
        }
        // Keys are compared where they lie: a closure over the members (`firstIndex`) copied each one out,
        // retaining its key and value, which made this the costliest step of applying a patch.
        return members.withUnsafeBufferPointer { buffer -> Int? in
            for position in buffer.indices where buffer[position].key.bytewiseEquals(key) {
                return position
            }
            return nil
        }
    }

    /// The value of the member named `key`; setting `nil` removes the member, setting a new key appends it.
    public subscript(key: String) -> JSONValue? {
        get {
            if isFrozen { return plain[key] }
            guard let position = index(forKey: key) else { return nil }
            return members[position].value
        }
        set {
            if let newValue {
                updateValue(newValue, forKey: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Sets the value of `key` in place, or appends a new member.
    ///
    /// - Parameters:
    ///   - value: The new value.
    ///   - key: The member name.
    /// - Returns: The previous value, or `nil` if the member was added.
    @discardableResult
    public mutating func updateValue(_ value: JSONValue, forKey key: String) -> JSONValue? {
        thaw()
        if let position = index(forKey: key) {
            let old = members[position].value
            members[position].value = value
            return old
        }
        appendNew(key: key, value: value)
        return nil
    }

    /// Removes the member named `key`.
    ///
    /// - Parameter key: The member name.
    /// - Returns: The removed value, or `nil` if there was no such member.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        thaw()
        guard let position = index(forKey: key) else { return nil }
        return remove(at: position).value
    }

    /// Removes and returns the member at `position`; later members keep their order.
    @discardableResult
    public mutating func remove(at position: Int) -> Element {
        thaw()
        let removed = members.remove(at: position)
        if side != nil {
            rebuildIndex()
        }
        return (removed.key, removed.value)
    }

    /// Appends a member whose key the caller has checked is not present (the parser checks for duplicates).
    mutating func appendNew(key: String, value: JSONValue) {
        thaw()
        members.append(Member(key: key, value: value))
        if side != nil {
            if !isKnownUniquelyReferenced(&side!) { side = Side.holding(index: side!.header.index ?? [:]) }
            // Through the reference, so the dictionary is changed where it lies instead of copied.
            side!.header.index![ObjectKey(key)] = members.count - 1
        } else if members.count > Self.indexThreshold {
            rebuildIndex()
        }
    }

    /// Runs `body` on the value of the member named `key` in place, without copying it out. Returns nil,
    /// without calling `body`, if there is no such member.
    public mutating func withValue<R>(forKey key: String, _ body: (inout JSONValue) throws -> R) rethrows -> R? {
        thaw()
        guard let position = index(forKey: key) else { return nil }
        return try body(&members[position].value)
    }

    /// Runs `body` on the value at `position` in place, without copying it out.
    mutating func modifyValue<R, E: Error>(at position: Int, _ body: (inout JSONValue) throws(E) -> R) throws(E) -> R {
        thaw()
        return try body(&members[position].value)
    }

    /// Whether `other` has the same keys in the same order (two builds of one shape), so that members can be
    /// compared position by position. Both must be plain.
    func hasSameKeys(as other: JSONObject) -> Bool {
        guard members.count == other.members.count else { return false }
        for position in members.indices where !members[position].key.bytewiseEquals(other.members[position].key) {
            return false
        }
        return true
    }

    /// The key of the member at `position` of a plain object.
    func key(at position: Int) -> String { members[position].key }

    /// The value of the member at `position` of a plain object.
    func value(at position: Int) -> JSONValue { members[position].value }

    /// True when both objects share storage, so they are equal without looking at members.
    func isIdentical(to other: JSONObject) -> Bool {
        if let side, side.isFrozen { return side === other.side }
        if let side = other.side, side.isFrozen { return false }
        return members.withUnsafeBufferPointer { left in
            other.members.withUnsafeBufferPointer { right in
                left.baseAddress == right.baseAddress && left.count == right.count
            }
        }
    }

    /// Whether both are frozen with the same text: then equal (different texts may still be equal objects).
    func hasSameFrozenText(as other: JSONObject) -> Bool {
        withFrozenText { left in
            other.withFrozenText { right in
                left.elementsEqual(right)
            } ?? false
        } ?? false
    }

    private mutating func rebuildIndex() {
        guard members.count > Self.indexThreshold else {
            side = nil
            return
        }
        var rebuilt = [ObjectKey: Int](minimumCapacity: members.count)
        for (position, member) in members.enumerated() {
            rebuilt[ObjectKey(member.key)] = position
        }
        side = Side.holding(index: rebuilt)
    }
}

extension JSONObject: RandomAccessCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { isFrozen ? plain.members.count : members.count }
    public subscript(position: Int) -> Element {
        let member = isFrozen ? plain.members[position] : members[position]
        return (member.key, member.value)
    }

    /// Iterates over the members; a frozen object is parsed once, not once per member.
    public func makeIterator() -> IndexingIterator<JSONObject> {
        IndexingIterator(_elements: plain)
    }
}

extension JSONObject: Hashable {
    /// RFC 6902 §4.6: objects are equal when they have the same members, whatever their order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        if lhs.isIdentical(to: rhs) || lhs.hasSameFrozenText(as: rhs) { return true }
        if lhs.isFrozen || rhs.isFrozen { return lhs.plain == rhs.plain }
        guard lhs.count == rhs.count else { return false }
        for position in lhs.members.indices {
            let member = lhs.members[position]
            let other: JSONValue
            // Same order is the common case: check the same position before searching.
            if rhs.members[position].key.bytewiseEquals(member.key) {
                other = rhs.members[position].value
            } else if let found = rhs[member.key] {
                other = found
            } else {
                return false
            }
            if member.value != other { return false }
        }
        return true
    }

    /// Order-independent, like `==`: member hashes are summed.
    public func hash(into hasher: inout Hasher) {
        if isFrozen { return plain.hash(into: &hasher) }
        var sum = 0
        for member in members {
            var memberHasher = Hasher()
            member.key.hashBytes(into: &memberHasher)
            member.value.hash(into: &memberHasher)
            sum &+= memberHasher.finalize()
        }
        hasher.combine(members.count)
        hasher.combine(sum)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// Keeps the literal's order; a repeated key replaces the earlier value, as `JSON.parse` does in JavaScript.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init()
        members.reserveCapacity(elements.count)
        for (key, value) in elements {
            self[key] = value
        }
    }
}

extension JSONObject: CustomStringConvertible {
    /// The object serialized as compact JSON.
    public var description: String { JSONValue.object(self).description }
}

/// A member name hashed and compared by its UTF-8 bytes, not by Unicode canonical equivalence.
struct ObjectKey: Hashable {
    let string: String

    init(_ string: String) {
        self.string = string
    }

    static func == (lhs: ObjectKey, rhs: ObjectKey) -> Bool {
        lhs.string.bytewiseEquals(rhs.string)
    }

    func hash(into hasher: inout Hasher) {
        string.hashBytes(into: &hasher)
    }
}
