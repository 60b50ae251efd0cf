/// One patch a room sent to its clients, as the journal keeps it between two records of the room.
///
/// A busy room's record is written at most once a second (`RoomJournal.busyRoomSeconds`), but its clients see
/// every patch at once: after a crash their seqs were ahead of the record, and each of them needed the whole
/// state (8-10 KB) in the reconnect storm. The patches themselves are small and already written as JSON for
/// the broadcast, so each goes to the journal before its frames leave (`RoomJournal.roomPublished`); a restart
/// then knows every state its clients can name since the record, and answers them with patches (see
/// `Room.restore(from:now:)`).
///
/// The payload is `{"format":3,"patch":"CODE","version":V,"seq":S,"message":{...}}`, with the message exactly
/// as clients got it. `version` is the room's record version when the patch was sent; every process that
/// restores a room numbers on from above every version it read, so of two patches with the same seq (the old
/// process's and the new one's, after a crash) the higher version is the one that counts.
struct JournalPatch: Sendable, Equatable {
    var code: String
    var version: Int
    var seq: Int
    /// The `patch` message's JSON.
    var message: [UInt8]

    private static let opening = Array(#"{"format":3,"patch":""#.utf8)
    private static let versionKey = Array(#"","version":"#.utf8)
    private static let seqKey = Array(#","seq":"#.utf8)
    private static let messageKey = Array(#","message":"#.utf8)

    /// Appends the framed record (`RecordFile.frame`) of patch `seq` to `buffer`, without an intermediate copy:
    /// this runs on the room's thread for every patch.
    static func appendFramed(code: String, version: Int, seq: Int, message: [UInt8], to buffer: inout [UInt8]) {
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: 8))
        buffer.append(contentsOf: opening)
        buffer.append(contentsOf: code.utf8)
        buffer.append(contentsOf: versionKey)
        appendDecimal(version, to: &buffer)
        buffer.append(contentsOf: seqKey)
        appendDecimal(seq, to: &buffer)
        buffer.append(contentsOf: messageKey)
        buffer.append(contentsOf: message)
        buffer.append(UInt8(ascii: "}"))
        let length = UInt32(buffer.count - start - 8)
        let checksum = buffer.withUnsafeBufferPointer {
            CRC32.checksum(UnsafeBufferPointer(rebasing: $0[(start + 8)...]))
        }
        for index in 0..<4 {
            buffer[start + index] = UInt8(truncatingIfNeeded: length >> (8 * index))
            buffer[start + 4 + index] = UInt8(truncatingIfNeeded: checksum >> (8 * index))
        }
    }

    /// The record's payload (for tests and for rewriting a snapshot).
    var payload: [UInt8] {
        var framed: [UInt8] = []
        Self.appendFramed(code: code, version: version, seq: seq, message: message, to: &framed)
        return Array(framed[8...])
    }

    /// Reads a payload `appendFramed` wrote; nil for anything else (a room's record, or a damaged patch).
    init?(payload: [UInt8]) {
        guard payload.count > Self.opening.count + Self.messageKey.count + 4, payload.last == UInt8(ascii: "}"),
              payload.starts(with: Self.opening) else { return nil }
        var index = Self.opening.count
        let codeStart = index
        // Room codes are a few letters and digits.
        while index < payload.count, index - codeStart <= 16, Self.isCodeCharacter(payload[index]) { index += 1 }
        guard index > codeStart, Self.matches(Self.versionKey, payload, at: index) else { return nil }
        let code = String(decoding: payload[codeStart..<index], as: UTF8.self)
        index += Self.versionKey.count
        guard let version = Self.decimal(payload, &index), Self.matches(Self.seqKey, payload, at: index) else {
            return nil
        }
        index += Self.seqKey.count
        guard let seq = Self.decimal(payload, &index), Self.matches(Self.messageKey, payload, at: index) else {
            return nil
        }
        index += Self.messageKey.count
        // The message is an object: the payload's last two bytes close it and the record.
        guard payload[index] == UInt8(ascii: "{"), payload.count - index >= 3,
              payload[payload.count - 2] == UInt8(ascii: "}") else { return nil }
        self.init(code: code, version: version, seq: seq, message: Array(payload[index..<(payload.count - 1)]))
    }

    init(code: String, version: Int, seq: Int, message: [UInt8]) {
        self.code = code
        self.version = version
        self.seq = seq
        self.message = message
    }

    private static func isCodeCharacter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func matches(_ key: [UInt8], _ payload: [UInt8], at index: Int) -> Bool {
        payload.count - index > key.count && payload[index..<(index + key.count)].elementsEqual(key)
    }

    /// A non-negative decimal of at most 18 digits at `index`, which moves past it.
    private static func decimal(_ payload: [UInt8], _ index: inout Int) -> Int? {
        let start = index
        var value = 0
        while index < payload.count, index - start < 18, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(payload[index]) {
            value = value * 10 + Int(payload[index] - UInt8(ascii: "0"))
            index += 1
        }
        return index > start ? value : nil
    }

    private static func appendDecimal(_ value: Int, to buffer: inout [UInt8]) {
        guard value > 0 else {
            buffer.append(UInt8(ascii: "0"))
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { digits in
            while rest > 0 {
                digits[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            }
            for index in stride(from: count - 1, through: 0, by: -1) { buffer.append(digits[index]) }
        }
    }

    /// Of every room's patches in a journal, the run that follows each room's record: for a record at `seq`
    /// with version `version`, the patches `seq + 1`, `seq + 2`, ... without a gap, each the one of highest
    /// version among those with its seq, and never of a lower version than the patch before it (a patch of the
    /// old process beyond where a newer one took over is not part of the newer one's history).
    ///
    /// - Parameter patches: one room's patches, in any order.
    /// - Returns: the messages' JSON in seq order, from `seq + 1`.
    static func run(after seq: Int, version: Int, in patches: [JournalPatch]) -> [[UInt8]] {
        var bySeq: [Int: JournalPatch] = [:]
        for patch in patches where patch.seq > seq && patch.version >= version {
            if let kept = bySeq[patch.seq], kept.version >= patch.version { continue }
            bySeq[patch.seq] = patch
        }
        var run: [[UInt8]] = []
        var next = seq + 1
        var floor = version
        while let patch = bySeq[next], patch.version >= floor {
            run.append(patch.message)
            floor = patch.version
            next += 1
        }
        return run
    }

    /// The patches that led up to a room's record at `seq` with version `version`: `seq`, `seq - 1`, ... back
    /// without a gap, each the one of highest version below `version` among those with its seq, and never of a
    /// higher version than the patch after it. A client that had not read the last patches before a crash
    /// (under load the clients' reading lags the server's sending) is behind the record, not ahead of it.
    ///
    /// - Parameters:
    ///   - patches: one room's patches, in any order.
    ///   - limit: the most patches returned (the nearest the record).
    /// - Returns: the messages' JSON in seq order, ending with that of `seq`.
    static func lead(upTo seq: Int, version: Int, in patches: [JournalPatch], limit: Int) -> [[UInt8]] {
        var bySeq: [Int: JournalPatch] = [:]
        for patch in patches where patch.seq <= seq && patch.seq > seq - limit && patch.version < version {
            if let kept = bySeq[patch.seq], kept.version >= patch.version { continue }
            bySeq[patch.seq] = patch
        }
        var lead: [[UInt8]] = []
        var next = seq
        var ceiling = version
        while let patch = bySeq[next], patch.version <= ceiling {
            lead.append(patch.message)
            ceiling = patch.version
            next -= 1
        }
        return lead.reversed()
    }
}
