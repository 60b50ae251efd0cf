import Rooms
import Transport

/// A room's broadcast stream on the wire: its patches compressed once, in one deflate context per room (RFC 7692
/// with context takeover), and the same frame queued to every member that negotiated compression.
///
/// The rule that keeps every member's inflater in step is `DeflateStream`'s; the room supplies the fresh starts
/// (a member joined or resumed), the connections check they follow the stream without a gap.
final class RoomDeflateStream: BroadcastStream, @unchecked Sendable {
    /// The window every room compresses with, stated to clients as `server_max_window_bits`, and zlib's memLevel.
    /// Measured on recorded Snowman and Word Scramble traffic (`Tests/Bench/deflate_window.py`): a 2 KiB window
    /// holds the last ~7 patches (a round of turns in a room of 8) and brings patches to 14.5% of their size
    /// (Snowman 17.1%, Scramble 12.0%) for 14.9 KiB per room, ~1.9 KB per member; 10 bits gives 19.8% and
    /// 12 bits 12.7% for half as much memory again; memLevel beyond 1 gains at most 0.2 points.
    static let windowBits = 11
    static let memoryLevel: Int32 = 1

    private let stream = DeflateStream(windowBits: RoomDeflateStream.windowBits,
                                       memoryLevel: RoomDeflateStream.memoryLevel)

    func append(_ message: ServerMessage, restart: Bool) {
        if restart { stream.restart() }
        message.streamForm = stream.frame(text: message.json)
    }
}
