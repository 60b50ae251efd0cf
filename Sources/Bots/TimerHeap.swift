/// Wake-ups of one loop's bots, earliest first: a binary min-heap on the deadline.
///
/// Entries are never removed early: a bot that changes its wake-up time pushes a new entry, and the old one is
/// recognised as stale when it comes out (its deadline no longer matches the bot's).
struct TimerHeap {
    struct Entry {
        /// Monotonic nanoseconds.
        let deadline: UInt64
        let bot: any WakeableBot
    }

    private var entries: [Entry] = []

    var count: Int { entries.count }

    /// The deadline of the earliest entry (perhaps a stale one), nil when there is none.
    var earliestDeadline: UInt64? { entries.first?.deadline }

    mutating func push(_ entry: Entry) {
        entries.append(entry)
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].deadline < entries[parent].deadline else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest entry if it is due at `now`.
    mutating func popDue(now: UInt64) -> Entry? {
        guard let first = entries.first, first.deadline <= now else { return nil }
        let last = entries.removeLast()
        guard !entries.isEmpty else { return first }
        entries[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < entries.count, entries[left].deadline < entries[smallest].deadline { smallest = left }
            if right < entries.count, entries[right].deadline < entries[smallest].deadline { smallest = right }
            if smallest == parent { break }
            entries.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }

    mutating func removeAll() {
        entries.removeAll()
    }
}

/// A bot that asks its loop to wake it at a given time.
protocol WakeableBot: AnyObject {
    /// The deadline of the bot's pending wake-up, if any; an entry with another deadline is stale.
    var wakeAt: UInt64? { get set }
    /// Called on the loop thread once `wakeAt` has passed (and after `wakeAt` is cleared).
    func wake(now: UInt64)
}
