import JSON
import Runtime
import Transport

/// A player of a room: one move every `1 / --rate` seconds, a game move when there is one to make (a guess on
/// its Snowman turn, a word while a Word Scramble round runs), else (with `--chat-share`) a chat line. Each move
/// is timed to the first patch that shows it, or to the error that refuses it. Whichever player the state names
/// as host also starts the next game once one is over.
class PlayerBot: RoomBot, @unchecked Sendable {
    /// Error codes a word can meet through no fault of the bot: another bot found it first, or the round ended
    /// while it was on its way.
    private static let wordRaceCodes: Set<String> = ["already-found", "round-not-running"]
    /// How long a Word Scramble host waits for its players before starting the first match anyway.
    private static let scrambleStartWait: UInt64 = 2_000_000_000

    private var pending = PendingMoves()
    /// When the player's next move is due.
    private var nextMoveAt: UInt64?
    /// Chat lines sent, for texts the bot can recognize in the state.
    private var chatsSent = 0
    private var words = ScrambleWordSource()
    /// As host: when it saw the game or match over.
    private var overSeenAt: UInt64?
    /// As host: the game (Snowman `gameNumber`, Scramble `matchNumber`) it last asked `new_game` after.
    private var newGameRequestedAfter: Int64?

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
           PendingMoves.touches(operations, room.game == .snowman ? PendingMoves.guessesPath : PendingMoves.foundPath)
            || PendingMoves.touches(operations, PendingMoves.chatPath) {
            resolveShownMoves(now: now, record: true, newest: PendingMoves.newestWindow(operations), patch: operations)
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
        if !expected, case .word(_, let valid) = refused.kind {
            expected = valid ? Self.wordRaceCodes.contains(code) : (code == "not-a-word" || code == "round-not-running")
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

    /// Times the pending moves that the state now shows: the first patch after which the mover's own guess
    /// (letter and player), word (word and player) or chat line (text and player) is in the state is the patch
    /// that contains its effect.
    private func resolveShownMoves(now: UInt64, record: Bool, newest: Int? = nil, patch: JSONPatch? = nil) {
        guard let you else { return }
        // A bot reading behind the room's shared state (see `RoomStates`) tells from the patch itself: the newer
        // state may no longer hold its entry (a new round, chat lines scrolled away) or may hold it early.
        let revealedBy = readsBehindRoom ? patch : nil
        let state = self.state
        let before = pending.count
        pending.removeAll { move in
            guard PendingMoves.shows(move, by: you, in: state, newest: newest, revealedBy: revealedBy) else {
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
        switch room.game {
        case .snowman:
            guard let snowman = state["snowman"] else { return }
            if snowman["status"]?.stringValue != "inProgress", let number = snowman["gameNumber"]?.int64Value,
               newGameRequestedAfter != number, let seen = overSeenAt, now >= seen + interval {
                requestNewGame(after: number)
            }
        case .scramble:
            guard let scramble = state["scramble"], let phase = scramble["phase"]?.stringValue else { return }
            if phase == "lobby" || phase == "finished", let number = scramble["matchNumber"]?.int64Value,
               newGameRequestedAfter != number, let start = matchStartTime(scramble, state: state), now >= start {
                requestNewGame(after: number)
            }
        }
    }

    private func requestNewGame(after number: Int64) {
        newGameRequestedAfter = number
        overSeenAt = nil
        send(["type": "new_game"])
        worker.stats.hostActions += 1
    }

    /// Sends the game move the state allows, if any: a guess on the bot's Snowman turn, a word while a Word
    /// Scramble round runs. Returns false when there is none to make.
    private func makeGameMove(_ state: JSONValue, you: String) -> Bool {
        switch room.game {
        case .snowman:
            guard let snowman = state["snowman"], snowman["status"]?.stringValue == "inProgress",
                  snowman["turn"]?.stringValue == you, !pending.hasGuess else { return false }
            let guessed = (snowman["guesses"]?.arrayValue ?? []).compactMap { $0["letter"]?.stringValue?.first }
            guard let letter = SnowmanStrategy.nextLetter(guessed: guessed) else { return false }
            let upper = String(letter).uppercased()
            sendMove(["type": "guess", "letter": .string(String(letter))], kind: .guess(letter: upper))
            worker.stats.guesses += 1
            return true
        case .scramble:
            guard let scramble = state["scramble"], scramble["phase"]?.stringValue == "playing" else { return false }
            return submitWord(scramble)
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

    /// Submits the next word of the round (or, `--invalid-share` of the time, a non-word). Returns false when the
    /// bot knows no word of the root that is still to find.
    private func submitWord(_ scramble: JSONValue) -> Bool {
        guard let root = scramble["root"]?.stringValue?.lowercased() else { return false }
        let minimumLength = scramble["minWordLength"]?.intValue ?? 3
        if root != words.root {
            words.start(root: root, words: worker.words(spelledFrom: root, minimumLength: minimumLength),
                        using: &worker.random)
        }
        let context = worker.context
        if context.options.invalidShare > 0, worker.random.unit() < context.options.invalidShare,
           let lexicon = context.lexicon,
           let word = words.invalidWord(minimumLength: minimumLength, lexicon: lexicon, using: &worker.random) {
            sendMove(["type": "word", "word": .string(word)], kind: .word(word, valid: false))
            worker.stats.words += 1
            worker.stats.invalidWords += 1
            return true
        }
        let found = scramble["found"]?.arrayValue ?? []
        words.noteFound(count: found.count) { found[$0]["word"]?.stringValue?.lowercased() }
        guard let word = words.nextWord() else {
            worker.stats.skippedMoves += 1
            return false
        }
        sendMove(["type": "word", "word": .string(word)], kind: .word(word, valid: true))
        worker.stats.words += 1
        return true
    }

    /// When a Scramble host may start the next match: an interval after seeing the lobby or the end, and for
    /// the first match once every planned player is in (or after a short wait for latecomers).
    private func matchStartTime(_ scramble: JSONValue, state: JSONValue) -> UInt64? {
        guard let seen = overSeenAt else { return nil }
        var start = seen + interval
        if scramble["phase"]?.stringValue == "lobby" {
            let players = (state["members"]?.arrayValue ?? []).filter { $0["role"]?.stringValue == "player" }.count
            if players < room.plannedPlayers {
                start = max(start, room.createdAt + Self.scrambleStartWait)
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
        switch room.game {
        case .snowman:
            let snowman = state["snowman"]
            if snowman?["status"]?.stringValue != "inProgress",
               let number = snowman?["gameNumber"]?.int64Value, newGameRequestedAfter != number {
                if overSeenAt == nil { overSeenAt = now }
                next = min(next, overSeenAt! + interval)
            } else {
                overSeenAt = nil
            }
        case .scramble:
            let scramble = state["scramble"]
            let phase = scramble?["phase"]?.stringValue
            if phase == "lobby" || phase == "finished", let scramble,
               let number = scramble["matchNumber"]?.int64Value, newGameRequestedAfter != number {
                if overSeenAt == nil { overSeenAt = now }
                if let start = matchStartTime(scramble, state: state) { next = min(next, start) }
            } else {
                overSeenAt = nil
            }
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
