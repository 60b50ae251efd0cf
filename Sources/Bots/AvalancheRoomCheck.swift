/// Whether every room came out of the storm exact: each bot compares its own replica (rebuilt from its welcome,
/// the patches and any snapshot, through the drop and the resume) with a fresh snapshot from the server, and a
/// room is exact when every bot of it that was checked matched. A room where one bot differs is counted once.
public struct AvalancheRoomCheck: Sendable, Equatable {
    /// Room index -> whether every checked bot of the room matched so far.
    private(set) var verdicts: [Int: Bool] = [:]

    public init() {}

    /// A bot of room `room` compared its replica with a snapshot.
    mutating func record(room: Int, matched: Bool) {
        verdicts[room] = (verdicts[room] ?? true) && matched
    }

    /// Another loop's verdicts (a room's bots all live on one loop, but merging does not rely on it).
    mutating func merge(_ other: AvalancheRoomCheck) {
        for (room, matched) in other.verdicts { record(room: room, matched: matched) }
    }

    /// Rooms with at least one checked bot.
    public var checked: Int { verdicts.count }
    /// Rooms where some bot's state differed from the snapshot.
    public var mismatched: Int { verdicts.values.filter { !$0 }.count }
    /// The indexes of those rooms, in order (the report names the first few).
    public var mismatchedRooms: [Int] { verdicts.filter { !$0.value }.keys.sorted() }
}
