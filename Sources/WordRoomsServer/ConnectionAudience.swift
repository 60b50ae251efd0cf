import Rooms
import Transport

/// A room's audience on the wire: its members' connections as one `BroadcastGroup`, so that each patch is framed
/// once for the members that read plain frames and compressed once, in one deflate context per room (RFC 7692
/// with context takeover), for those that negotiated compression.
final class ConnectionAudience: RoomAudience {
    /// The window every room compresses with, stated to clients as `server_max_window_bits`, and zlib's memLevel.
    /// Measured on recorded Snowman and Word Scramble traffic (`Tests/Bench/deflate_window.py`): a 2 KiB window
    /// holds the last ~7 patches (a round of turns in a room of 8) and brings patches to 14.5% of their size
    /// (Snowman 17.1%, Scramble 12.0%) for 14.9 KiB per room, ~1.9 KB per member; 10 bits gives 19.8% and
    /// 12 bits 12.7% for half as much memory again; memLevel beyond 1 gains at most 0.2 points.
    static let windowBits = 11
    static let memoryLevel: Int32 = 1

    private let group = BroadcastGroup(windowBits: ConnectionAudience.windowBits,
                                       memoryLevel: ConnectionAudience.memoryLevel)
    /// Links that are not connections (none in the server; kept for any other `ClientLink`): sent one by one.
    private var others: [any ClientLink] = []

    func admit(_ link: any ClientLink) {
        if let link = link as? ConnectionLink {
            group.join(link.handle, compressed: link.takesSharedStreams)
        } else {
            dismiss(link.id)
            others.append(link)
        }
    }

    func dismiss(_ linkID: UInt64) {
        group.leave(linkID)
        if !others.isEmpty { others.removeAll { $0.id == linkID } }
    }

    func publish(_ message: ServerMessage, except: UInt64?) {
        group.publish(message.json, except: except)
        for link in others where link.id != except {
            link.send(message)
        }
    }
}
