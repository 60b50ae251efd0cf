import Synchronization
import Runtime

/// The avalanche bots of one event loop, with what they count: creates them by room, ramps their connections up
/// (each room's creator first, its players once the room's code is known), drops them all at once, has them
/// check their state at the end, and sums up.
///
/// Created on the driver thread, then used only on its worker's loop thread (reached through `EventLoop.execute`,
/// like `LoopWorker`), hence `@unchecked Sendable`; the one exception is `tickPending`, an atomic.
final class AvalancheCrew: @unchecked Sendable {
    let worker: LoopWorker
    let backoff: AvalancheBackoff
    /// Counted as things happen (resumes, attempts, verdicts); `summary()` adds what is read off the bots.
    var figures = AvalancheFigures()
    /// A tick is queued in the loop's mailbox (see `LoopWorker.tickPending`).
    let tickPending = Atomic<Bool>(false)

    private var bots: [AvalancheBot] = []
    /// Bots waiting for their turn to connect: creators, then the players of rooms whose code is known.
    private var creators: [AvalancheBot] = []
    private var joiners: [AvalancheBot] = []
    private var rampStartedAt: UInt64?
    private var rampStarted = 0
    private let rampPerNanosecond: Double
    /// The earliest loss of a connection since the bots were seated.
    private(set) var firstLossAt: UInt64?
    /// The latest resume (monotonic nanoseconds).
    private(set) var lastBackAt: UInt64?
    /// Verdicts still awaited from `verifyAll`.
    private(set) var checksPending = 0
    /// The versions of each room's state its bots hold, by room index.
    var pools: [Int: AvalancheReplicaPool] = [:]

    init(worker: LoopWorker, backoff: AvalancheBackoff, loops: Int) {
        self.worker = worker
        self.backoff = backoff
        self.rampPerNanosecond = worker.context.options.ramp / Double(loops) / 1e9
    }

    /// What the driver watches, read on the loop thread.
    struct Progress: Sendable {
        var bots = 0
        var seated = 0
        var inSeat = 0
        var lost = 0
        var away = 0
        var refused = 0
        /// Bots still on their way into their rooms (neither seated nor out of the run).
        var entering = 0
        var firstLossAt: UInt64?
        var lastBackAt: UInt64?
        var checksPending = 0

        mutating func merge(_ other: Progress) {
            bots += other.bots
            seated += other.seated
            inSeat += other.inSeat
            lost += other.lost
            away += other.away
            refused += other.refused
            entering += other.entering
            firstLossAt = [firstLossAt, other.firstLossAt].compactMap { $0 }.min()
            lastBackAt = [lastBackAt, other.lastBackAt].compactMap { $0 }.max()
            checksPending += other.checksPending
        }
    }

    // MARK: On the loop thread

    /// Creates the bots of `rooms`: `--players` each, the first of them the room's creator.
    func setUp(rooms: [Int]) {
        let options = worker.context.options
        for index in rooms {
            let room = RoomPlan(index: index, game: options.game(ofRoom: index), plannedPlayers: options.players)
            let creator = AvalancheBot(worker: worker, crew: self, room: room, name: "bot\(index)-host", creates: true)
            bots.append(creator)
            creators.append(creator)
            for seat in 1..<options.players {
                let bot = AvalancheBot(worker: worker, crew: self, room: room, name: "bot\(index)-p\(seat)",
                                       creates: false)
                bots.append(bot)
                room.joiners.append(bot)
            }
        }
        figures.bots = bots.count
    }

    /// A creator was welcomed: its room's players may connect.
    func roomReady(_ room: RoomPlan) {
        for case let bot as AvalancheBot in room.joiners { joiners.append(bot) }
    }

    /// Starts the connections the ramp allows (`--ramp` per second, this loop's share).
    func tick() {
        tickPending.store(false, ordering: .releasing)
        guard worker.running else { return }
        let now = MonotonicClock.nanoseconds()
        let startedAt = rampStartedAt ?? now
        rampStartedAt = startedAt
        var allowed = Int(Double(now - startedAt) * rampPerNanosecond) + 1 - rampStarted
        while allowed > 0, let bot = joiners.popLast() ?? creators.popLast() {
            allowed -= 1
            rampStarted += 1
            bot.start()
        }
    }

    /// `--drop clients`: every seated bot drops its connection now.
    func dropAll() {
        let now = MonotonicClock.nanoseconds()
        for bot in bots { bot.drop(now: now) }
    }

    /// A bot lost its connection at `at`.
    func lost(at: UInt64) {
        if firstLossAt == nil || at < firstLossAt! { firstLossAt = at }
    }

    /// Every bot in its seat asks for a snapshot to compare its state with.
    func verifyAll() {
        for bot in bots where bot.verify() { checksPending += 1 }
    }

    /// A bot's final check came back.
    func checked(_ bot: AvalancheBot, matched: Bool) {
        checksPending -= 1
        if matched { figures.verified += 1 } else { figures.mismatched += 1 }
        figures.rooms.record(room: bot.room.index, matched: matched)
    }

    /// Closes every connection normally.
    func finishAll() {
        for bot in bots { bot.finish() }
    }

    var progress: Progress {
        var progress = Progress()
        progress.bots = bots.count
        for bot in bots {
            if bot.seated { progress.seated += 1 }
            if bot.inSeat { progress.inSeat += 1 }
            if bot.everLost { progress.lost += 1 }
            if bot.lostAt != nil { progress.away += 1 }
            if bot.refused { progress.refused += 1 }
            if !bot.seated, bot.phase != .finished { progress.entering += 1 }
        }
        progress.firstLossAt = firstLossAt
        progress.lastBackAt = lastBackAt
        progress.checksPending = checksPending
        return progress
    }

    /// The figures with what is read off the bots at the end: who was seated, lost, back, refused.
    func summary() -> AvalancheFigures {
        var result = figures
        for bot in bots {
            if bot.seated { result.seated += 1 }
            if bot.everLost { result.lost += 1 }
            if bot.everLost, bot.lostAt == nil, !bot.refused { result.back += 1 }
            if bot.refused { result.refused += 1 }
        }
        return result
    }

    /// A bot resumed its seat (for the storm's end time).
    func back(at: UInt64) {
        if lastBackAt == nil || at > lastBackAt! { lastBackAt = at }
    }
}
