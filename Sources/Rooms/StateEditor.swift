import JSON

/// Edits a room's kept state in place and records the JSON Patch operations of each edit: what
/// `RoomStateBuilder` uses for the room's parts and each game (`RoomGame.show`) for its own.
///
/// Each edit looks at one part by itself:
/// - `set` compares a value with the kept one and replaces it (diffing the two) when it changed;
/// - `update(_:_:log:...)` turns a list that grows at one end (`JSONLog`) into `add` and `remove` operations;
/// - `update(_:_:rows:...)` rebuilds and diffs only the entries that changed of a list whose entries change where
///   they are (`JSONRows`).
///
/// The entries of both kinds of list (chat lines, found words, guesses, finished games; score lines, letter
/// positions) are most of a busy room's state, and what they show is kept anyway: in the games' own lists, and
/// for rows in `JSONRows`. With `keepsEntries` false the kept state holds each such list as its length (a JSON
/// number where clients have the array): the operations still carry the entries (a row's are diffed against
/// the row built again from what `JSONRows` remembers), but the state keeps only how many there are. The room writes its whole state from its parts when
/// someone needs it, which is rare next to the patches (see `RoomStateBuilder.shownState`).
struct StateEditor {
    /// The operations of the edits so far.
    var operations: [JSONPatch.Operation] = []
    /// Whether the kept state holds the lists (`JSONLog`, `JSONRows`), or only their lengths.
    var keepsEntries = true
    /// Where the object being edited sits in the state.
    private var path: [String] = []

    /// Forgets the operations of the last update (the path keeps its storage for the next).
    mutating func reset() {
        operations = []
        path.removeAll(keepingCapacity: true)
    }

    /// Edits from now on are of the object at member `key` of the one edited so far, until `leave()`.
    mutating func enter(_ key: String) {
        path.append(key)
    }

    /// Back to editing the object that `enter` left.
    mutating func leave() {
        path.removeLast()
    }

    /// Sets `object[key]` to `value`, emitting the operations for the difference (none if it is the same).
    mutating func set(_ object: inout JSONObject, _ key: String, _ value: JSONValue) {
        // One lookup, and the old value changed where it is.
        let found: Void? = object.withValue(forKey: key) { old in
            if old.isPlainlyEqual(to: value) { return }
            path.append(key)
            if Self.isScalar(old) && Self.isScalar(value) {
                // What the diff would give, without setting one up: most edits are a number or a line of text.
                if old != value { operations.append(.replace(path: JSONPointer(tokens: path), value: value)) }
            } else {
                operations += JSONPatch.diff(from: old, to: value, at: path)
            }
            path.removeLast()
            old = value
        }
        if found == nil { addNew(&object, key, value, keeping: value) }
    }

    /// `object[key]` is new: one `add` of `value`, with `kept` kept for it.
    private mutating func addNew(_ object: inout JSONObject, _ key: String, _ value: JSONValue,
                                 keeping kept: JSONValue) {
        path.append(key)
        operations.append(.add(path: JSONPointer(tokens: path), value: value))
        path.removeLast()
        object[key] = kept
    }

    /// Sets `object[name]` to the part `build(key)`, which `memo` keeps until `key` changes. Keeping entries,
    /// that is `set` with the kept JSON; otherwise the memo keeps only the key, the operations come from diffing
    /// the part built again from the previous key, and the state keeps the part with its lists as their lengths
    /// (a finished round's words, a final scoreboard).
    mutating func set<Key: Equatable>(_ object: inout JSONObject, _ name: String, memo: inout JSONMemo<Key>,
                                      for key: Key, _ build: (Key) -> JSONValue) {
        guard !keepsEntries else {
            set(&object, name, memo.value(for: key, build))
            return
        }
        let (changed, previous) = memo.change(to: key)
        guard changed else { return }
        setShown(&object, name, was: previous.map(build), build(key))
    }

