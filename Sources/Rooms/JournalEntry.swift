import JSON

/// One journal or snapshot record: a room's latest state, or its removal (`room` nil).
///
/// The payload is `{"format":3,"code":...,"version":...,"room":{...}|null}`. Records of format 2 (with the
/// state) and those without `format`, written by the Codable journal of earlier versions, are still read (see
/// `RoomRecord.init(saved:format:)`).
struct JournalEntry: Sendable {
    var code: String
    var version: Int
    var room: RoomRecord?

    /// The `format` of the records this version writes.
    static let format = 3

    init(code: String, version: Int, room: RoomRecord?) {
        self.code = code
        self.version = version
        self.room = room
    }

    /// The record's payload, encoded.
    var payload: [UInt8] {
        JSONWriter().serialize([
            "format": JSONValue(Self.format), "code": JSONValue(code), "version": JSONValue(version),
            "room": room?.json ?? .null,
        ])
    }

    /// The code and version of a record of this version, read from the front of its payload without parsing
    /// the room (`{"format":3,"code":"QHTW","version":12,"room":...`, as `payload` writes it, or format 2);
    /// nil for any other shape, which the full parse then reads.
    static func peek(_ payload: [UInt8]) -> (code: String, version: Int)? {
        payload.withUnsafeBufferPointer { peek($0) }
    }

    /// `peek` on bytes in place (a record of a mapped file).
    static func peek(_ payload: UnsafeBufferPointer<UInt8>) -> (code: String, version: Int)? {
        let formatKey = Array(#"{"format":"#.utf8)
        let codeKey = Array(#","code":""#.utf8)
        let versionKey = Array(#"","version":"#.utf8)
        let roomKey = Array(#","room":"#.utf8)
        let opening = formatKey.count + 1 + codeKey.count
        guard payload.count > opening, payload[..<formatKey.count].elementsEqual(formatKey),
              (UInt8(ascii: "2")...UInt8(ascii: "3")).contains(payload[formatKey.count]),
              payload[(formatKey.count + 1)..<opening].elementsEqual(codeKey) else { return nil }
        var index = opening
        let codeStart = index
        // Room codes are a few letters and digits: anything needing an escape is left to the parser.
        while index < payload.count, index - codeStart <= 16, payload[index] != UInt8(ascii: "\""),
              payload[index] != UInt8(ascii: "\\") {
            index += 1
        }
        guard index < payload.count, payload[index] == UInt8(ascii: "\""), index > codeStart,
              payload.count - index > versionKey.count,
              payload[index..<(index + versionKey.count)].elementsEqual(versionKey) else { return nil }
        let code = String(decoding: payload[codeStart..<index], as: UTF8.self)
        index += versionKey.count
        var version = 0
        let digitsStart = index
        while index < payload.count, index - digitsStart < 18, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(payload[index]) {
            version = version * 10 + Int(payload[index] - UInt8(ascii: "0"))
            index += 1
        }
        guard index > digitsStart, payload.count - index >= roomKey.count,
              payload[index..<(index + roomKey.count)].elementsEqual(roomKey) else { return nil }
        return (code, version)
    }

    /// Whether a payload that `peek` reads is a room's removal (`room` null, the last member `payload` writes).
    static func isRemoval(_ payload: UnsafeBufferPointer<UInt8>) -> Bool {
        let ending = #","room":null}"#.utf8
        return payload.count >= ending.count && payload.suffix(ending.count).elementsEqual(ending)
    }

    /// Reads a payload of this version or of the Codable journal.
    ///
    /// - Throws: `SavedObject.Unreadable`, or the parser's error, for a payload that is not a record.
    init(payload: [UInt8]) throws {
        let saved = try SavedObject(JSONParser(limits: RoomJournal.recordLimits).parse(payload), "journal record")
        let format = try saved.optionalInt("format") ?? 1
        guard format <= Self.format else {
            throw SavedObject.Unreadable("the record is of format \(format), newer than this server's")
        }
        code = try saved.string("code")
        version = try saved.int("version")
        room = try saved.optional("room").map { (room) throws(SavedObject.Unreadable) in
            try RoomRecord(saved: room, format: format)
        }
    }
}

extension Room {
    /// A journal entry with this room's current state and the next version number.
    func journalEntry() -> JournalEntry {
        // The record's state at `seq` is rebuilt from its parts on restore: a change still waiting for its
        // publish would be in the parts but not in what clients at `seq` have.
        publishIfQueued()
        machine.publication.persistedVersion += 1
        let version = machine.publication.persistedVersion
        return JournalEntry(code: code.rawValue, version: version,
                            room: machine.disposed ? nil : machine.record(version: version))
    }
}
