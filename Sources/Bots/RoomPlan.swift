#if canImport(Glibc)
import Glibc
#endif
import JSON
import WordGames

/// One room of the run and its bots, all on the same event loop so that the host's `welcome` can release the
/// joiners without crossing threads.
final class RoomPlan {
    let index: Int
    /// The bot of the room's game.
    let game: any GameBot.Type
    /// Where the game shows its accepted moves.
    let shownList: PendingMoves.ShownList
    /// The `type`s of the game's moves, as refusals name them.
    let moveTypes: Set<String>
    /// Players of the plan, the host included (churners not counted): a host whose game waits for its players
    /// (`GameBot.playersWait`) starts the first game once they are all in.
    let plannedPlayers: Int
    /// The room code, once the host's `create` was welcomed.
    var code: String?
    /// Monotonic nanoseconds of the host's welcome.
    var createdAt: UInt64 = 0
    /// Everyone but the host, in joining order: players, churners, then spectators.
    var joiners: [RoomBot] = []
    /// The last few patch messages bots of this room decoded, newest last. The server sends every member the
    /// same bytes, so the others reuse the decoding when their message is byte for byte the same. A few, not one: members read a busy room's patches interleaved.
    private var recentPatches: [DecodedPatch] = []
    private static let recentPatchCount = 4

    /// The room's state, shared by its players and spectators (churners keep their own).
    var states = RoomStates()

    /// When the members read each recent patch (by seq), kept until the patch is known to show a timed move
    /// (then every reading becomes a delivery time) or falls out of the window (joins, timers and host actions
    /// are not timed).
    private var readings: [Int: Readings] = [:]
    private var newestReading = 0
    /// Patches further back than this many seqs are forgotten.
    private static let readingWindow = 256

    private struct Readings {
        var times: [UInt64] = []
        /// When the move this patch shows was sent, once its mover saw it.
        var sentAt: UInt64?
    }

    init(index: Int, game: any GameBot.Type, plannedPlayers: Int) {
        self.index = index
        self.game = game
        shownList = PendingMoves.ShownList(game: game)
        moveTypes = game.moveTypeNames
        self.plannedPlayers = plannedPlayers
    }

    /// The decoding of `text` if a bot of the room decoded the same bytes lately.
    func decodedPatch(matching text: UnsafeRawBufferPointer) -> DecodedPatch? {
        recentPatches.last { $0.matches(text) }
    }

    /// Keeps a patch message's decoding for the other members.
    func keep(_ patch: DecodedPatch) {
        if recentPatches.count == Self.recentPatchCount { recentPatches.removeFirst() }
        recentPatches.append(patch)
    }

    /// A member of the room read patch `seq` at `now` (monotonic nanoseconds).
    func patchRead(seq: Int, at now: UInt64, delivery: inout LogLinearHistogram) {
        if let sentAt = readings[seq]?.sentAt {
            delivery.record(fromNanoseconds: sentAt, to: now)
            return
        }
        readings[seq, default: Readings()].times.append(now)
        if seq > newestReading {
            newestReading = seq
            if readings.count > 2 * Self.readingWindow {
                let oldest = seq - Self.readingWindow
                readings = readings.filter { $0.key >= oldest }
            }
        }
    }

    /// The mover of a timed move sent at `sentAt` saw it in patch `seq`: every reading of that patch, past and
    /// to come, is a delivery of the move.
    func moveShown(seq: Int, sentAt: UInt64, delivery: inout LogLinearHistogram) {
        var entry = readings[seq] ?? Readings()
        for time in entry.times { delivery.record(fromNanoseconds: sentAt, to: time) }
        entry.times = []
        entry.sentAt = sentAt
        readings[seq] = entry
    }
}

@available(*, unavailable)
extension RoomPlan: Sendable {}

/// A `patch` message as received and as decoded.
struct DecodedPatch {
    let bytes: [UInt8]
    let seq: Int?
    /// nil when `ops` was missing or not a JSON Patch.
    let operations: JSONPatch?

    /// Whether `text` is this message, byte for byte.
    func matches(_ text: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count == text.count, let other = text.baseAddress else { return false }
        return bytes.withUnsafeBytes { memcmp($0.baseAddress!, other, text.count) == 0 }
    }
}
