#if canImport(Glibc)
import Glibc
#endif
import JSON
import Transport
import WebSocket
import Runtime

/// One bot of the `play` and `churn` scenarios: a player (the host, who creates the room, or a joiner), a
/// spectator, or a churner, which drops its connection, resumes, checks its state and leaves, in a loop.
///
/// Every bot follows the room's state through `welcome`, `patch` and `snapshot`, checking the sequence
/// (`RoomReplica`), and decides its moves from the state at its own seq only, as a person looking at the web
/// client would. Players and spectators read that state from the room's `RoomStates`, which applies each patch
/// once for all of them; churners, whose resumes are the point, rebuild their own.
///
/// Created and used on one event-loop thread only: its worker's. `@unchecked Sendable` because the transport
/// requires endpoints to be `Sendable`; the bot is never touched from another thread.
final class GameBot: WebSocketEndpoint, WakeableBot, @unchecked Sendable {
    enum Role {
        case host
        case player
        case spectator
        case churner
    }

    private enum Phase {
        /// Not connected, nothing under way.
        case idle
        case connecting
        /// `create` or `join` sent, waiting for `welcome`.
        case joining
        /// A join with token and seq sent.
        case resuming
        case inRoom
        /// `leave` sent, waiting for `left`.
        case leaving
        /// A churner dropped its connection on purpose and will resume.
        case dropped
        /// Done for the run.
        case finished
    }

    /// Where a churner is in its cycle, and what it does when its churn timer fires.
    private enum ChurnStep {
        case none
        /// In the room with a fresh seat: drop the connection next.
        case drop
        /// Dropped: reconnect and resume next.
        case resume
        /// Resumed and verified: leave next.
        case leave
        /// Left: join again (a fresh seat) next.
        case rejoin
    }

    /// A move waiting for the patch that shows it, or the error that refuses it.
    private struct PendingMove {
        enum Kind {
            case guess(letter: String)
            case word(String, valid: Bool)
            case chat(String)
        }
        let kind: Kind
        /// Monotonic nanoseconds just before the move was queued to the socket.
        let sentAt: UInt64
        /// The room's seq the bot had when it sent the move.
        let seqAtSend: Int
    }

    /// Error codes a word can meet through no fault of the bot: another bot found it first, or the round ended
    /// while it was on its way.
    private static let wordRaceCodes: Set<String> = ["already-found", "round-not-running"]
    /// How long a Word Scramble host waits for its players before starting the first match anyway.
    private static let scrambleStartWait: UInt64 = 2_000_000_000
    /// A churner's time in the room before dropping or leaving, and away before resuming (nanoseconds).
    private static let churnHold: ClosedRange<UInt64> = 300_000_000...1_000_000_000
    private static let churnAway: ClosedRange<UInt64> = 50_000_000...300_000_000

    /// Unowned without the runtime check: the worker owns its bots and outlives them.
    unowned(unsafe) let worker: LoopWorker
    let room: RoomPlan
    let role: Role
    let name: String
    let maxMessageBytes: Int

    private var connection: Connection?
    private var phase = Phase.idle
    /// The handshake of the current connection completed.
    private var opened = false
    /// The bot closed (or dropped) the current connection itself.
    private var closeExpected = false
    private var replica = RoomReplica()
    private var you: String?
    private var token: String?
    private var connectStartedAt: UInt64 = 0
    private var joinSentAt: UInt64 = 0
    private var pending: [PendingMove] = []
    var wakeAt: UInt64?

    /// Hosts: when they saw the game or match over.
    private var overSeenAt: UInt64?
    /// When the player's next move is due: one every interval, a game move when there is one to make, else
    /// (with `--chat-share`) a chat line.
    private var nextMoveAt: UInt64?
    /// Chat lines sent, for texts the bot can recognize in the state.
    private var chatsSent = 0
    /// The game (Snowman `gameNumber`, Scramble `matchNumber`) the host last asked `new_game` after.
    private var newGameRequestedAfter: Int64?
    private var words = ScrambleWordSource()

    private var churnStep = ChurnStep.none
    private var churnAt: UInt64?
    /// A churner sent `resync` to compare its resumed state with a snapshot.
    private var verifying = false

