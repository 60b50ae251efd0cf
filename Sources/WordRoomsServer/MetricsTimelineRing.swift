/// A fixed-capacity ring of values, oldest first: appending past the capacity drops the oldest.
///
/// The dashboard's history lives in these, one ring per series, so memory is bounded whatever the uptime
/// (900 one-second slots are 15 minutes).
struct MetricsTimelineRing<Element: Sendable>: Sendable {
    let capacity: Int
    private var storage: [Element] = []
    /// Index in `storage` of the oldest element once the ring is full.
    private var head = 0

    /// - Parameter capacity: the most elements kept (at least 1).
    init(capacity: Int) {
        precondition(capacity > 0, "a ring holds at least one element")
        self.capacity = capacity
        storage.reserveCapacity(capacity)
    }

    /// A ring of `count` copies of `value` (at most `capacity`), for a series that starts after others.
    init(capacity: Int, repeating value: Element, count: Int) {
        self.init(capacity: capacity)
        for _ in 0..<min(count, capacity) { append(value) }
    }

    var count: Int { storage.count }
    var isEmpty: Bool { storage.isEmpty }

    mutating func append(_ value: Element) {
        if storage.count < capacity {
            storage.append(value)
        } else {
            storage[head] = value
            head = (head + 1) % capacity
        }
    }

    /// The newest element, if any.
    var last: Element? {
        guard !storage.isEmpty else { return nil }
        return storage[(head + storage.count - 1) % storage.count]
    }

    /// Every element, oldest first.
    var elements: [Element] {
        guard head > 0 else { return storage }
        return Array(storage[head...] + storage[..<head])
    }
}
