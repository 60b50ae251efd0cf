/// A list in a room's state whose entries change in place: score lines, letter positions, standings. Remembers
/// the entries as last built, so that an update can rebuild and diff only the entries that changed instead of
/// the whole list (most moves change one player's line of eight).
///
/// Keeps the entries, not their JSON: the JSON lives only in the room's state, which therefore stays uniquely
/// referenced and is edited in place.
struct JSONRows<Element: Equatable> {
    enum Change: Equatable {
        case unchanged
        /// Same number of entries; only some of them changed. Compare with `previous` to see which.
        case entries
        /// The list grew or shrank (or is new): rebuild it as a whole.
        case whole
    }

    /// The entries as of the last `change(to:)`; empty before the first.
    private(set) var previous: [Element] = []
    /// Whether `previous` holds the entries as built (false until the first `remember`).
    private(set) var primed = false

    /// How `list` differs from the list of the last call. Call `remember(_:)` with `list` afterwards.
    func change(to list: [Element]) -> Change {
        guard primed, previous.count == list.count else { return .whole }
        return previous == list ? .unchanged : .entries
    }

    /// Keeps `list` as the entries the state now shows.
    mutating func remember(_ list: [Element]) {
        previous = list
        primed = true
    }

    /// Whether the entries as last built are `count` many: a caller that edits entries where they are, from a
    /// move rather than through `change(to:)`, checks this first.
    func holds(count: Int) -> Bool {
        primed && previous.count == count
    }

    /// Entry `index` is now `element`, as the caller wrote it into the state itself (see `holds(count:)`).
    mutating func replace(at index: Int, with element: Element) {
        previous[index] = element
    }
}
