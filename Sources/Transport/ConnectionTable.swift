/// The connections of one loop, indexed by file descriptor: the kernel hands out the lowest free descriptor, so
/// the table stays dense and a lookup is one array access.
struct ConnectionTable {
    private var slots: [Connection?] = []
    private(set) var count = 0

    /// The connection on `fd`, if any.
    @inline(__always)
    subscript(fd: Int32) -> Connection? {
        guard fd >= 0, Int(fd) < slots.count else { return nil }
        return slots[Int(fd)]
    }

    /// Whether `connection` is still the one on its descriptor (it may have been destroyed during this event).
    @inline(__always)
    func holds(_ connection: Connection) -> Bool {
        Int(connection.fd) < slots.count && slots[Int(connection.fd)] === connection
    }

    /// The connection on `fd` if it is of `generation` (a reused descriptor holds a newer one).
    func lookup(_ fd: Int32, _ generation: UInt32) -> Connection? {
        guard let connection = self[fd], connection.generation == generation else { return nil }
        return connection
    }

    mutating func insert(_ connection: Connection) {
        let index = Int(connection.fd)
        if index >= slots.count {
            // Grown in steps, not one slot per new descriptor.
            slots.append(contentsOf: repeatElement(nil, count: index + 1 - slots.count + 64))
        }
        precondition(slots[index] == nil, "descriptor \(index) is in use")
        slots[index] = connection
        count += 1
    }

    mutating func remove(_ connection: Connection) {
        precondition(holds(connection), "removing a connection not in the table")
        slots[Int(connection.fd)] = nil
        count -= 1
    }

    /// Every connection, for sweeps and shutdown (a copy: the body may remove connections).
    var all: [Connection] { slots.compactMap { $0 } }
}

@available(*, unavailable)
extension ConnectionTable: Sendable {}
