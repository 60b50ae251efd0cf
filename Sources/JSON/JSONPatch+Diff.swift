extension JSONPatch {
    /// Computes a small patch that turns `old` into `new`: `diff(from: a, to: b).apply(to: a) == b` always.
    ///
    /// Objects are compared member by member: a missing member becomes `remove`, a new one `add` (appended, in
    /// `new`'s order, as a JavaScript client would), a changed one is diffed recursively. Arrays are trimmed of
    /// their common prefix and suffix, and what is left is aligned with Myers' O(ND) algorithm for up to 32
    /// insertions and deletions: prepending a word to a list gives one `add` at index 0, dropping one gives one
    /// `remove`, an element changed in place is diffed recursively. Beyond that the rest is diffed position by
    /// position. Whenever the operations for an array or object would serialize larger than a single `replace`
    /// of it, that `replace` is used instead.
    ///
    /// Subtrees that share storage with the old state (copy-on-write) are skipped without being compared.
    ///
    /// - Parameters:
    ///   - old: The state the client has.
    ///   - new: The state the client should have.
    /// - Returns: The operations (RFC 6902 §4.1-§4.3 only: `add`, `remove`, `replace`).
    public static func diff(from old: JSONValue, to new: JSONValue) -> JSONPatch {
        var differ = Differ()
        differ.diff(old, new)
        return JSONPatch(differ.operations)
    }

    /// The operations turning `old` into `new` where both sit at `base` inside a larger document: the same as
    /// `diff(from:to:)` with every path prefixed by `base`. For a caller that knows which part of a document
    /// changed.
    public static func diff(from old: JSONValue, to new: JSONValue, at base: [String]) -> [Operation] {
        var differ = Differ()
        for token in base { differ.push(token) }
        differ.diff(old, new)
        return differ.operations
    }

    /// Array edits beyond this distance are not aligned (each round of Myers' algorithm compares up to N+M
    /// elements); the differing middle is then diffed position by position, or replaced if that is smaller.
    static let maxAlignedEdits = 32

    /// Element comparisons allowed for one alignment, so a long list that changed at both ends costs a bounded
    /// amount before falling back: the edit limit shrinks as the differing middle grows.
    static let maxAlignmentComparisons = 1 << 16
}

/// The state of one diff: the operations so far and the path being compared.
private struct Differ {
    /// Approximate bytes of an operation apart from its path and value: `{"op":"replace","path":"","value":}`.
    static let operationOverhead = 32

    var operations: [JSONPatch.Operation] = []
    /// The unescaped tokens of the current path.
    var tokens: [String] = []
    /// The approximate length of the current path's string form.
    var pathLength = 0

    /// Emits the operations turning `old` into `new` at the current path.
    ///
    /// - Returns: The approximate serialized size of what was emitted.
    @discardableResult
    mutating func diff(_ old: JSONValue, _ new: JSONValue) -> Int {
        let start = operations.count
        let cost: Int
        switch (old, new) {
        case (.object(let oldObject), .object(let newObject)):
            if oldObject.isIdentical(to: newObject) { return 0 }
            cost = diffObjects(oldObject, newObject)
        case (.array(let oldElements), .array(let newElements)):
            if JSONValue.isIdentical(oldElements, newElements) { return 0 }
            cost = diffArrays(oldElements, newElements)
        default:
            return old == new ? 0 : emit(.replace(path: pointer, value: new), value: new)
        }
        // Many operations inside one container may cost more than replacing it outright.
        guard operations.count - start >= 2 else { return cost }
        let replacement = Self.operationOverhead + pathLength + new.estimatedSize(upTo: cost)
        guard replacement < cost else { return cost }
        operations.removeSubrange(start...)
        return emit(.replace(path: pointer, value: new), value: new)
    }

    private mutating func diffObjects(_ old: JSONObject, _ new: JSONObject) -> Int {
        var cost = 0
        // The same shape built again (the common case for a state): pair members by position, and skip those
        // that are plainly unchanged without building their path.
        if old.hasSameKeys(as: new) {
            for position in 0..<old.count {
                let oldValue = old.value(at: position)
                let newValue = new.value(at: position)
                if oldValue.isPlainlyEqual(to: newValue) { continue }
                push(old.key(at: position))
                cost += diff(oldValue, newValue)
                pop()
            }
            return cost
        }
        for (key, oldValue) in old {
            push(key)
            if let newValue = new[key] {
                cost += diff(oldValue, newValue)
            } else {
                cost += emit(.remove(path: pointer))
            }
            pop()
        }
        for (key, newValue) in new where old.index(forKey: key) == nil {
            push(key)
            cost += emit(.add(path: pointer, value: newValue), value: newValue)
            pop()
        }
        return cost
    }

    private mutating func diffArrays(_ old: [JSONValue], _ new: [JSONValue]) -> Int {
        let shorter = min(old.count, new.count)
        var prefix = 0
        while prefix < shorter, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < shorter - prefix, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] {
            suffix += 1
        }
        let oldMiddle = old[prefix..<old.count - suffix]
        let newMiddle = new[prefix..<new.count - suffix]
        if oldMiddle.isEmpty, newMiddle.isEmpty { return 0 }

        // Deleting the whole old middle then inserting the new one: blocks pair up into in-place changes below,
        // so this is the position-by-position fallback, and exact when one side is empty.
        let length = oldMiddle.count + newMiddle.count
        let maxEdits = min(JSONPatch.maxAlignedEdits, JSONPatch.maxAlignmentComparisons / length)
        let aligned = Self.alignment(oldMiddle, newMiddle, maxEdits: maxEdits)
        let script = aligned
            ?? Array(repeating: .delete, count: oldMiddle.count) + Array(repeating: .insert, count: newMiddle.count)