    init(worker: LoopWorker, room: RoomPlan, role: Role, name: String) {
        self.worker = worker
        self.room = room
        self.role = role
        self.name = name
        self.maxMessageBytes = worker.context.options.maxMessageBytes
    }

    private var isPlayer: Bool { role != .spectator }
    /// Whether the bot reads its state from the room's shared `RoomStates` rather than rebuilding its own.
    private var sharesStates: Bool { role != .churner }

    /// The room's state as of the last message this bot read (for a bot that shares it, possibly later: see
    /// `RoomStates`).
    private var state: JSONValue {
        sharesStates ? room.states.state : replica.state
    }
    private var interval: UInt64 { worker.context.moveInterval }

    // MARK: Lifecycle

    /// Opens the connection; the host creates the room, the others join it.
    func start() {
        guard worker.running else { return }
        phase = .connecting
        connectStartedAt = MonotonicClock.nanoseconds()
        worker.connect(self)
    }

    /// Ends the bot's part in the run: closes its connection normally.
    func finish() {
        phase = .finished
        churnAt = nil
        wakeAt = nil
        if let connection {
            closeExpected = true
            connection.close(code: .normalClosure)
        }
    }

    func didOpen(_ connection: Connection, request: HTTPRequestHead) {
        let now = MonotonicClock.nanoseconds()
        self.connection = connection
        opened = true
        closeExpected = false
        worker.recordOpen(startedAt: connectStartedAt)
        guard worker.running, phase == .connecting else {
            finish()
            return
        }
        joinSentAt = now
        if role == .host {
            phase = .joining
            send(["type": "create", "game": .string(room.game.rawValue), "name": .string(name),
                  "settings": room.game == .scramble ? Self.scrambleSettings : Self.snowmanSettings])
        } else if role == .churner, churnStep == .resume, let token, let code = room.code {
            phase = .resuming
            send(["type": "join", "code": .string(code), "token": .string(token), "seq": JSONValue(replica.seq)])
        } else if let code = room.code {
            phase = .joining
            send(["type": "join", "code": .string(code), "name": .string(name),
                  "spectator": .bool(role == .spectator)])
        } else {
            finish()
        }
    }

    /// Short rounds so that matches cycle within a run; no turn timer, so Snowman turns wait for the bot.
    private static let scrambleSettings: JSONValue = ["rounds": 3, "roundSeconds": 30, "minWordLength": 3]
    private static let snowmanSettings: JSONValue = ["maxWrongGuesses": 7]

    func didReceiveBinary(_ data: UnsafeRawBufferPointer, on connection: Connection) {
        worker.stats.messagesIn += 1
        worker.stats.bytesIn += data.count
        worker.stats.protocolError("binary-message")
    }

    func didClose(_ connection: Connection, code: CloseCode?) {
        let now = MonotonicClock.nanoseconds()
        self.connection = nil
        worker.stats.pendingMoves -= pending.count
        if phase == .dropped {
            worker.stats.abandonedMoves += pending.count
        }
        pending.removeAll()
        let expected = closeExpected || phase == .dropped
        worker.recordClose(opened: opened, expected: expected, code: code)
        guard opened else {
            // The TCP connection or the handshake failed (the transport reports a timeout or a close here).
            connectFailed()
            return
        }
        opened = false
        guard expected else {
            phase = .finished
            return
        }
        switch phase {
        case .dropped:
            churnAt = now + worker.randomNanoseconds(in: Self.churnAway)
            decide(now: now)
        case .leaving:
            worker.stats.churnCycles += 1
            phase = .idle
            token = nil
            you = nil
            replica = RoomReplica()
            churnStep = .rejoin
            churnAt = now + worker.randomNanoseconds(in: Self.churnAway)
            decide(now: now)
        default:
            phase = .finished
        }
    }

    func connectionFailed(reason: String) {
        worker.stats.connectFailures[reason, default: 0] += 1
        connectFailed()
    }

    private func connectFailed() {
        if role == .host, room.code == nil {
            worker.stats.roomsFailed += 1
        }
        phase = .finished
    }

    // MARK: Messages from the server

