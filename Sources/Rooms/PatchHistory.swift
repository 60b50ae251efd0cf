/// The last few `patch` messages of a room as JSON, so a resuming client gets exactly what it missed.
///
/// Bounded twice: by the number of patches and by their bytes. The bytes bound is what keeps a busy room's
/// memory in check (every room of a loaded server is busy): a resume that missed more than `byteLimit` bytes of
/// patches gets the whole state instead, which by then is no larger than the replay would have been.
///
/// Only the JSON is kept, packed (`PatchPacking`, about a third of its bytes in the game loads) into one ring
/// of bytes: not the broadcast's `ServerMessage`, which also holds the framed form (a second copy) and the JSON
/// buffer's spare capacity (often as much again). A replay makes fresh messages from the kept bytes, unpacked
/// and framed as they are sent (resumes are rare; broadcasts are not).
struct PatchHistory: Sendable {
    /// Where a kept patch's JSON lies in `ring` (it may wrap around its end).
    private struct Entry: Sendable {
        var offset: Int32
        var length: Int32
    }

    /// The patches' packed JSON, oldest to newest from `head`, wrapping around; grows (up to `byteLimit`) only
    /// while nothing wraps, so a room that sends few patches holds few bytes.
    private var ring: [UInt8] = []
    /// Where the oldest kept patch starts in `ring`.
    private var head = 0
    /// Bytes of `ring` in use.
    private(set) var byteCount = 0
    /// The kept patches, oldest first from `entryStart`, wrapping around `entries`.
    private var entries: [Entry] = []
    private var entryStart = 0
    /// How many patches are kept.
    private(set) var count = 0
    /// `seq` of the oldest message kept (of the next one to be added while none is).
    private(set) var firstSeq = 1
    /// Most patches kept.
    let capacity: Int
    /// Most bytes kept (packed JSON), summed over the patches.
    let byteLimit: Int

    /// - Parameters:
    ///   - capacity: the most patches kept (at least one).
    ///   - byteLimit: the most bytes kept in all (packed JSON); a patch larger than this packed is not kept,
    ///     and resumes from before it get the whole state.
    init(capacity: Int, byteLimit: Int = Int(Int32.max)) {
        self.capacity = max(1, capacity)
        self.byteLimit = min(max(0, byteLimit), Int(Int32.max))
    }

    /// Bytes held for the patches (the ring and the entries), whatever is in use: for tests and accounting.
    var reservedBytes: Int {
        ring.capacity + entries.capacity * MemoryLayout<Entry>.stride
    }

    /// Adds the message of patch `seq`, which must follow the last one added.
    mutating func append(_ message: ServerMessage, seq: Int) {
        let json = PatchPacking.pack(message.json)
        guard !json.isEmpty, json.count <= byteLimit else {
            // Nothing before it can be replayed without it.
            removeAll(nextSeq: seq + 1)
            return
        }
        if count == 0 { firstSeq = seq }
        while count == capacity || byteCount + json.count > byteLimit {
            dropOldest()
        }
        if count == 0 { head = 0 }
        if ring.count < byteLimit, head + byteCount + json.count > ring.count {
            // Nothing wraps while the ring is below its limit: grow it (doubling, at most to the limit) instead.
            // At the limit the patch may wrap; there is room, as the kept bytes plus this patch fit the limit.
            let grown = min(byteLimit, max(head + byteCount + json.count, ring.count * 2, 256))
            ring.reserveCapacity(grown)
            ring.append(contentsOf: repeatElement(0, count: grown - ring.count))
        }
        let tail = (head + byteCount) % ring.count
        json.withUnsafeBufferPointer { source in
            ring.withUnsafeMutableBufferPointer { ring in
                let first = min(source.count, ring.count - tail)
                _ = UnsafeMutableBufferPointer(rebasing: ring[tail..<(tail + first)])
                    .update(fromContentsOf: source[0..<first])
                _ = UnsafeMutableBufferPointer(rebasing: ring[0..<(source.count - first)])
                    .update(fromContentsOf: source[first...])
            }
        }
        let entry = Entry(offset: Int32(tail), length: Int32(json.count))
        if count == entries.count {
            // Every slot holds a kept patch (and fewer than `capacity` are kept): make room, oldest first.
            // Grown by hand: doubling on its own, the array could reach twice `capacity` entries.
            let grown = min(capacity, max(entries.count * 2, 16))
            if entryStart != 0 {
                var rotated: [Entry] = []
                rotated.reserveCapacity(grown)
                rotated.append(contentsOf: entries[entryStart...])
                rotated.append(contentsOf: entries[..<entryStart])
                entries = rotated
                entryStart = 0
            } else if entries.count == entries.capacity {
                entries.reserveCapacity(grown)
            }
            entries.append(entry)
        } else {
            entries[(entryStart + count) % entries.count] = entry
        }
        count += 1
        byteCount += json.count
    }

    /// Messages of patches `after+1 ... lastSeq`, or nil when some of them are no longer kept.
    func messages(after seq: Int, lastSeq: Int) -> [ServerMessage]? {
        if seq >= lastSeq { return seq == lastSeq ? [] : nil }
        guard seq + 1 >= firstSeq, lastSeq - firstSeq < count else { return nil }
        var result: [ServerMessage] = []
        result.reserveCapacity(lastSeq - seq)
        for wanted in (seq + 1)...lastSeq {
            result.append(ServerMessage(json: json(at: wanted - firstSeq)))
        }
        return result
    }

    /// The JSON of the `index`-th kept patch, oldest first.
    private func json(at index: Int) -> [UInt8] {
        let entry = entries[(entryStart + index) % entries.count]
        let offset = Int(entry.offset), length = Int(entry.length)
        let first = min(length, ring.count - offset)
        var bytes = [UInt8]()
        bytes.reserveCapacity(length)
        bytes.append(contentsOf: ring[offset..<(offset + first)])
        bytes.append(contentsOf: ring[0..<(length - first)])
        return PatchPacking.unpack(bytes)
    }

    private mutating func dropOldest() {
        let oldest = entries[entryStart]
        count -= 1
        byteCount -= Int(oldest.length)
        firstSeq += 1
        entryStart = (entryStart + 1) % entries.count
        head = count == 0 ? 0 : (head + Int(oldest.length)) % ring.count
        if count == 0 { entryStart = 0; entries.removeAll(keepingCapacity: true) }
    }

    private mutating func removeAll(nextSeq: Int) {
        count = 0
        byteCount = 0
        head = 0
        entryStart = 0
        entries.removeAll(keepingCapacity: true)
        firstSeq = nextSeq
    }
}