        var cost = 0
        var oldIndex = prefix  // the next old element to account for
        var newIndex = prefix  // its position in the array as patched so far
        var step = 0
        while step < script.count {
            if script[step] == .keep {
                oldIndex += 1
                newIndex += 1
                step += 1
                continue
            }
            var deletions = 0
            var insertions = 0
            while step < script.count, script[step] != .keep {
                if script[step] == .delete { deletions += 1 } else { insertions += 1 }
                step += 1
            }
            let changes = min(deletions, insertions)
            for offset in 0..<changes {
                push(String(newIndex + offset))
                let oldValue = old[oldIndex + offset], newValue = new[newIndex + offset]
                cost += diff(oldValue, newValue)
                pop()
            }
            // Remove from the highest index down, so each path names an element of the original block.
            for offset in stride(from: deletions - 1, through: changes, by: -1) {
                push(String(newIndex + offset))
                cost += emit(.remove(path: pointer))
                pop()
            }
            for offset in changes..<max(changes, insertions) {
                let value = new[newIndex + offset]
                push(String(newIndex + offset))
                cost += emit(.add(path: pointer, value: value), value: value)
                pop()
            }
            oldIndex += deletions
            newIndex += insertions
        }
        return cost
    }

    // MARK: Alignment

    enum Edit: UInt8 {
        case keep, delete, insert
    }

    /// Myers' shortest edit script ("An O(ND) Difference Algorithm and Its Variations", 1986) between two
    /// slices, or `nil` if it needs more than `maxEdits` insertions and deletions.
    static func alignment(_ old: ArraySlice<JSONValue>, _ new: ArraySlice<JSONValue>, maxEdits: Int) -> [Edit]? {
        let oldCount = old.count
        let newCount = new.count
        if oldCount == 0 || newCount == 0 || maxEdits < 1 { return nil }
        let limit = min(maxEdits, oldCount + newCount)
        let center = limit + 1
        // furthest[center + k]: the furthest x reached on diagonal k = x - y.
        var furthest = [Int](repeating: 0, count: 2 * limit + 3)
        var trace: [[Int]] = []
        for distance in 0...limit {
            trace.append(furthest)
            for diagonal in stride(from: -distance, through: distance, by: 2) {
                var x = goesDown(diagonal, distance, furthest, center)
                    ? furthest[center + diagonal + 1]
                    : furthest[center + diagonal - 1] + 1
                var y = x - diagonal
                while x < oldCount, y < newCount, old[old.startIndex + x] == new[new.startIndex + y] {
                    x += 1
                    y += 1
                }
                furthest[center + diagonal] = x
                if x >= oldCount, y >= newCount {
                    return backtrack(trace, oldCount: oldCount, newCount: newCount, center: center)
                }
            }
        }
        return nil
    }

    /// Whether the best path to `diagonal` comes from `diagonal + 1` (an insertion) rather than `diagonal - 1`.
    @inline(__always)
    private static func goesDown(_ diagonal: Int, _ distance: Int, _ furthest: [Int], _ center: Int) -> Bool {
        diagonal == -distance
            || (diagonal != distance && furthest[center + diagonal - 1] < furthest[center + diagonal + 1])
    }

    private static func backtrack(_ trace: [[Int]], oldCount: Int, newCount: Int, center: Int) -> [Edit] {
        var edits: [Edit] = []
        edits.reserveCapacity(oldCount + newCount)
        var x = oldCount
        var y = newCount
        for distance in stride(from: trace.count - 1, through: 0, by: -1) {
            let furthest = trace[distance]
            let diagonal = x - y
            let previousDiagonal = goesDown(diagonal, distance, furthest, center) ? diagonal + 1 : diagonal - 1
            let previousX = furthest[center + previousDiagonal]
            let previousY = previousX - previousDiagonal
            while x > previousX, y > previousY {
                edits.append(.keep)
                x -= 1
                y -= 1
            }
            if distance > 0 {
                edits.append(x == previousX ? .insert : .delete)
            }
            x = previousX
            y = previousY
        }
        return edits.reversed()
    }

    // MARK: Output

    var pointer: JSONPointer { JSONPointer(tokens: tokens) }

    mutating func push(_ token: String) {
        tokens.append(token)
        pathLength += token.utf8.count + 1
    }

    mutating func pop() {
        pathLength -= tokens.removeLast().utf8.count + 1
    }

    mutating func emit(_ operation: JSONPatch.Operation, value: JSONValue? = nil) -> Int {
        operations.append(operation)
        return Self.operationOverhead + pathLength + (value?.estimatedSize(upTo: .max) ?? 0)
    }
}

extension JSONValue {
    /// Roughly the length of the value's JSON text, counting no further than just past `limit`.
    func estimatedSize(upTo limit: Int) -> Int {
        var total = 0
        addEstimatedSize(to: &total, limit: limit)
        return total
    }

    private func addEstimatedSize(to total: inout Int, limit: Int) {
        let typicalDoubleLength = 12
        switch self {
        case .null: total += 4
        case .bool(let flag): total += flag ? 4 : 5
        case .integer(let integer):
            var digits = integer < 0 ? 2 : 1
            var rest = integer.magnitude
            while rest >= 10 {
                rest /= 10
                digits += 1
            }
            total += digits
        case .number: total += typicalDoubleLength
        case .string(let string): total += string.utf8.count + 2
        case .array(let elements):
            total += 1 + elements.count
            for element in elements where total <= limit {
                element.addEstimatedSize(to: &total, limit: limit)
            }
        case .object(let object):
            total += 1 + object.count
            for (key, member) in object where total <= limit {
                total += key.utf8.count + 3
                member.addEstimatedSize(to: &total, limit: limit)
            }
        }
    }
}