    func didReceiveText(_ text: UnsafeRawBufferPointer, on connection: Connection) {
        let now = MonotonicClock.nanoseconds()
        worker.stats.messagesIn += 1
        worker.stats.bytesIn += text.count
        if let shared = room.decodedPatch(matching: text) {
            receivedPatch(shared, now: now)
            return
        }
        let message: JSONValue
        do {
            message = try JSONParser().parse(text)
        } catch {
            worker.stats.protocolError("bad-json")
            return
        }
        switch message["type"]?.stringValue {
        case "patch":
            let decoded = DecodedPatch(bytes: Array(text), seq: message["seq"]?.intValue,
                                       operations: message["ops"].flatMap { try? JSONPatch(json: $0) })
            room.keep(decoded)
            receivedPatch(decoded, now: now)
        case "welcome":
            receivedWelcome(message, now: now)
        case "snapshot":
            receivedSnapshot(message, now: now)
        case "error":
            receivedError(message, now: now)
        case "left":
            receivedLeft()
        case "lobby":
            break
        default:
            worker.stats.protocolError("unexpected-message")
        }
    }

    private func receivedWelcome(_ message: JSONValue, now: UInt64) {
        worker.stats.welcomes += 1
        guard let seq = message["seq"]?.intValue, let you = message["you"]?.stringValue,
              let token = message["token"]?.stringValue, let code = message["code"]?.stringValue else {
            worker.stats.protocolError("bad-welcome")
            return
        }
        let state = message["state"]
        switch phase {
        case .joining:
            worker.stats.joinLatency.record(fromNanoseconds: joinSentAt, to: now)
            guard let state else {
                worker.stats.protocolError("bad-welcome")
                return
            }
            if sharesStates {
                replica.start(seq: seq)
                if let problem = room.states.given(state, at: seq) { worker.stats.protocolError(problem.rawValue) }
            } else {
                _ = replica.welcome(seq: seq, state: state)
            }
            self.you = you
            self.token = token
            phase = .inRoom
            if role == .host {
                worker.stats.roomsCreated += 1
                room.code = code
                room.createdAt = now
                worker.roomReady(room)
            }
            if role == .churner {
                churnStep = .drop
                churnAt = now + worker.randomNanoseconds(in: Self.churnHold)
            }
        case .resuming:
            worker.stats.resumes += 1
            if message["resumed"]?.boolValue == true {
                worker.stats.resumedWithPatches += 1
                if !replica.welcome(seq: seq, state: nil) {
                    worker.stats.protocolError("resume-seq-mismatch")
                }
            } else {
                guard let state else {
                    worker.stats.protocolError("bad-welcome")
                    return
                }
                worker.stats.resumedWithState += 1
                _ = replica.welcome(seq: seq, state: state)
            }
            guard you == self.you else {
                worker.stats.protocolError("resume-other-member")
                return
            }
            phase = .inRoom
            // The missed patches follow the welcome; the snapshot comes after them, at the seq they reach.
            verifying = true
            send(["type": "resync"])
        default:
            worker.stats.protocolError("unexpected-welcome")
            return
        }
        decide(now: now)
    }

    private func receivedPatch(_ patch: DecodedPatch, now: UInt64) {
        worker.stats.patches += 1
        let result = sharesStates
            ? replica.follow(seq: patch.seq, valid: patch.operations != nil)
            : replica.patch(seq: patch.seq, operations: patch.operations)
        switch result {
        case .applied:
            if sharesStates, let problem = room.states.read(patch, seq: replica.seq) {
                worker.stats.protocolError(problem.rawValue)
                if problem == .patchFailed {
                    // As with a replica of its own: wait for a snapshot of the state the server has.
                    requestResync()
                    return
                }
            }
            room.patchRead(seq: replica.seq, at: now, delivery: &worker.stats.patchDelivery)
            guard isPlayer else { return }
            if !pending.isEmpty, let operations = patch.operations,
               Self.touches(operations, room.game == .snowman ? Self.guessesPath : Self.foundPath)
                || Self.touches(operations, Self.chatPath) {
                resolveShownMoves(now: now, record: true, newest: Self.newestWindow(operations), patch: operations)
            }
            decide(now: now)
        case .skipped:
            break
        case .sendResync(let problem):
            worker.stats.protocolError(problem.rawValue)
            requestResync()
        }
    }

