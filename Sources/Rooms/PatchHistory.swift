/// The last few encoded `patch` frames of a room, so a resuming client gets exactly what it missed.
struct PatchHistory: Sendable {
    private var frames: [[UInt8]] = []
    private var start = 0
    /// `seq` of the oldest frame kept.
    private(set) var firstSeq = 1
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Adds the frame of patch `seq`, which must follow the last one added.
    mutating func append(_ frame: [UInt8], seq: Int) {
        if frames.count < capacity {
            if frames.isEmpty { firstSeq = seq }
            frames.append(frame)
        } else {
            frames[start] = frame
            start = (start + 1) % capacity
            firstSeq += 1
        }
    }

    /// Frames of patches `after+1 ... lastSeq`, or nil when some of them are no longer kept.
    func frames(after seq: Int, lastSeq: Int) -> [[UInt8]]? {
        if seq >= lastSeq { return seq == lastSeq ? [] : nil }
        guard seq + 1 >= firstSeq, !frames.isEmpty else { return nil }
        var result: [[UInt8]] = []
        result.reserveCapacity(lastSeq - seq)
        for wanted in (seq + 1)...lastSeq {
            let offset = wanted - firstSeq
            guard offset < frames.count else { return nil }
            result.append(frames[(start + offset) % frames.count])
        }
        return result
    }
}
