/// An error reply: a stable machine-readable `code`, a short `title` and a human `message`.
///
/// Everything a client can get wrong maps to one of these, sent as `{"type":"error",...}`; none of them breaks
/// the room or the connection (abuse aside, see the rate limit).
public struct RoomError: Error, Sendable, Hashable {
    public var code: String
    public var title: String
    public var message: String
    /// The message type that was refused (`"guess"`, `"word"`...), when a move or request was refused.
    public var move: String?

    public init(code: String, title: String, message: String, move: String? = nil) {
        self.code = code
        self.title = title
        self.message = message
        self.move = move
    }

    public func refusing(_ move: String) -> RoomError {
        var copy = self
        copy.move = move
        return copy
    }

    static func badMessage(_ message: String) -> RoomError {
        RoomError(code: "bad-message", title: "Message not understood", message: message)
    }

    static func notInRoom(_ move: String) -> RoomError {
        RoomError(code: "not-in-room", title: "Not in a room",
                  message: "Create or join a room first.", move: move)
    }

    static let roomNotFound = RoomError(
        code: "room-not-found", title: "Room not found",
        message: "There is no room with that code. Check the code, or create a new room.")

    static let rateLimited = RoomError(
        code: "rate-limited", title: "Slow down",
        message: "Too many messages at once; this one was dropped.")
}

extension RoomError {
    /// This error as a ready-to-send `error` frame.
    public var frame: [UInt8] {
        ServerMessage.error(self)
    }
}