    /// Asks for a snapshot after a gap or a patch that did not apply (unless one is on its way already for a
    /// resumed churner's check).
    private func requestResync() {
        replica.awaitSnapshot()
        guard !verifying else { return }
        worker.stats.resyncs += 1
        send(["type": "resync"])
    }

    private func receivedSnapshot(_ message: JSONValue, now: UInt64) {
        worker.stats.snapshots += 1
        guard let seq = message["seq"]?.intValue, let state = message["state"] else {
            worker.stats.protocolError("bad-snapshot")
            return
        }
        let recovering = replica.awaitingSnapshot
        let matched: Bool
        if sharesStates {
            // `given` compares the snapshot with the state built for its seq, when there is one.
            let comparable = !recovering && seq == replica.seq && room.states.seq == seq
            let problem = room.states.given(state, at: seq)
            if let problem { worker.stats.protocolError(problem.rawValue) }
            matched = comparable && problem == nil
            replica.start(seq: seq)
        } else {
            matched = replica.snapshot(seq: seq, state: state)
        }
        if verifying {
            verifying = false
            if matched {
                worker.stats.resumesVerified += 1
            } else if !recovering {
                // A gap was already counted when recovering; otherwise the resumed state itself was wrong.
                worker.stats.protocolError("resume-mismatch")
            }
            if role == .churner {
                churnStep = .leave
                churnAt = now + worker.randomNanoseconds(in: Self.churnHold)
            }
        }
        // Moves the snapshot shows can no longer be timed to their patch: drop them without a latency.
        if !pending.isEmpty { resolveShownMoves(now: now, record: false) }
        decide(now: now)
    }

    private func receivedError(_ message: JSONValue, now: UInt64) {
        let code = message["code"]?.stringValue ?? "no-code"
        let move = message["move"]?.stringValue
        switch move {
        case "guess", "word", "chat":
            guard !pending.isEmpty else {
                worker.stats.protocolError("error:\(code)")
                return
            }
            // The room answers one connection's moves in order and every earlier move's patch has been
            // applied already, so this refusal is for the oldest move still waiting.
            let refused = pending.removeFirst()
            worker.stats.pendingMoves -= 1
            if refused.sentAt >= worker.timingFrom {
                worker.stats.moveToError.record(fromNanoseconds: refused.sentAt, to: now)
            }
            var expected = false
            if case .word(_, let valid) = refused.kind {
                expected = valid ? Self.wordRaceCodes.contains(code) : (code == "not-a-word" || code == "round-not-running")
            }
            if expected {
                worker.stats.expectedRejections[code, default: 0] += 1
            } else {
                worker.stats.protocolError("error:\(code)")
            }
        case "create", "join":
            worker.stats.protocolError("error:\(code)")
            if role == .host, room.code == nil { worker.stats.roomsFailed += 1 }
            finish()
        default:
            if code == "rate-limited", !pending.isEmpty {
                // Refused by the connection's rate limit before reaching the room: the latest move.
                pending.removeLast()
                worker.stats.pendingMoves -= 1
            }
            worker.stats.protocolError("error:\(code)")
        }
        decide(now: now)
    }

    private func receivedLeft() {
        guard phase == .leaving, let connection else {
            worker.stats.protocolError("unexpected-left")
            return
        }
        worker.stats.leaves += 1
        closeExpected = true
        connection.close(code: .normalClosure)
    }

    private static let guessesPath = ["snowman", "guesses"]
    private static let foundPath = ["scramble", "found"]
    private static let chatPath = ["chat"]

    /// Whether some operation of a patch changes what is at `path`: its target is `path`, inside it, or one of
    /// its ancestors. Other patches cannot have revealed a pending move.
    static func touches(_ patch: JSONPatch, _ path: [String]) -> Bool {
        patch.operations.contains { operation in
            let target = operation.path.tokens
            let common = min(target.count, path.count)
            return target[..<common].elementsEqual(path[..<common])
        }
    }

    /// How many of the newest entries of a list a patch can have added: one per operation, unless an operation
    /// replaces a whole list or one of its ancestors (nil: look at every entry).
    static func newestWindow(_ patch: JSONPatch) -> Int? {
        for operation in patch.operations {
            let tokens = operation.path.tokens
            for list in [guessesPath, foundPath, chatPath] where tokens.count <= list.count {
                if tokens.elementsEqual(list[..<tokens.count]) { return nil }
            }
        }
        return patch.operations.count + 1
    }

