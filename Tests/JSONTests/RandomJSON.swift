import JSON

/// Random JSON values and random edits of them, for the property tests. Deterministic for a given seed.
struct RandomJSON {
    /// Member names drawn from a small pool so that two values share keys. It holds the characters that JSON
    /// Pointer escapes (`/`, `~`) and both spellings of "é", which Swift's `String ==` calls equal but JSON does not.
    static let keys = ["a", "b", "id", "score", "", "a/b", "m~n", "~1", "\u{E9}", "e\u{301}", "words", "0"]
    /// Strings that need every kind of escape, plus non-ASCII; few enough that arrays get duplicates.
    static let words = ["cat", "dog", "owl", "", "\"q\"", "back\\slash", "tab\t", "nul\u{0}", "\u{E9}",
                        "e\u{301}", "\u{1F600}", "~/", "line\u{2028}sep"]

    var generator: SeededGenerator

    init(seed: UInt64) {
        generator = SeededGenerator(seed: seed)
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &generator)
    }

    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &generator) < probability
    }

    mutating func scalar() -> JSONValue {
        switch int(0...8) {
        case 0: return .null
        case 1: return .bool(chance(0.5))
        case 2: return .integer(Int64(int(-3...3)))
        case 3: return .integer(Int64.random(in: .min ... .max, using: &generator))
        case 4: return .number(Double(int(-3...3)))  // integral doubles: equal to the integers above
        case 5: return .number(Double.random(in: -1e6...1e6, using: &generator))
        case 6:
            let anyBits = Double(bitPattern: generator.next())
            return .number(anyBits.isFinite ? anyBits : -0.0)
        default: return .string(Self.words[int(0...Self.words.count - 1)])
        }
    }

    /// A random value nested at most `depth` levels.
    mutating func value(depth: Int) -> JSONValue {
        if depth <= 0 || chance(0.3) { return scalar() }
        if chance(0.5) {
            return .array((0..<int(0...6)).map { _ in value(depth: depth - 1) })
        }
        var object = JSONObject()
        for _ in 0..<int(0...5) {
            object[Self.keys[int(0...Self.keys.count - 1)]] = value(depth: depth - 1)
        }
        return .object(object)
    }

    /// `value` after `count` random edits, each at a random depth.
    ///
    /// - Parameter singleOperation: Use only edits that one patch operation can express (insert, remove,
    ///   replace by a scalar), so that a minimal diff has at most one operation.
    mutating func mutated(_ value: JSONValue, edits count: Int, singleOperation: Bool = false) -> JSONValue {
        var result = value
        for _ in 0..<count {
            result = edit(result, singleOperation: singleOperation)
        }
        return result
    }

    private mutating func edit(_ target: JSONValue, singleOperation: Bool) -> JSONValue {
        func newValue(_ random: inout RandomJSON) -> JSONValue {
            singleOperation ? random.scalar() : random.value(depth: 2)
        }
        switch target {
        case .array(var elements):
            if !elements.isEmpty, chance(0.6) {
                let index = int(0...elements.count - 1)
                elements[index] = edit(elements[index], singleOperation: singleOperation)
                return .array(elements)
            }
            let kinds = singleOperation ? 4 : 7
            switch int(0...kinds) {
            case 0: elements.insert(value(depth: 2), at: int(0...elements.count))
            case 1: elements.insert(value(depth: 2), at: 0)
            case 2: elements.append(value(depth: 2))
            case 3, 4:
                if !elements.isEmpty { elements.remove(at: int(0...elements.count - 1)) }
            case 5:
                if elements.count > 1 {
                    let moved = elements.remove(at: int(0...elements.count - 1))
                    elements.insert(moved, at: int(0...elements.count))
                }
            case 6:
                // A bounded newest-first list: prepend one, drop the oldest.
                elements.insert(value(depth: 1), at: 0)
                elements.removeLast()
            default:
                return newValue(&self)
            }
            return .array(elements)
        case .object(var object):
            if !object.isEmpty, chance(0.6) {
                let key = object[int(0...object.count - 1)].key
                object[key] = edit(object[key]!, singleOperation: singleOperation)
                return .object(object)
            }
            let kinds = singleOperation ? 2 : 4
            switch int(0...kinds) {
            case 0:
                let key = Self.keys[int(0...Self.keys.count - 1)]
                if object[key] == nil { object[key] = value(depth: 2) }
            case 1, 2:
                if !object.isEmpty { object.remove(at: int(0...object.count - 1)) }
            case 3:
                // Same members, another order: equal, so the diff must be empty for this edit.
                object = JSONObject(object.reversed().map { ($0.key, $0.value) })
            default:
                return newValue(&self)
            }
            return .object(object)
        default:
            return newValue(&self)
        }
    }
}
