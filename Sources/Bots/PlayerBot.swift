import JSON
import Runtime
import Transport
import WordGames

/// A player of a room: one move every `1 / --rate` seconds, a game move when its game's bot (`GameBot`) has one
/// to make, else (with `--chat-share`) a chat line. Each move is timed to the first patch that shows it, or to
/// the error that refuses it. Whichever player the state names as host also starts the next game once one is
/// over.
class PlayerBot: RoomBot, @unchecked Sendable {
    private var pending = PendingMoves()
    /// When the player's next move is due.
    private var nextMoveAt: UInt64?
    /// Chat lines sent, for texts the bot can recognize in the state.
    private var chatsSent = 0
    /// How the bot plays its room's game.
    private lazy var gameBot: any GameBot = room.game.init(words: worker.words)
    /// As host: when it saw the game or match over.
    private var overSeenAt: UInt64?
    /// As host: the game it last asked `new_game` after (`GameBot.finishedGame`).
    private var newGameRequestedAfter: Int?

    private var interval: UInt64 { worker.context.moveInterval }

    /// Whether the bot may move now: in the room with a state it trusts.
    private var mayMove: Bool {
        worker.running && phase == .inRoom && !replica.awaitingSnapshot && !verifyingResume
    }

    // MARK: What the room says

    override func connectionLost(dropped: Bool) {
        worker.stats.pendingMoves -= pending.count
        if dropped {
            worker.stats.abandonedMoves += pending.count
        }
        pending.removeAll()
    }

    override func read(_ patch: DecodedPatch, now: UInt64) {
        if !pending.isEmpty, let operations = patch.operations,
           PendingMoves.touches(operations, room.shownList.path)
            || PendingMoves.touches(operations, PendingMoves.chatPath) {
            resolveShownMoves(now: now, record: true,
                              newest: PendingMoves.newestWindow(operations, gameList: room.shownList.path),
                              patch: operations)
        }
        decide(now: now)
    }

    override func readSnapshot(matched: Bool, recovering: Bool, now: UInt64) {
        // Moves the snapshot shows can no longer be timed to their patch: drop them without a latency.
        if !pending.isEmpty { resolveShownMoves(now: now, record: false) }
    }

    override func moveRefused(code: String, now: UInt64) -> Bool {
        guard !pending.isEmpty else { return false }
        // The room answers one connection's moves in order and every earlier move's patch has been applied
        // already, so this refusal is for the oldest move still waiting.
        let refused = pending.removeOldest()
        worker.stats.pendingMoves -= 1
        if refused.sentAt >= worker.timingFrom {
            worker.stats.moveToError.record(fromNanoseconds: refused.sentAt, to: now)
        }
        // A server shutting down refuses every move after its last save; the bot resumes and plays on.
        var expected = code == "server-stopping"
        if !expected, case .game(_, let expectedRefusals) = refused.kind {
            expected = expectedRefusals.contains(code)
        }
        if expected {
            worker.stats.expectedRejections[code, default: 0] += 1
        } else {
            worker.stats.protocolError("error:\(code)")
        }
        return true
    }

    override func rateLimited() {
        // Refused before reaching the room: the latest move.
        guard !pending.isEmpty else { return }
        pending.removeNewest()
        worker.stats.pendingMoves -= 1
    }

    /// Times the pending moves that the state now shows: the first patch after which the mover's own game move
    /// (its entry in the game's list, with the player) or chat line (text and player) is in the state is the
    /// patch that contains its effect.
    private func resolveShownMoves(now: UInt64, record: Bool, newest: Int? = nil, patch: JSONPatch? = nil) {
        guard let you else { return }
        // A bot reading behind the room's shared state (see `RoomStates`) tells from the patch itself: the newer
        // state may no longer hold its entry (a new round, chat lines scrolled away) or may hold it early.
        let revealedBy = readsBehindRoom ? patch : nil
        let state = self.state
        let gameList = room.shownList
        let before = pending.count
        pending.removeAll { move in
            guard PendingMoves.shows(move, by: you, in: state, gameList: gameList, newest: newest,
                                     revealedBy: revealedBy) else {
                return false
            }
            if record, move.sentAt >= worker.timingFrom {
                worker.stats.moveToPatch.record(fromNanoseconds: move.sentAt, to: now)
                room.moveShown(seq: replica.seq, sentAt: move.sentAt, delivery: &worker.stats.patchDelivery)
                if replica.seq > move.seqAtSend + 1 { worker.stats.movesShownByLaterPatch += 1 }
            }
            return true
        }
        worker.stats.pendingMoves -= before - pending.count
    }