    /// Times the pending moves that the state now shows: the first patch after which the mover's own guess
    /// (letter and player), word (word and player) or chat line (text and player) is in the state is the patch
    /// that contains its effect. A patch adds entries at the newest end of a list (the back of guesses and chat,
    /// the front of found words), so only the `newest` entries there need looking at.
    private func resolveShownMoves(now: UInt64, record: Bool, newest: Int? = nil, patch: JSONPatch? = nil) {
        // A bot reading behind the room's shared state (see `RoomStates`) tells from the patch itself: the newer
        // state may no longer hold its entry (a new round, chat lines scrolled away) or may hold it early.
        let revealedBy = sharesStates && room.states.seq != replica.seq ? patch : nil
        let before = pending.count
        pending.removeAll { move in
            guard shows(move, newest: newest, revealedBy: revealedBy) else { return false }
            if record, move.sentAt >= worker.timingFrom {
                worker.stats.moveToPatch.record(fromNanoseconds: move.sentAt, to: now)
                room.moveShown(seq: replica.seq, sentAt: move.sentAt, delivery: &worker.stats.patchDelivery)
                if replica.seq > move.seqAtSend + 1 { worker.stats.movesShownByLaterPatch += 1 }
            }
            return true
        }
        worker.stats.pendingMoves -= before - pending.count
    }

    /// Whether the move's entry (the mover's guess, word or chat line) is in the state, among its `newest`
    /// entries, or, with `revealedBy`, whether that patch puts it there.
    private func shows(_ move: PendingMove, newest: Int?, revealedBy patch: JSONPatch? = nil) -> Bool {
        guard let you else { return false }
        let list: [String]
        let isEntry: (JSONValue) -> Bool
        // Guesses and chat grow at the back, found words at the front.
        var newestFirst = false
        switch move.kind {
        case .guess(let letter):
            list = Self.guessesPath
            isEntry = { $0["letter"]?.stringValue == letter && $0["player"]?.stringValue == you }
        case .word(let word, let valid):
            guard valid else { return false }
            list = Self.foundPath
            newestFirst = true
            isEntry = { $0["word"]?.stringValue == word && $0["player"]?.stringValue == you }
        case .chat(let text):
            list = Self.chatPath
            isEntry = { $0["text"]?.stringValue == text && $0["player"]?.stringValue == you }
        }
        if let patch { return Self.reveals(patch, in: list, isEntry) }
        var value: JSONValue? = state
        for token in list { value = value?[token] }
        guard case .array(let entries)? = value else { return false }
        let window = newest ?? .max
        return newestFirst ? entries.prefix(window).contains(where: isEntry)
                           : entries.suffix(window).contains(where: isEntry)
    }

    /// Whether `patch` adds an entry to the list at `list` for which `isEntry` holds: an `add` or `replace` of the
    /// entry itself, of the list, or of a container holding the list (entries of these lists never change once
    /// added, so those are the only ways one appears).
    static func reveals(_ patch: JSONPatch, in list: [String], _ isEntry: (JSONValue) -> Bool) -> Bool {
        for operation in patch.operations {
            let value: JSONValue
            switch operation {
            case .add(_, let added): value = added
            case .replace(_, let replacement): value = replacement
            default: continue
            }
            let tokens = operation.path.tokens
            if tokens.count == list.count + 1, tokens.starts(with: list) {
                if isEntry(value) { return true }
                continue
            }
            guard tokens.count <= list.count, list.starts(with: tokens) else { continue }
            var inner: JSONValue? = value
            for token in list[tokens.count...] { inner = inner?[token] }
            if case .array(let entries)? = inner, entries.contains(where: isEntry) { return true }
        }
        return false
    }

    // MARK: Deciding and moving

    func wake(now: UInt64) {
        if let at = churnAt, at <= now {
            churnAt = nil
            if churn(now: now) { return }
        }
        act(now: now)
        decide(now: now)
    }

