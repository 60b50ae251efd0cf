/// A room read from the data directory at start that is not running yet: its newest record, as it lies on
/// disk, parsed only when someone first needs the room (`RoomRegistry.wake`).
///
/// Parsing a record and rebuilding its room's state were most of a restart's time (2,500 rooms after `kill -9`:
/// 0.7-0.9 s of one core before the first player was served). Choosing each room's newest record needs only the
/// code and version at the front of its payload (`JournalEntry.peek`), so a restart now picks the records,
/// serves connections at once, and brings each room back when a player resumes into it.
public struct DormantRoom: Sendable {
    public var code: String
    public var version: Int
    /// The record's payload (`JournalEntry.payload`'s bytes): what the snapshot keeps of the room until it wakes.
    public var payload: [UInt8]

    /// The room's game and whether it is listed, read from the front of its record (nil when the record is not
    /// written in that order, e.g. the Codable journal's): for the dashboard and the room counts before it wakes.
    public let head: (kind: GameKind, isPublic: Bool)?

    public init(code: String, version: Int, payload: [UInt8]) {
        self.code = code
        self.version = version
        self.payload = payload
        head = Self.head(of: payload)
    }

    /// `"isPublic":BOOL,"game":"NAME"` as `RoomRecord.json` writes them, near the front of the room's object;
    /// looked for only in the first bytes, so a long record costs nothing more.
    static func head(of payload: [UInt8]) -> (kind: GameKind, isPublic: Bool)? {
        let window = payload.prefix(256)
        let publicKey = Array(#""isPublic":"#.utf8)
        let gameKey = Array(#","game":""#.utf8)
        guard let publicAt = window.firstRange(of: publicKey)?.upperBound else { return nil }
        let isPublic: Bool
        var index = publicAt
        if window[index...].starts(with: "true".utf8) {
            isPublic = true
            index += 4
        } else if window[index...].starts(with: "false".utf8) {
            isPublic = false
            index += 5
        } else {
            return nil
        }
        guard window[index...].starts(with: gameKey) else { return nil }
        let nameStart = index + gameKey.count
        guard let nameEnd = window[nameStart...].firstIndex(of: UInt8(ascii: "\"")),
              let kind = GameKind(rawValue: String(decoding: window[nameStart..<nameEnd], as: UTF8.self)) else {
            return nil
        }
        return (kind, isPublic)
    }

    /// The room's record, parsed.
    ///
    /// - Throws: `SavedObject.Unreadable` (or the parser's error) when the payload is not a record of this room.
    func record() throws -> RoomRecord {
        let entry = try JournalEntry(payload: payload)
        guard entry.code == code, entry.version == version else {
            throw SavedObject.Unreadable("the record names room \(entry.code) version \(entry.version)")
        }
        guard let room = entry.room else {
            throw SavedObject.Unreadable("the record is the room's removal")
        }
        return room
    }
}
