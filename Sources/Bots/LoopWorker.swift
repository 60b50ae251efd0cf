import JSON
import Synchronization
import Transport
import WebSocket
import WordGames
import Runtime

/// What every worker of a run shares: the options and what was derived from them once.
struct RunContext: Sendable {
    let options: BotOptions
    /// The bundled word lists, loaded when some room's game uses them (`GameBot.usesWordLists`).
    let lists: WordLists?
    /// Nanoseconds between a bot's moves: 1 / `--rate`.
    let moveInterval: UInt64
}

/// The bots of one event-loop thread and everything they share there: counters, wake-ups, the ramp-up queue,
/// a scratch buffer for outgoing messages.
///
/// Created on the driver thread, then used only on its loop's thread: the driver reaches it through
/// `EventLoop.execute`, whose mailbox hands it over. That is why it is `@unchecked Sendable`. The one exception
/// is `tickPending`, an atomic.
final class LoopWorker: LoopCompanion, @unchecked Sendable {
    let index: Int
    let loop: EventLoop
    let context: RunContext
    var stats = BotStats()
    var random: SplitMix64
    /// False once the run's time is up: no new moves, messages or connections.
    private(set) var running = true
    /// Monotonic nanoseconds from which moves and echoes are timed (the end of `--warmup`).
    var timingFrom: UInt64 = 0
    /// A tick is queued in the loop's mailbox; the driver does not queue another, so a busy loop is not flooded.
    let tickPending = Atomic<Bool>(false)
    /// The word lists as this loop's game bots share them.
    let words: BotWords

    private var timers = TimerHeap()
    private var bots: [any LoadBot] = []
    private var echoBots: [EchoBot] = []
    /// Bots waiting for their turn to connect; joiners of rooms whose code is known go first.
    private var joinerQueue = BotQueue()
    private var startQueue = BotQueue()
    /// When the first tick came: the ramp's schedule counts from there.
    private var rampStartedAt: UInt64?
    /// Connections started by the ramp so far.
    private var rampStarted = 0
    /// Connections this loop may open per nanosecond while ramping up: its share of `--ramp`.
    private let rampPerNanosecond: Double
    /// The most connections one tick starts, as the time the ramp takes to start them: behind schedule, the
    /// ramp catches up in bursts of this size rather than all at once (the server's listen backlog is finite).
    private static let maxRampBurstNanoseconds = 100_000_000.0
    /// Connections this loop has asked for, which picks each one's source address in turn.
    private var connectsOpened = 0
    private var scratch: [UInt8] = []

    init(index: Int, loop: EventLoop, context: RunContext, loops: Int) {
        self.index = index
        self.loop = loop
        self.context = context
        let seed = context.options.seed ?? UInt64(truncatingIfNeeded: MonotonicClock.nanoseconds())
        self.random = SplitMix64(seed: seed &+ UInt64(index) &* 0x9E37_79B9)
        self.rampPerNanosecond = context.options.ramp / Double(loops) / 1e9
        self.words = BotWords(lists: context.lists)
    }

    // MARK: Setting up (on the loop thread)

    /// Creates the bots of `rooms` (play, churn) and queues their hosts.
    func setUp(rooms: [Int]) {
        let options = context.options
        for index in rooms {
            let churners = options.scenario == .churn ? options.churners : 0
            let room = RoomPlan(index: index, game: options.game(ofRoom: index), plannedPlayers: options.players)
            let host = HostBot(worker: self, room: room, name: "bot\(index)-host")
            for seat in 1..<options.players {
                room.joiners.append(PlayerBot(worker: self, room: room, name: "bot\(index)-p\(seat)"))
            }
            for seat in 0..<churners {
                room.joiners.append(ChurnerBot(worker: self, room: room, name: "bot\(index)-c\(seat)"))
            }
            for seat in 0..<options.spectators {
                room.joiners.append(SpectatorBot(worker: self, room: room, name: "bot\(index)-s\(seat)"))
            }
            bots.append(host)
            bots.append(contentsOf: room.joiners as [any LoadBot])
            startQueue.append(host)
        }
    }

    /// Creates `count` connections of the idle or echo scenario.
    func setUp(connections count: Int) {
        for _ in 0..<count {
            let bot: any LoadBot
            if context.options.scenario == .echo {
                let echo = EchoBot(worker: self)
                echoBots.append(echo)
                bot = echo
            } else {
                bot = IdleBot(worker: self)
            }
            bots.append(bot)
            startQueue.append(bot)
        }
    }

    /// Creates the members of the fanout `rooms`: `--room-size` each, the last room of the run the rest of
    /// `--connections`. Room-mates are queued together, so that a room fills before the next one starts.
    func setUp(fanoutRooms rooms: [Int]) {
        let options = context.options
        for room in rooms {
            let members = min(options.roomSize, options.connections - room * options.roomSize)
            for seat in 0..<members {
                let bot = FanoutBot(worker: self, room: room, seat: seat)
                bots.append(bot)
                startQueue.append(bot)
            }
        }
    }

    /// A host was welcomed: its room's code is known, so its joiners may connect.
    func roomReady(_ room: RoomPlan) {
        for bot in room.joiners { joinerQueue.append(bot) }
    }

    // MARK: Running (on the loop thread)

