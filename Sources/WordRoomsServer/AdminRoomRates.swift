import Rooms

/// Moves per second over all rooms, and per minute for each room, from the rooms' running move counts.
///
/// Fed once a second with every room's count. Per room it keeps the count at most seven times, ten seconds apart,
/// so a minute's rate costs a few numbers per room rather than a slot per second.
struct AdminRoomRates: Sendable {
    static let markEverySeconds = 10
    /// Seven marks ten seconds apart span the minute.
    static let marksKept = 7

    private struct Track: Sendable {
        var moves: Int
        /// (tick, moves) oldest first.
        var marks: [(tick: Int, moves: Int)]
    }

    private var tracks: [RoomCode: Track] = [:]
    private var tick = 0

    /// Takes this second's counts and returns the moves played since the previous call. Rooms seen for the first
    /// time count all their moves (they opened during the second), except at the very first call, which only
    /// sets the baseline. Rooms that are gone drop out.
    mutating func update(_ entries: [RoomRegistry.AdminEntry]) -> Int {
        let first = tick == 0
        tick += 1
        let mark = tick % Self.markEverySeconds == 0
        var played = 0
        var next: [RoomCode: Track] = [:]
        next.reserveCapacity(entries.count)
        for entry in entries {
            var track = tracks[entry.code]
                ?? Track(moves: first ? entry.moves : 0, marks: [(tick - 1, first ? entry.moves : 0)])
            played += max(0, entry.moves - track.moves)
            track.moves = entry.moves
            if mark {
                track.marks.append((tick, entry.moves))
                if track.marks.count > Self.marksKept { track.marks.removeFirst(track.marks.count - Self.marksKept) }
            }
            next[entry.code] = track
        }
        tracks = next
        return played
    }

    /// Moves a minute in the room over the last minute (or since it was first seen, if that is less).
    func movesPerMinute(_ code: RoomCode) -> Double {
        guard let track = tracks[code], let oldest = track.marks.first else { return 0 }
        let seconds = tick - oldest.tick
        guard seconds > 0 else { return 0 }
        return MetricsTimeline.rounded(Double(track.moves - oldest.moves) * 60 / Double(seconds), places: 1)
    }
}
