/// The last few encoded `patch` messages of a room, so a resuming client gets exactly what it missed.
struct PatchHistory: Sendable {
    private var messages: [ServerMessage] = []
    private var start = 0
    /// `seq` of the oldest message kept.
    private(set) var firstSeq = 1
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Adds the message of patch `seq`, which must follow the last one added.
    mutating func append(_ message: ServerMessage, seq: Int) {
        if messages.count < capacity {
            if messages.isEmpty { firstSeq = seq }
            messages.append(message)
        } else {
            messages[start] = message
            start = (start + 1) % capacity
            firstSeq += 1
        }
    }

    /// Messages of patches `after+1 ... lastSeq`, or nil when some of them are no longer kept.
    func messages(after seq: Int, lastSeq: Int) -> [ServerMessage]? {
        if seq >= lastSeq { return seq == lastSeq ? [] : nil }
        guard seq + 1 >= firstSeq, !messages.isEmpty else { return nil }
        var result: [ServerMessage] = []
        result.reserveCapacity(lastSeq - seq)
        for wanted in (seq + 1)...lastSeq {
            let offset = wanted - firstSeq
            guard offset < messages.count else { return nil }
            result.append(messages[(start + offset) % messages.count])
        }
        return result
    }
}