    /// Sets `object[key]` to `value`, kept with its lists as their lengths (see `keepsEntries`). The operations
    /// come from diffing `old`, the value as last built (built again from what the caller remembers), or,
    /// without it, are the whole value (`replace`, or `add` when new) unless it is what is kept already and
    /// has no list entries: a kept length cannot be diffed against.
    private mutating func setShown(_ object: inout JSONObject, _ key: String, was old: JSONValue?,
                                   _ value: JSONValue) {
        let shown = Self.withoutListEntries(value)
        let found: Void? = object.withValue(forKey: key) { kept in
            path.append(key)
            if let old {
                operations += JSONPatch.diff(from: old, to: value, at: path)
            } else if !kept.isPlainlyEqual(to: shown) || Self.holdsListEntries(value) {
                operations.append(.replace(path: JSONPointer(tokens: path), value: value))
            }
            path.removeLast()
            kept = shown
        }
        if found == nil { addNew(&object, key, value, keeping: shown) }
    }

    /// Whether `value` holds an array with something in it.
    private static func holdsListEntries(_ value: JSONValue) -> Bool {
        switch value {
        case .array(let items): !items.isEmpty
        case .object(let object): object.values.contains(where: holdsListEntries)
        default: false
        }
    }

    /// `value` with each of its arrays as its length (a round's found and missed words), as a state that keeps
    /// no entries holds it.
    static func withoutListEntries(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let items):
            return .integer(Int64(items.count))
        case .object(let object):
            var kept = object
            for (key, member) in object {
                switch member {
                case .array, .object: kept[key] = withoutListEntries(member)
                default: continue
                }
            }
            return .object(kept)
        default:
            return value
        }
    }

    /// Brings the list at `object[key]` up to date with `list`: `remove` for the entries that dropped off its
    /// oldest end and `add` for the new ones at its newest end, applied in place; a `replace` of the whole list
    /// when it was reset (a new game or round) or changed too much for entry-by-entry operations to be smaller.
    mutating func update<Element: Equatable>(
        _ object: inout JSONObject, _ key: String, log: inout JSONLog<Element>,
        _ list: [Element], generation: Int, ordinal: ((Element) -> Int)?, _ build: (Element) -> JSONValue
    ) {
        switch log.edit(to: list, generation: generation, ordinal: ordinal) {
        case .unchanged:
            return
        case .reset:
            setList(&object, key, was: nil, log.reset(list, generation: generation, ordinal: ordinal, build))
        case .edit(let dropped, let added):
            // The closures below use locals only: reaching `self` from inside them made the compiler copy
            // what it holds on each change.
            let base = path + [key]
            func element(_ index: Int) -> JSONPointer { JSONPointer(tokens: Self.tokens(base, index)) }
            var edits: [JSONPatch.Operation] = []
            edits.reserveCapacity(dropped + added)
            var applied = false
            let newestAt = log.newestAt
            let keepsEntries = keepsEntries
            _ = object.withValue(forKey: key) { value in
                guard var count = Self.length(of: value, keepingEntries: keepsEntries), dropped <= count else {
                    return
                }
                switch newestAt {
                case .back:
                    for _ in 0..<dropped { edits.append(.remove(path: element(0))) }
                    count -= dropped
                    for entry in list[(list.count - added)...] {
                        edits.append(.add(path: element(count), value: build(entry)))
                        count += 1
                    }
                case .front:
                    for _ in 0..<dropped {
                        count -= 1
                        edits.append(.remove(path: element(count)))
                    }
                    for (index, entry) in list[..<added].enumerated() {
                        edits.append(.add(path: element(index), value: build(entry)))
                        count += 1
                    }
                }
                applied = true
                guard keepsEntries else {
                    value = .integer(Int64(count))
                    return
                }
                // The new entries are the values of the `add`s, which follow the `remove`s.
                let fresh = edits[dropped...].compactMap { edit -> JSONValue? in
                    if case .add(_, let json) = edit { json } else { nil }
                }
                _ = value.withArray { (items: inout [JSONValue]) in
                    switch newestAt {
                    case .back:
                        items.removeFirst(dropped)
                        items.append(contentsOf: fresh)
                    case .front:
                        items.removeLast(dropped)
                        items.insert(contentsOf: fresh, at: 0)
                    }
                }
            }
            operations += edits
            if !applied {
                // Not an array where one was expected (cannot happen with our own builds): replace it.
                setList(&object, key, was: nil, log.reset(list, generation: generation, ordinal: ordinal, build))
            }
        }
    }

    /// Brings the list at `object[key]` up to date with `list`: when only entries changed (the list kept its
    /// length), each changed entry is rebuilt and diffed in place, so a move that changes one score line costs
    /// one line; otherwise the whole list is rebuilt and diffed.
    mutating func update<Element: Equatable>(
        _ object: inout JSONObject, _ key: String, rows: inout JSONRows<Element>, _ list: [Element],
        _ build: (Element) -> JSONValue
    ) {
        let previous = rows.previous
        let wasPrimed = rows.primed
        let change = rows.change(to: list)
        rows.remember(list)
        switch change {
        case .unchanged:
            return
        case .whole:
            setList(&object, key, was: wasPrimed ? .array(previous.map(build)) : nil, .array(list.map(build)))
            return
        case .entries:
            break
        }
        // Locals only inside the closures (see the `JSONLog` update).
        let base = path + [key]
        let keepsEntries = keepsEntries
        var edits: [JSONPatch.Operation] = []
        var applied = false
        _ = object.withValue(forKey: key) { value in
            guard Self.length(of: value, keepingEntries: keepsEntries) == list.count else { return }
            for index in list.indices where list[index] != previous[index] {
                let json = build(list[index])
                // The entry as last built is built again from `previous`: the state may keep only the length.
                edits += JSONPatch.diff(from: build(previous[index]), to: json, at: Self.tokens(base, index))
                if keepsEntries { _ = value.withArray { $0[index] = json } }
            }
            applied = true
        }
        operations += edits
        if !applied {
            // Not the array this builder made (cannot happen with our own builds): replace it.
            setList(&object, key, was: nil, .array(list.map(build)))
        }
    }

    /// Sets `object[key]` to a whole list (`JSONLog` or `JSONRows`): as `set` when keeping entries, otherwise
    /// kept as its length (see `setShown`; `old` is a row list built again from what `JSONRows` remembers).
    private mutating func setList(_ object: inout JSONObject, _ key: String, was old: JSONValue?,
                                  _ list: JSONValue) {
        if keepsEntries {
            set(&object, key, list)
        } else {
            setShown(&object, key, was: old, list)
        }
    }

    // MARK: Edits written from a move

    /// Replaces member `field` of entry `index` of the list `object[key]` (a `JSONRows` list) with `value`,
    /// with one `replace`: for a caller that knows what a move changed (a revealed letter, a score). Nothing
    /// when the value is the same as the kept one, or, when entries are not kept, as `old` (the member as the
    /// entry was last built). Returns false, having changed nothing, when there is no such entry.
    @discardableResult
    mutating func replace(_ object: inout JSONObject, _ key: String, index: Int, field: String,
                          _ value: JSONValue, was old: JSONValue) -> Bool {
        var edit: JSONPatch.Operation?
        var tokens = path
        tokens.append(key)
        tokens.append(String(index))
        tokens.append(field)
        let keepsEntries = keepsEntries
        let found: Bool? = object.withValue(forKey: key) { list in
            guard keepsEntries else {
                guard let count = Self.keptLength(list), index >= 0, index < count else { return false }
                if !old.isPlainlyEqual(to: value) { edit = .replace(path: JSONPointer(tokens: tokens), value: value) }
                return true
            }
            return list.withArray { (items: inout [JSONValue]) -> Bool in
                guard items.indices.contains(index) else { return false }
                return items[index].withObject { entry -> Bool in
                    entry.withValue(forKey: field) { old in
                        guard !old.isPlainlyEqual(to: value) else { return }
                        old = value
                        edit = .replace(path: JSONPointer(tokens: tokens), value: value)
                    } != nil
                } ?? false
            } ?? false
        }
        guard found == true else { return false }
        if let edit { operations.append(edit) }
        return true
    }

    /// `replace(_:_:index:field:_:was:)` for several members of entries of one list, the list looked up once (a
    /// word that moves its finder up the scoreboard changes a few fields of a few lines); each edit is a member
    /// that changed. Returns false when an entry or member is missing; the edits before it are made and
    /// recorded.
    @discardableResult
    mutating func replace(_ object: inout JSONObject, _ key: String,
                          fields edits: [(index: Int, field: String, value: JSONValue)]) -> Bool {
        guard !edits.isEmpty else { return true }
        var written: [JSONPatch.Operation] = []
        written.reserveCapacity(edits.count)
        let base = path
        let keepsEntries = keepsEntries
        let found: Bool? = object.withValue(forKey: key) { list in
            guard keepsEntries else {
                guard let count = Self.keptLength(list) else { return false }
                for edit in edits {
                    guard edit.index >= 0, edit.index < count else { return false }
                    var tokens = base
                    tokens.append(key)
                    tokens.append(String(edit.index))
                    tokens.append(edit.field)
                    written.append(.replace(path: JSONPointer(tokens: tokens), value: edit.value))
                }
                return true
            }
            return list.withArray { (items: inout [JSONValue]) -> Bool in
                for edit in edits {
                    guard items.indices.contains(edit.index) else { return false }
                    let done = items[edit.index].withObject { entry -> Bool in
                        entry.withValue(forKey: edit.field) { old in
                            guard !old.isPlainlyEqual(to: edit.value) else { return }
                            old = edit.value
                            var tokens = base
                            tokens.append(key)
                            tokens.append(String(edit.index))
                            tokens.append(edit.field)
                            written.append(.replace(path: JSONPointer(tokens: tokens), value: edit.value))
                        } != nil
                    } ?? false
                    guard done else { return false }
                }
                return true
            } ?? false
        }
        operations += written
        return found == true
    }

    /// Inserts `value`, an entry of a list that grows at one end (`JSONLog`), into the list `object[key]` at
    /// `index` (its end at most), with one `add`; only counted unless `keepsEntries`. Returns false,
    /// having changed nothing, when there is no such list or the index is past its end.
    @discardableResult
    mutating func insert(_ object: inout JSONObject, _ key: String, at index: Int, _ value: JSONValue) -> Bool {
        let keepsEntries = keepsEntries
        let found: Bool? = object.withValue(forKey: key) { list in
            guard keepsEntries else {
                guard let count = Self.keptLength(list), index >= 0, index <= count else { return false }
                list = .integer(Int64(count + 1))
                return true
            }
            return list.withArray { (items: inout [JSONValue]) -> Bool in
                guard index >= 0, index <= items.count else { return false }
                items.insert(value, at: index)
                return true
            } ?? false
        }
        guard found == true else { return false }
        var tokens = path
        tokens.append(key)
        tokens.append(String(index))
        operations.append(.add(path: JSONPointer(tokens: tokens), value: value))
        return true
    }

    /// The length of a kept list: its array's when keeping entries, otherwise the number kept in its place;
    /// nil when `value` is not such a list.
    private static func length(of value: JSONValue, keepingEntries: Bool) -> Int? {
        keepingEntries ? value.arrayValue?.count : keptLength(value)
    }

    /// The length of a list kept as its length (see `keepsEntries`); nil for anything else.
    static func keptLength(_ value: JSONValue) -> Int? {
        guard case .integer(let count) = value, count >= 0 else { return nil }
        return Int(count)
    }

    private static func isScalar(_ value: JSONValue) -> Bool {
        switch value {
        case .object, .array: false
        default: true
        }
    }

    /// `base` followed by an array index, in one allocation (`base + [token]` makes two).
    private static func tokens(_ base: [String], _ index: Int) -> [String] {
        var tokens = base
        tokens.append(String(index))
        return tokens
    }
}
