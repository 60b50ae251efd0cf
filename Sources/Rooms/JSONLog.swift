import JSON

/// A list in a room's state that changes only at its ends: new entries arrive at its newest end and old ones
/// may drop off its oldest end (chat lines, guesses, found words, finished games). Keeps what it needs to tell
/// how the list changed since the last call without keeping the list itself, which would make the owner's next
/// change copy it.
///
/// Within one `generation` (a game, a round) entries never change once added. A list with an `ordinal` (a
/// number that increases with each new entry, such as a chat line's id) may also drop entries; one without only
/// grows. Anything else, such as a shrinking list without an ordinal or a newest entry that moved, is reported as
/// a reset.
struct JSONLog<Element: Equatable> {
    enum End {
        case front
        case back
    }

    enum Edit: Equatable {
        case unchanged
        /// `dropped` entries left the oldest end and `added` arrived at the newest end.
        case edit(dropped: Int, added: Int)
        /// Rebuild the whole list.
        case reset
    }

    let newestAt: End
    private var generation: Int?
    private var count = 0
    private var newest: Element?

    /// Changes beyond this many entries are sent as one `replace` of the list instead of entry by entry.
    static var maxEntryOperations: Int { 8 }

    init(newestAt: End) {
        self.newestAt = newestAt
    }

    /// How `list` differs from the list of the last call, and remembers `list` for the next one.
    mutating func edit(to list: [Element], generation: Int, ordinal: ((Element) -> Int)?) -> Edit {
        defer { remember(list, generation: generation) }
        guard generation == self.generation else { return .reset }
        let added: Int
        if let ordinal {
            guard let newest else { return list.isEmpty ? .unchanged : .reset }
            let known = ordinal(newest)
            var fresh = 0
            while fresh < list.count, ordinal(entry(list, fromNewest: fresh)) > known { fresh += 1 }
            added = fresh
        } else {
            added = list.count - count
        }
        let dropped = count + added - list.count
        guard added >= 0, dropped >= 0, dropped <= count else { return .reset }
        // The previous newest entry must be where the edit puts it.
        if count > dropped, let newest, entry(list, fromNewest: added) != newest { return .reset }
        if added == 0, dropped == 0 { return .unchanged }
        if added + dropped > Self.maxEntryOperations { return .reset }
        return .edit(dropped: dropped, added: added)
    }

    /// Whether the list as last seen had `count` entries, in `generation`: a caller that adds an entry itself,
    /// from a move rather than through `edit(to:...)`, checks this first.
    func holds(count: Int, generation: Int) -> Bool {
        self.generation == generation && self.count == count
    }

    /// `element` arrived at the newest end, as the caller wrote it into the state itself (see `holds`).
    mutating func noteAdded(_ element: Element) {
        count += 1
        newest = element
    }

    /// The whole list as JSON, remembered as the state for the next `edit`.
    mutating func reset(_ list: [Element], generation: Int, ordinal: ((Element) -> Int)?,
                        _ build: (Element) -> JSONValue) -> JSONValue {
        remember(list, generation: generation)
        return .array(list.map(build))
    }

    /// The whole list as a state that keeps no entries holds it (its length), remembered as `reset` does.
    mutating func resetKeepingNoEntries(_ list: [Element], generation: Int) -> JSONValue {
        remember(list, generation: generation)
        return .integer(Int64(list.count))
    }

    private mutating func remember(_ list: [Element], generation: Int) {
        self.generation = generation
        count = list.count
        newest = list.isEmpty ? nil : entry(list, fromNewest: 0)
    }

    private func entry(_ list: [Element], fromNewest offset: Int) -> Element {
        newestAt == .back ? list[list.count - 1 - offset] : list[offset]
    }
}
