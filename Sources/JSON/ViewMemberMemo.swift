#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One member of a view as last encoded, kept by `JSONViewDiffer` to tell whether the next value changed and,
/// when it did, to write the operations from the old JSON to the new.
///
/// Made once per member (`make`), by what the member's type offers: arrays of `Equatable` elements compare and
/// encode element by element, other `Equatable` values compare as a whole, anything else compares its JSON.
class ViewMemberMemo {
    /// A memo of its own with the same value, for a copy of the differ.
    func copy() -> ViewMemberMemo {
        self
    }

    /// Keeps `value` and appends the operations from the kept value's JSON to `value`'s, at the member `key`
    /// below `base`; appends nothing when `value` equals the value kept (the common case, which costs a
    /// comparison and no path).
    func update<T: Encodable>(to value: T, base: [String], key: String, into operations: inout [JSONPatch.Operation],
                              encoder: JSONValueEncoder) throws(EncodingError) {}

    /// The memo for a member whose first value is `value`.
    static func make<T: Encodable>(for value: T, encoder: JSONValueEncoder) throws(EncodingError)
        -> ViewMemberMemo {
        if let list = value as? any EquatableElementList { return list.makeMemo() }
        if let equatable = value as? any Equatable & Encodable { return makeEquatable(equatable) }
        return try JSONMemberMemo(try encoder.encode(value))
    }

    private static func makeEquatable<E: Equatable & Encodable>(_ value: E) -> ViewMemberMemo {
        EquatableMemberMemo(value)
    }
}

/// A memo of one kept value, which a copy of the differ gets a memo of its own of: what each kind below is.
class KeptMemberMemo<Kept>: ViewMemberMemo {
    // Unchecked, as in every memo here: see `ViewDiffEncoder` for the measured cost.
    @exclusivity(unchecked) final var kept: Kept

    required init(_ kept: Kept) {
        self.kept = kept
    }

    override func copy() -> ViewMemberMemo {
        Self(kept)
    }
}

/// An `Equatable` member: compared with `==`; when it changed, a scalar is replaced and anything else is diffed
/// against the kept value's JSON.
final class EquatableMemberMemo<Value: Equatable & Encodable>: KeptMemberMemo<Value> {
    /// What `Value` is when it is one of the standard library's scalars: then its JSON is written directly,
    /// without an encoder (most members that change on a move are a number or a line of text).
    private let scalar = ScalarKind(Value.self)
    /// Whether the value is compared byte for byte before `==`: for a struct of several members (settings, a
    /// round summary) equal bytes prove it unchanged for a `memcmp`, where `==` here is a call per member through
    /// witness tables. Scalars and strings go straight to `==`.
    private let comparesBytes = MemoryLayout<Value>.size > 16

    override func update<T: Encodable>(to other: T, base: [String], key: String,
                                       into operations: inout [JSONPatch.Operation],
                                       encoder: JSONValueEncoder) throws(EncodingError) {
        // A member's type is the same on every update (the view's type says it): comparing the metatypes and
        // reinterpreting replaces a dynamic cast (`as?`), which in this unspecialized code looks up conformances.
        guard T.self == Value.self else { return try replace(with: other, base: base, key: key, into: &operations,
                                                             encoder: encoder) }
        let typed = _identityCast(other, to: Value.self)
        if comparesBytes, Self.sameBytes(typed, kept) { return }
        if typed == kept { return }
        try replace(with: other, base: base, key: key, into: &operations, encoder: encoder)
        kept = typed
    }

    private static func sameBytes(_ first: Value, _ second: Value) -> Bool {
        withUnsafePointer(to: first) { first in
            withUnsafePointer(to: second) { second in memcmp(first, second, MemoryLayout<Value>.size) == 0 }
        }
    }

    private func replace<T: Encodable>(with other: T, base: [String], key: String,
                                       into operations: inout [JSONPatch.Operation],
                                       encoder: JSONValueEncoder) throws(EncodingError) {
        var path = base
        path.append(key)
        let new: JSONValue
        if T.self == Value.self, let json = scalar.json(_identityCast(other, to: Value.self)) {
            new = json
        } else {
            new = try encoder.encode(other)
        }
        switch new {
        case .object, .array:
            operations += JSONPatch.diff(from: try encoder.encode(kept), to: new, at: path)
        default:
            operations.append(.replace(path: JSONPointer(tokens: path), value: new))
        }
    }
}

/// The standard library's scalars a view's member may be, told apart once per member by its type.
enum ScalarKind {
    case int, string, bool, double, optionalInt, optionalString, optionalDouble, optionalBool, other

    init<Value>(_ type: Value.Type) {
        self = switch type {
        case is Int.Type: .int
        case is String.Type: .string
        case is Bool.Type: .bool
        case is Double.Type: .double
        case is Int?.Type: .optionalInt
        case is String?.Type: .optionalString
        case is Double?.Type: .optionalDouble
        case is Bool?.Type: .optionalBool
        default: .other
        }
    }

    /// The JSON of `value`, a value of the type this kind was made for; nil for `.other` and for numbers JSON
    /// cannot hold (which the encoder then refuses).
    func json<Value>(_ value: Value) -> JSONValue? {
        switch self {
        case .int: return .integer(Int64(unsafeBitCast(value, to: Int.self)))
        case .string: return .string(unsafeBitCast(value, to: String.self))
        case .bool: return .bool(unsafeBitCast(value, to: Bool.self))
        case .double: return Self.number(unsafeBitCast(value, to: Double.self))
        case .optionalInt: return unsafeBitCast(value, to: Int?.self).map { .integer(Int64($0)) } ?? .null
        case .optionalString: return unsafeBitCast(value, to: String?.self).map { .string($0) } ?? .null
        case .optionalDouble:
            guard let number = unsafeBitCast(value, to: Double?.self) else { return .null }
            return Self.number(number)
        case .optionalBool: return unsafeBitCast(value, to: Bool?.self).map { .bool($0) } ?? .null
        case .other: return nil
        }
    }