    /// Takes the churner's next step. Returns true when the step replaced the connection.
    private func churn(now: UInt64) -> Bool {
        guard worker.running else { return false }
        switch churnStep {
        case .drop where phase == .inRoom && !verifying:
            worker.stats.drops += 1
            churnStep = .resume
            phase = .dropped
            connection?.abort()
            return true
        case .resume where phase == .dropped && connection == nil:
            phase = .connecting
            connectStartedAt = now
            worker.connect(self)
            return true
        case .leave where phase == .inRoom:
            phase = .leaving
            send(["type": "leave"])
            return true
        case .rejoin where phase == .idle:
            churnStep = .none
            start()
            return true
        default:
            return false
        }
    }

    /// Sends the move that is due, if the state still calls for it.
    private func act(now: UInt64) {
        guard worker.running, phase == .inRoom, isPlayer, !replica.awaitingSnapshot, !verifying,
              let you else { return }
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
                newGameRequestedAfter = number
                overSeenAt = nil
                send(["type": "new_game"])
                worker.stats.hostActions += 1
            }
        case .scramble:
            guard let scramble = state["scramble"], let phase = scramble["phase"]?.stringValue else { return }
            if phase == "lobby" || phase == "finished", let number = scramble["matchNumber"]?.int64Value,
               newGameRequestedAfter != number, let start = matchStartTime(scramble, state: state), now >= start {
                newGameRequestedAfter = number
                overSeenAt = nil
                send(["type": "new_game"])
                worker.stats.hostActions += 1
            }
        }
    }

    /// Sends the game move the state allows, if any: a guess on the bot's Snowman turn, a word while a Word
    /// Scramble round runs. Returns false when there is none to make.
    private func makeGameMove(_ state: JSONValue, you: String) -> Bool {
        switch room.game {
        case .snowman:
            guard let snowman = state["snowman"], snowman["status"]?.stringValue == "inProgress",
                  snowman["turn"]?.stringValue == you,
                  !pending.contains(where: { if case .guess = $0.kind { true } else { false } }) else { return false }
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
        guard share > 0, share >= 1 || worker.random.unit() < share,
              !pending.contains(where: { if case .chat = $0.kind { true } else { false } }) else { return }
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

    /// Works out when the bot next has something to do and asks its loop to wake it then.
    private func decide(now: UInt64) {
        var next = churnAt
        func consider(_ time: UInt64) {
            next = min(next ?? time, time)
        }
        if worker.running, phase == .inRoom, isPlayer, !replica.awaitingSnapshot, !verifying, let you {
            if nextMoveAt == nil {
                // Spread the room's bots over the interval instead of all moving at once.
                nextMoveAt = now + UInt64(worker.random.unit() * Double(interval))
            }
            consider(nextMoveAt!)
            let state = self.state
            // Only hosts start games; the others have nothing else to wait for.
            let isHost = state["host"]?.stringValue == you
            if !isHost { overSeenAt = nil }
            switch room.game {
            case _ where !isHost:
                break
            case .snowman:
                let snowman = state["snowman"]
                if snowman?["status"]?.stringValue != "inProgress",
                   let number = snowman?["gameNumber"]?.int64Value, newGameRequestedAfter != number {
                    if overSeenAt == nil { overSeenAt = now }
                    consider(overSeenAt! + interval)
                } else {
                    overSeenAt = nil
                }
            case .scramble:
                let scramble = state["scramble"]
                let phase = scramble?["phase"]?.stringValue
                if phase == "lobby" || phase == "finished", let scramble,
                   let number = scramble["matchNumber"]?.int64Value, newGameRequestedAfter != number {
                    if overSeenAt == nil { overSeenAt = now }
                    if let start = matchStartTime(scramble, state: state) { consider(start) }
                } else {
                    overSeenAt = nil
                }
            }
        } else {
            nextMoveAt = nil
        }
        if let next { worker.schedule(self, at: next) }
    }

    // MARK: Sending

    private func send(_ message: JSONValue) {
        guard let connection, connection.isOpen else { return }
        worker.send(message, on: connection)
    }

    private func sendMove(_ message: JSONValue, kind: PendingMove.Kind) {
        guard let connection, connection.isOpen else { return }
        // A fresh reading, not the tick's `now`: other bots' sends in the same tick must not count towards this one.
        pending.append(PendingMove(kind: kind, sentAt: MonotonicClock.nanoseconds(), seqAtSend: replica.seq))
        worker.stats.pendingMoves += 1
        worker.stats.moves += 1
        worker.send(message, on: connection)
    }
}