    // MARK: Deciding and moving

    /// Sends the move that is due, if the state still calls for it, and as host starts the next game.
    override func act(now: UInt64) {
        guard mayMove, let you else { return }
        let state = self.state
        if let due = nextMoveAt, now >= due {
            // Keep the cadence: the next move is one interval after this one was due, unless far behind.
            nextMoveAt = now - due > interval ? now + interval : due + interval
            if !makeGameMove(state, you: you) { chat() }
        }
        guard state["host"]?.stringValue == you else { return }
        let game = JSONGameState(part: state[room.game.gameID])
        if let number = gameBot.finishedGame(in: game), newGameRequestedAfter != number,
           let start = nextGameTime(game, state: state), now >= start {
            requestNewGame(after: number)
        }
    }

    private func requestNewGame(after number: Int) {
        newGameRequestedAfter = number
        overSeenAt = nil
        send(["type": "new_game"])
        worker.stats.hostActions += 1
    }

    /// Sends the game move the game's bot chooses, if any. Returns false when there is none to make.
    private func makeGameMove(_ state: JSONValue, you: String) -> Bool {
        let context = worker.context
        let game = JSONGameState(part: state[room.game.gameID])
        let choice: GameBotMessage
        do {
            choice = try gameBot.chooseMessage(in: game, you: you, waiting: pending.gameMoves,
                                               invalidShare: context.options.invalidShare, using: &worker.random)
        } catch {
            worker.stats.protocolError("move-not-encodable")
            return false
        }
        switch choice {
        case .wait:
            return false
        case .noMoveLeft:
            worker.stats.skippedMoves += 1
            return false
        case .play(let message, let kind, let invalidOnPurpose):
            sendMove(message, kind: kind)
            worker.stats.gameMoves[room.game.moveNoun, default: 0] += 1
            if invalidOnPurpose { worker.stats.invalidMoves += 1 }
            return true
        }
    }

    /// Fills a tick without a game move with a chat line (`--chat-share` of them), as players waiting for their
    /// turn do; at most one at a time waits for its patch.
    private func chat() {
        let share = worker.context.options.chatShare
        guard share > 0, share >= 1 || worker.random.unit() < share, !pending.hasChat else { return }
        chatsSent += 1
        let text = "\(name) says hello #\(chatsSent)"
        sendMove(["type": "chat", "text": .string(text)], kind: .chat(text))
        worker.stats.chats += 1
    }

    /// When a host may start the next game: an interval after seeing the last one over, and before the first
    /// one, if the game waits for its players (`GameBot.playersWait`), once every planned player is in or the
    /// wait is over.
    private func nextGameTime(_ game: JSONGameState, state: JSONValue) -> UInt64? {
        guard let seen = overSeenAt else { return nil }
        var start = seen + interval
        if let wait = gameBot.playersWait(in: game) {
            let players = (state["members"]?.arrayValue ?? []).filter { $0["role"]?.stringValue == "player" }.count
            if players < room.plannedPlayers {
                start = max(start, room.createdAt + UInt64(wait * 1e9))
            }
        }
        return start
    }

    /// The next move's time and, as host, when to start the next game.
    override func nextWakeUp(now: UInt64) -> UInt64? {
        guard mayMove, let you else {
            nextMoveAt = nil
            return nil
        }
        if nextMoveAt == nil {
            // Spread the room's bots over the interval instead of all moving at once.
            nextMoveAt = now + UInt64(worker.random.unit() * Double(interval))
        }
        var next = nextMoveAt!
        let state = self.state
        // Only hosts start games; the others have nothing else to wait for.
        guard state["host"]?.stringValue == you else {
            overSeenAt = nil
            return next
        }
        let game = JSONGameState(part: state[room.game.gameID])
        if let number = gameBot.finishedGame(in: game), newGameRequestedAfter != number {
            if overSeenAt == nil { overSeenAt = now }
            if let start = nextGameTime(game, state: state) { next = min(next, start) }
        } else {
            overSeenAt = nil
        }
        return next
    }

    // MARK: Sending

    private func sendMove(_ message: JSONValue, kind: PendingMoves.Move.Kind) {
        guard let connection = link.connection, connection.isOpen else { return }
        // A fresh reading, not the tick's `now`: other bots' sends in the same tick must not count towards this one.
        pending.append(PendingMoves.Move(kind: kind, sentAt: MonotonicClock.nanoseconds(), seqAtSend: replica.seq))
        worker.stats.pendingMoves += 1
        worker.stats.moves += 1
        worker.send(message, on: connection)
    }
}