    private static func number(_ value: Double) -> JSONValue? {
        value.isFinite ? .number(value) : nil
    }
}

/// A member of any other type: its JSON is kept and compared.
final class JSONMemberMemo: KeptMemberMemo<JSONValue> {

    override func update<T: Encodable>(to other: T, base: [String], key: String,
                                       into operations: inout [JSONPatch.Operation],
                                       encoder: JSONValueEncoder) throws(EncodingError) {
        let new = try encoder.encode(other)
        if new == kept { return }
        var path = base
        path.append(key)
        operations += JSONPatch.diff(from: kept, to: new, at: path)
        kept = new
    }
}

/// A list of `Equatable` elements, which a view's differ compares element by element.
protocol EquatableElementList {
    func makeMemo() -> ViewMemberMemo
}

extension Array: EquatableElementList where Element: Equatable & Encodable {
    func makeMemo() -> ViewMemberMemo {
        ListMemberMemo(self)
    }
}

/// A list member: trimmed of the elements it shares with the kept list at both ends (compared with `==`), so
/// that only the elements in between are encoded. Elements changed in place are replaced one by one, elements
/// added or removed at one place become `add` or `remove` operations; anything else is diffed as a whole.
final class ListMemberMemo<Element: Equatable & Encodable>: KeptMemberMemo<[Element]> {

    override func update<T: Encodable>(to other: T, base: [String], key: String,
                                       into operations: inout [JSONPatch.Operation],
                                       encoder: JSONValueEncoder) throws(EncodingError) {
        guard T.self == [Element].self else { return }
        let new = _identityCast(other, to: [Element].self)
        let old = kept
        let (prefix, suffix) = old.withUnsafeBufferPointer { old in
            new.withUnsafeBufferPointer { new in Self.commonEnds(old, new) }
        }
        // Kept even when equal: the game's next list most likely shares this one's storage, found equal at once.
        kept = new
        if prefix == old.count, old.count == new.count { return }
        var path = base
        path.append(key)
        let oldMiddle = prefix..<(old.count - suffix)
        let newMiddle = prefix..<(new.count - suffix)
        var elementPath = path
        elementPath.append("")
        if oldMiddle.count == newMiddle.count {
            // Elements changed in place: each is replaced whole. Diffing it against the old element would encode
            // that one too, for a patch a few bytes smaller.
            for index in oldMiddle where old[index] != new[index] {
                elementPath[elementPath.count - 1] = String(index)
                let value = try encoder.encode(new[index])
                operations.append(.replace(path: JSONPointer(tokens: elementPath), value: value))
            }
        } else if oldMiddle.isEmpty {
            for index in newMiddle {
                elementPath[elementPath.count - 1] = String(index)
                operations.append(.add(path: JSONPointer(tokens: elementPath), value: try encoder.encode(new[index])))
            }
        } else if newMiddle.isEmpty {
            // From the back, so that each index is still where it was.
            for index in oldMiddle.reversed() {
                elementPath[elementPath.count - 1] = String(index)
                operations.append(.remove(path: JSONPointer(tokens: elementPath)))
            }
        } else {
            operations += JSONPatch.diff(from: try encoder.encode(old), to: try encoder.encode(new), at: path)
        }
    }

    /// How many elements `old` and `new` share at their start and, after those, at their end.
    ///
    /// Runs of elements that are the same bytes are found with one `memcmp` first: a list that gained or lost an
    /// element at one end holds the other elements as they were (the same strings' storage), and comparing them
    /// one by one with `==` would cost a call each in this unspecialized code, for every move, over lists that
    /// grow through a round. Bytes that differ prove nothing (a string may be equal in other storage), so the
    /// elements are then compared one by one: by their bytes, then with `==` where those differ (a list the game
    /// builds anew for every view, such as a scoreboard, holds the same strings' storage in its unchanged lines).
    private static func commonEnds(_ old: UnsafeBufferPointer<Element>, _ new: UnsafeBufferPointer<Element>)
        -> (prefix: Int, suffix: Int) {
        let shorter = min(old.count, new.count)
        guard shorter > 0, let oldStart = old.baseAddress, let newStart = new.baseAddress else { return (0, 0) }
        var prefix = 0
        if oldStart == newStart || sameBytes(oldStart, newStart, count: shorter) {
            prefix = shorter
        } else {
            while prefix < shorter,
                  sameBytes(oldStart + prefix, newStart + prefix, count: 1) || old[prefix] == new[prefix] {
                prefix += 1
            }
        }
        let rest = shorter - prefix
        guard rest > 0 else { return (prefix, 0) }
        if sameBytes(oldStart + (old.count - rest), newStart + (new.count - rest), count: rest) {
            return (prefix, rest)
        }
        var suffix = 0
        while suffix < rest {
            let oldIndex = old.count - 1 - suffix, newIndex = new.count - 1 - suffix
            guard sameBytes(oldStart + oldIndex, newStart + newIndex, count: 1) || old[oldIndex] == new[newIndex] else {
                break
            }
            suffix += 1
        }
        return (prefix, suffix)
    }

    private static func sameBytes(_ first: UnsafePointer<Element>, _ second: UnsafePointer<Element>, count: Int)
        -> Bool {
        memcmp(first, second, count * MemoryLayout<Element>.stride) == 0
    }
}
