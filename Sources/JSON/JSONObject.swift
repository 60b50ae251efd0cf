/// A JSON object (RFC 8259 §4): members kept in insertion order, with keys compared byte by byte.
///
/// Insertion order makes serialization deterministic (the same value always gives the same bytes) and mirrors
/// what a JavaScript client does when it applies a JSON Patch: `add` of a new member appends it, `replace` keeps
/// its place. Equality ignores order, as RFC 6902 §4.6 requires for `test`.
///
/// Small objects are searched linearly; above a few dozen members a hash index is kept so lookups stay O(1) for
/// large maps such as players keyed by id.
///
/// Sendable though its index is a class: the index is never changed while shared, as a copy-on-write buffer is.
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

    private var members: [Member]
    /// The hash index of a large object: one reference, so that an object takes two words and a `JSONValue` no
    /// more than a string does.
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

    // MARK: Members

    /// Reserves storage for `minimumCapacity` members.
    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        members.reserveCapacity(minimumCapacity)
    }

    /// The keys, in order.
    public var keys: some RandomAccessCollection<String> { members.lazy.map(\.key) }

    /// The values, in key order.
    public var values: some RandomAccessCollection<JSONValue> { members.lazy.map(\.value) }

    /// The position of the member named `key`, compared byte by byte.
    ///
    /// - Parameter key: The member name.
    /// - Returns: The member's position, or `nil` if there is none.
    public func index(forKey key: String) -> Int? {
        if let side { return side.index[ObjectKey(key)] }
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
        guard let position = index(forKey: key) else { return nil }
        return remove(at: position).value
    }

    /// Removes and returns the member at `position`; later members keep their order.
    @discardableResult
    public mutating func remove(at position: Int) -> Element {
        let removed = members.remove(at: position)
        if side != nil {
            rebuildIndex()
        }
        return (removed.key, removed.value)
    }

    /// Appends a member whose key the caller has checked is not present (the parser checks for duplicates).
    mutating func appendNew(key: String, value: JSONValue) {
        members.append(Member(key: key, value: value))
        if side != nil {
            if !isKnownUniquelyReferenced(&side!) { side = Side(index: side!.index) }
            // Through the reference, so the dictionary is changed where it lies instead of copied.
            side!.index[ObjectKey(key)] = members.count - 1
        } else if members.count > Self.indexThreshold {
            rebuildIndex()
        }
    }

    /// Runs `body` on the value of the member named `key` in place, without copying it out. Returns nil,
    /// without calling `body`, if there is no such member.
    public mutating func withValue<R>(forKey key: String, _ body: (inout JSONValue) throws -> R) rethrows -> R? {
        guard let position = index(forKey: key) else { return nil }
        return try body(&members[position].value)
    }

    /// Runs `body` on the value at `position` in place, without copying it out.
    mutating func modifyValue<R, E: Error>(at position: Int, _ body: (inout JSONValue) throws(E) -> R) throws(E) -> R {
        return try body(&members[position].value)
    }

    /// Whether `other` has the same keys in the same order (two builds of one shape), so that members can be
    /// compared position by position.
    func hasSameKeys(as other: JSONObject) -> Bool {
        guard members.count == other.members.count else { return false }
        for position in members.indices where !members[position].key.bytewiseEquals(other.members[position].key) {
            return false
        }
        return true
    }

    /// The key of the member at `position`.
    func key(at position: Int) -> String { members[position].key }

    /// The value of the member at `position`.
    func value(at position: Int) -> JSONValue { members[position].value }

    /// True when both objects share storage, so they are equal without looking at members.
    func isIdentical(to other: JSONObject) -> Bool {
        return members.withUnsafeBufferPointer { left in
            other.members.withUnsafeBufferPointer { right in
                left.baseAddress == right.baseAddress && left.count == right.count
            }
        }
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
        side = Side(index: rebuilt)
    }
}

extension JSONObject: RandomAccessCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { members.count }
    public subscript(position: Int) -> Element {
        let member = members[position]
        return (member.key, member.value)
    }
}

extension JSONObject: Hashable {
    /// RFC 6902 §4.6: objects are equal when they have the same members, whatever their order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        if lhs.isIdentical(to: rhs) { return true }
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
