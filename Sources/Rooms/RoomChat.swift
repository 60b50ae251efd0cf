import WordGames

/// What members say and the room announces: the chat lines, the reactions' rate and the budget of broadcast
/// bytes that chat, renames and reactions share. Part of `RoomMachine`.
struct RoomChat {
    /// Bytes of a patch adding a chat line besides its text: the operation, its path, id, player, name and time
    /// (`{"op":"add","path":"/chat/-","value":{"id":..,"player":"p12","name":"..","text":"..","at":..}}`, the
    /// `patch` envelope with its `seq`), and the `remove` of the oldest line once the history is full.
    static let chatLineOverhead = 160
    /// A `reaction` message besides its emoji: `{"type":"reaction","player":"p12","emoji":".."}`.
    static let reactionOverhead = 48
    /// A rename's patch besides the names (each written twice: the member and the chat line announcing it).
    static let renameOverhead = 260

    /// The room's latest lines, oldest first (at most `RoomConfiguration.chatHistory`).
    var lines: [ChatLine] = []
    var counter = 0
    /// The number of the last `RoomGame.resultNotice` announced (saved, so a restart does not repeat it).
    var announcedResult = 0
    /// When each member's recent reactions were sent, oldest first, for the rate limit.
    var reactionTimes: [PlayerID: [Double]] = [:]
    /// The room's budget of broadcast bytes for chat, renames and reactions (see `spend`).
    var budget = BroadcastBudget()

    mutating func append(_ line: ChatLine, keeping history: Int) {
        counter = line.id
        lines.append(line)
        if lines.count > history { lines.removeFirst(lines.count - history) }
    }

    /// A line in the chat from the room itself, such as a skipped turn.
    mutating func announce(_ text: String, _ notice: ChatNotice, now: Double, keeping history: Int) {
        append(ChatLine(id: counter + 1, player: nil, name: nil, text: text, at: now, notice: notice),
               keeping: history)
    }

    /// A member's line.
    mutating func say(_ text: String, by member: Member, now: Double, keeping history: Int) {
        append(ChatLine(id: counter + 1, player: member.id, name: member.name, text: text, at: now),
               keeping: history)
    }

    /// Charges `bytes` (one copy of what will be broadcast) times `recipients` to the room's budget.
    ///
    /// - Throws: `room-busy` when the budget is spent: the caller then changes and sends nothing.
    mutating func spend(bytes: Int, recipients: Int, perSecond: Int, move: String, now: Double) throws(RoomError) {
        guard budget.spend(bytes * max(1, recipients), perSecond: perSecond, now: now) else {
            throw RoomError(.roomBusy, move: move)
        }
    }

    /// Counts a reaction by `player` against the rate limit (`Reaction.perWindow` per window).
    ///
    /// - Throws: `too-many-reactions`, saying when the next one is allowed.
    func checkReactionRate(of player: PlayerID, now: Double) throws(RoomError) -> [Double] {
        var times = reactionTimes[player] ?? []
        times.removeAll { $0 <= now - Reaction.windowSeconds }
        if times.count >= Reaction.perWindow {
            let wait = max(1, Int((times[0] + Reaction.windowSeconds - now).rounded(.up)))
            throw RoomError(.tooManyReactions(limit: Reaction.perWindow, seconds: Int(Reaction.windowSeconds),
                                              retryAfter: wait), move: "react")
        }
        return times
    }
}
