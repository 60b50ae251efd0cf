import WordGames

/// An error reply: a stable machine-readable `code`, a short `title` and a human `message`.
///
/// Everything a client can get wrong maps to one of these, sent as `{"type":"error",...}`; none of them breaks
/// the room or the connection (abuse aside, see the rate limit). Each comes from a `Reason` (the refusals of rooms
/// and of the server's sessions) or from a game's `GameRejection`, so no code or text is written at a call site.
public struct RoomError: Error, Sendable, Hashable {
    public private(set) var code: String
    public private(set) var title: String
    public private(set) var message: String
    /// The message type that was refused (`"guess"`, `"word"`...), when a move or request was refused.
    public var move: String?

    /// The reply for `reason`.
    ///
    /// - Parameters:
    ///   - reason: Why the request was refused.
    ///   - move: The `type` of the refused message, if the reply names it.
    public init(_ reason: Reason, move: String? = nil) {
        self.init(code: reason.code, title: reason.title, message: reason.message, move: move)
    }

    /// Wraps a game's rejection, keeping its code, title and message.
    ///
    /// - Parameters:
    ///   - rejection: What the rules refused.
    ///   - move: The `type` of the refused message.
    public init(_ rejection: some GameRejection, move: String) {
        self.init(code: rejection.code, title: rejection.title, message: rejection.message, move: move)
    }

    private init(code: String, title: String, message: String, move: String?) {
        self.code = code
        self.title = title
        self.message = message
        self.move = move
    }

    /// This error naming `move` as the refused message.
    public func refusing(_ move: String) -> RoomError {
        var copy = self
        copy.move = move
        return copy
    }

    static func badMessage(_ message: String) -> RoomError {
        RoomError(.badMessage(message))
    }
}
