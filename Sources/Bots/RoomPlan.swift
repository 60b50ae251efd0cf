#if canImport(Glibc)
import Glibc
#endif
import JSON

/// One room of the run and its bots, all on the same event loop so that the host's `welcome` can release the
/// joiners without crossing threads.
final class RoomPlan {
    let index: Int
    let game: BotOptions.Game
    /// Players of the plan, the host included (churners not counted): the host of a Word Scramble room starts
    /// the first match once they are all in.
    let plannedPlayers: Int
    /// The room code, once the host's `create` was welcomed.
    var code: String?
    /// Monotonic nanoseconds of the host's welcome.
    var createdAt: UInt64 = 0
    /// Everyone but the host, in joining order: players, churners, then spectators.
    var joiners: [GameBot] = []
    /// The last patch message a bot of this room decoded. The server sends every member the same bytes, so
    /// the others reuse the decoding when their message is byte for byte the same; each still applies it to
    /// its own state.
    var lastPatch: DecodedPatch?

    init(index: Int, game: BotOptions.Game, plannedPlayers: Int) {
        self.index = index
        self.game = game
        self.plannedPlayers = plannedPlayers
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