    /// Starts the connections the ramp allows and, at a fixed echo rate, sends what is due. The driver calls this
    /// every few milliseconds. (The bots' own wake-ups are the loop's business: see `runPending`.)
    func tick() {
        tickPending.store(false, ordering: .releasing)
        let now = MonotonicClock.nanoseconds()
        if running {
            // A fixed schedule: by now, `elapsed x rate` connections should have started. What a late tick (or
            // joiners waiting for their room's code) left behind is made up in bursts of `maxRampBurstNanoseconds`.
            let startedAt = rampStartedAt ?? now
            rampStartedAt = startedAt
            let due = Int(Double(now - startedAt) * rampPerNanosecond) + 1 - rampStarted
            var allowed = min(due, max(1, Int(rampPerNanosecond * Self.maxRampBurstNanoseconds)))
            while allowed > 0, let bot = joinerQueue.popFirst() ?? startQueue.popFirst() {
                allowed -= 1
                rampStarted += 1
                bot.start()
            }
        }
        if running, context.options.effectiveRate != nil {
            for bot in echoBots { bot.sendDue(now: now) }
        }
    }

    /// Wakes the bots whose time has come. The loop calls this after every event and sleeps no longer
    /// than `nextDeadline`, so a move leaves when its bot planned it, give or take the loop's polling interval.
    /// (Woken by the driver's tick instead, every bot due within the tick's 5 ms would move at once: the server
    /// would see 10,000 players' moves as 200 bursts a second, a load no real crowd makes.)
    func runPending() {
        guard let first = timers.earliestDeadline else { return }
        let now = MonotonicClock.nanoseconds()
        guard first <= now else { return }
        while let entry = timers.popDue(now: now) {
            guard entry.bot.wakeAt == entry.deadline else { continue }
            entry.bot.wakeAt = nil
            entry.bot.wake(now: now)
        }
    }

    func nextDeadline() -> Double? {
        timers.earliestDeadline.map { Double($0) / 1e9 }
    }

    /// Asks for `bot.wake(now:)` at `deadline` (monotonic nanoseconds), unless it is to be woken earlier anyway.
    func schedule(_ bot: some WakeableBot, at deadline: UInt64) {
        if let current = bot.wakeAt, current <= deadline { return }
        bot.wakeAt = deadline
        timers.push(TimerHeap.Entry(deadline: deadline, bot: bot))
    }

    /// Opens a connection for `bot` on this loop, to `path` or else the run's path.
    func connect(_ endpoint: any WebSocketEndpoint, path: String? = nil) {
        stats.connectAttempts += 1
        let url = context.options.url
        let source = context.options.sourceAddress(ofConnection: connectsOpened)
        connectsOpened &+= 1
        loop.connect(address: url.host, port: url.port, path: path ?? context.options.path, hostHeader: url.hostHeader,
                     endpoint: endpoint, compression: context.options.compression, localAddress: source)
    }

    /// Serializes `message` and sends it as one text frame.
    func send(_ message: JSONValue, on connection: Connection) {
        scratch.removeAll(keepingCapacity: true)
        JSONWriter().write(message, into: &scratch)
        stats.sent(bytes: scratch.count)
        scratch.withUnsafeBytes { connection.sendText($0) }
    }

    /// A random duration within `range`.
    func randomNanoseconds(in range: ClosedRange<UInt64>) -> UInt64 {
        UInt64.random(in: range, using: &random)
    }

    // MARK: Connection bookkeeping shared by the bots

    /// A bot's opening handshake completed.
    func recordOpen(startedAt: UInt64) {
        stats.connectsOpened += 1
        stats.openConnections += 1
        stats.connectLatency.record(fromNanoseconds: startedAt, to: MonotonicClock.nanoseconds())
    }

    /// A bot's connection ended. Before the handshake completed it counts as a failed connection; afterwards
    /// as expected or unexpected by close code (1006 for none).
    func recordClose(opened: Bool, expected: Bool, code: CloseCode?) {
        guard opened else {
            stats.connectFailures["closed during the opening handshake", default: 0] += 1
            return
        }
        stats.openConnections -= 1
        if expected {
            stats.expectedCloses += 1
        } else {
            stats.unexpectedCloses[code?.rawValue ?? 1006, default: 0] += 1
        }
    }

    // MARK: Ending

    /// The run's time is up: no new moves, messages or connections; replies in flight still count.
    func stop() {
        running = false
    }

    /// Counts the moves still unanswered and closes every connection normally.
    func finishAll() {
        stats.unansweredMoves += stats.pendingMoves
        timers.removeAll()
        for bot in bots { bot.finish() }
    }

    /// Moves and echo messages still waiting for their reply.
    var repliesOutstanding: Int {
        stats.pendingMoves + stats.echoInFlight + stats.fanoutInFlight
    }
}

/// What the worker asks of every kind of bot.
protocol LoadBot: AnyObject {
    /// Opens the bot's connection (when the ramp allows).
    func start()
    /// Closes the bot's connection normally at the end of the run.
    func finish()
}

/// A first-in first-out queue of bots that consumes from the front without shifting the array.
private struct BotQueue {
    private var items: [any LoadBot] = []
    private var head = 0

    mutating func append(_ bot: any LoadBot) {
        items.append(bot)
    }

    mutating func popFirst() -> (any LoadBot)? {
        guard head < items.count else { return nil }
        let bot = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        }
        return bot
    }
}
