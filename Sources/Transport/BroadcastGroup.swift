import WebSocket

/// Where a broadcast's frame goes: a connection (`ConnectionHandle`), or a recorder in tests.
///
/// Both methods queue and must not block; the group calls them on its owner's thread, in publish order.
public protocol BroadcastReceiver: Sendable {
    /// Unique for the life of the process (`ConnectionHandle.id`).
    var id: UInt64 { get }
    /// Queues a frame every plain member shares.
    func send(frame: [UInt8])
    /// Queues a message of the group's deflate stream: the receiver takes the compressed form when it is in step
    /// with the stream, the plain one otherwise (the rule is `DeflateStream`'s).
    func send(_ frame: StreamFrame)
}

extension ConnectionHandle: BroadcastReceiver {}

/// A set of connections that receive the same sequence of text messages (a room's patches): each message is
/// framed once for the members that read plain frames and compressed once, in one deflate context shared by the
/// group (RFC 7692 §7.2.1 with context takeover), for the members that negotiated a shared stream.
///
/// **The stream.** It is made when a message first goes to a compressing member, and starts afresh (its window
/// emptied, `DeflateStream.restart`) on the first message a compressing member receives after joining: from
/// there it can read on without the messages before. A member that misses a message (it was left out with
/// `except`) or takes one plain falls out of step and gets the stream's messages plain until the next fresh
/// start, which it asks for itself (`StreamRestartRequest`). Messages sent to a member by other means (its
/// connection handle) are plain and never enter its window: they do not disturb the stream.
///
/// Used by one thread at a time (its owner's, a room's executor), hence `@unchecked Sendable`.
public final class BroadcastGroup: @unchecked Sendable {
    private struct Member {
        let receiver: any BroadcastReceiver
        let id: UInt64
        /// It negotiated a shared stream: it gets the stream's messages, compressed while in step.
        let compressed: Bool
        /// A compressing member that joined and has not received a message since: the next message it receives
        /// starts the stream afresh.
        var awaitsFreshStart: Bool
    }

    private var members: [Member] = []
    /// The window and zlib memLevel of the group's stream.
    private let windowBits: Int
    private let memoryLevel: Int32
    private var stream: DeflateStream?
    /// Messages compressed so far: one per publish that reached a compressing member (a test seam).
    private(set) var compressions = 0

    /// - Parameters:
    ///   - windowBits: the stream's window, 9 to 15: the endpoint's `WebSocketCompression.sharedStreams`.
    ///   - memoryLevel: zlib's memLevel for the stream, 1 to 9.
    public init(windowBits: Int, memoryLevel: Int32) {
        self.windowBits = windowBits
        self.memoryLevel = memoryLevel
    }

    /// The members now.
    public var count: Int { members.count }

    /// Adds a receiver; it gets every message published from now on. Joining again replaces its entry.
    ///
    /// - Parameters:
    ///   - receiver: the connection.
    ///   - compressed: it negotiated a shared stream (`Connection.takesSharedStreams`).
    public func join(_ receiver: any BroadcastReceiver, compressed: Bool) {
        let id = receiver.id
        leave(id)
        members.append(Member(receiver: receiver, id: id, compressed: compressed, awaitsFreshStart: compressed))
    }

    /// Removes the receiver with `id`, if it is a member.
    public func leave(_ id: UInt64) {
        if let index = members.firstIndex(where: { $0.id == id }) {
            members.remove(at: index)
        }
    }

    /// Queues `json` to every member but `except`: one text frame shared by the plain members and, when a
    /// compressing member is among them, one message of the group's stream for all of them.
    ///
    /// - Parameters:
    ///   - json: the message, UTF-8 JSON text.
    ///   - except: the id of a member left out of this message.
    public func publish(_ json: [UInt8], except: UInt64? = nil) {
        var compressing = false
        var freshStart = false
        for index in members.indices where members[index].compressed && members[index].id != except {
            compressing = true
            if members[index].awaitsFreshStart {
                freshStart = true
                members[index].awaitsFreshStart = false
            }
        }
        guard compressing else {
            let frame = FrameEncoder.encode(.text, payload: json)
            for index in members.indices where members[index].id != except {
                members[index].receiver.send(frame: frame)
            }
            return
        }
        let stream = self.stream ?? DeflateStream(windowBits: windowBits, memoryLevel: memoryLevel)
        self.stream = stream
        if freshStart { stream.restart() }
        let frame = stream.frame(text: json)
        compressions += 1
        for index in members.indices where members[index].id != except {
            if members[index].compressed {
                members[index].receiver.send(frame)
            } else {
                members[index].receiver.send(frame: frame.plain)
            }
        }
    }
}
