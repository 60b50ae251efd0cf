/// The pending timers of a `ThreadExecutor`: a binary min-heap on (deadline, id), so timers due at the same
/// moment run in the order they were scheduled.
///
/// Why a heap: every room on an executor keeps a timer, and a move that changes a room's deadline (a Snowman
/// turn, a player away) cancels one timer and schedules another. In a sorted array both were linear in the
/// number of rooms: with 1,250 rooms on one loop they took 2.5% of the server's time in a reconnect storm's
/// profile, most of it retaining and releasing the closures of the timers that were only looked at.
///
/// Cancelling is lazy: the id is remembered and the entry dropped when it reaches the top. Cancelled entries
/// still hold their closures, so once they outnumber the live ones the heap is rebuilt without them, which
/// keeps the memory within twice the live timers at a constant cost per cancel.
struct TimerQueue<Body> {
    struct Entry {
        let deadline: Double
        let id: UInt64
        let body: Body
    }

    private var heap: [Entry] = []
    /// Ids cancelled since the last rebuild; may include timers that had already run (then nothing matches).
    private var cancelled: Set<UInt64> = []

    /// Timers in the heap, cancelled ones included until they are dropped.
    var storedCount: Int { heap.count }

    /// Adds a timer.
    ///
    /// - Returns: Whether it is now the earliest live timer (a sleeping thread must then wake earlier).
    @discardableResult
    mutating func insert(deadline: Double, id: UInt64, body: Body) -> Bool {
        heap.append(Entry(deadline: deadline, id: id, body: body))
        siftUp(heap.count - 1)
        dropCancelledTop()
        return heap.first?.id == id
    }

    /// Cancels the timer `id` if it has not been taken out yet; nothing happens for an id already taken.
    mutating func cancel(_ id: UInt64) {
        cancelled.insert(id)
        dropCancelledTop()
        if cancelled.count > max(32, heap.count / 2) { rebuildWithoutCancelled() }
    }

    /// The deadline of the earliest live timer.
    var earliestDeadline: Double? { heap.first?.deadline }

    /// Removes and returns the earliest live timer if it is due at `now`.
    mutating func popDue(now: Double) -> Entry? {
        guard let first = heap.first, first.deadline <= now else { return nil }
        removeTop()
        dropCancelledTop()
        return first
    }

    // MARK: Heap

    /// Keeps the top live, so that `earliestDeadline` and `popDue` never see a cancelled timer.
    private mutating func dropCancelledTop() {
        while let first = heap.first, cancelled.remove(first.id) != nil {
            removeTop()
        }
    }

    private mutating func removeTop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(0)
    }

    private mutating func rebuildWithoutCancelled() {
        heap.removeAll { cancelled.contains($0.id) }
        cancelled.removeAll(keepingCapacity: true)
        // Floyd's construction: sift down every parent, from the last one up.
        var index = heap.count / 2
        while index > 0 {
            index -= 1
            siftDown(index)
        }
    }

    private func precedes(_ a: Int, _ b: Int) -> Bool {
        heap[a].deadline != heap[b].deadline ? heap[a].deadline < heap[b].deadline : heap[a].id < heap[b].id
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(child, parent) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var first = parent
            if left < heap.count, precedes(left, first) { first = left }
            if right < heap.count, precedes(right, first) { first = right }
            if first == parent { return }
            heap.swapAt(parent, first)
            parent = first
        }
    }
}
