import Synchronization
import Transport
import Runtime

/// Runs the reconnect storm (`wordrooms-bots avalanche`) from start to report:
///
/// 1. ramps `--rooms` x `--players` bots into their rooms, where they play as in `play`;
/// 2. `--drop-after` seconds into the run, `--drop clients` has every bot drop its connection at once;
///    `--drop server` waits from then on for the server to go away (a restart under the bots);
/// 3. every bot whose connection ended reconnects with `AvalancheBackoff` and resumes its seat with its token
///    and seq, until all are back or `--give-up` seconds after the first loss;
/// 4. the bots play on for a second, stop moving, and each compares its replica of its room with a fresh
///    snapshot (`resync`); a room is exact when every bot of it matched.
///
/// Like `LoadTest.run`, `run` blocks its thread for the whole run: call it from a thread of its own.
public enum AvalancheRun {
    /// How long the bots play on once everyone is back, before the check: resumed rooms must keep working.
    static let settleNanoseconds: UInt64 = 1_000_000_000
    /// How long the check waits for its snapshots.
    static let checkWaitNanoseconds: UInt64 = 15_000_000_000
    /// How often the driver looks at the bots' progress.
    static let watchNanoseconds: UInt64 = 50_000_000

    /// Runs the storm.
    ///
    /// - Parameters:
    ///   - options: The run's options (`scenario` is `.avalanche`).
    ///   - log: Receives the start line and progress lines (unless `options.quiet`; the storm's milestones
    ///     always).
    /// - Returns: The storm's figures.
    /// - Throws: `LoadTest.StartError` if the event loops or the word lists cannot be set up.
    public static func run(_ options: BotOptions,
                           log: @escaping (String) -> Void) throws(LoadTest.StartError) -> AvalancheReport {
        let fileLimit = OpenFileLimit.raiseToHardLimit()
        let lists = try LoadTest.loadWordLists(for: options)
        let rate = options.effectiveRate ?? 1
        let context = RunContext(options: options, lists: lists,
                                 moveInterval: UInt64(max(1, (1e9 / rate).rounded())))
        log(LoadTest.startLine(options, fileLimit: fileLimit)
            + "; drop: \(options.dropMode.rawValue) after \(formatNumber(options.dropAfter)) s, give up after \(formatNumber(options.giveUp)) s")
        if options.plannedConnections + 32 > fileLimit {
            log("warning: \(options.plannedConnections) connections need as many descriptors; the limit is \(fileLimit)")
        }
        let group: EventLoopGroup
        do {
            var configuration = LoadTest.clientConfiguration
            configuration.pollMicroseconds = options.pollMicroseconds
            group = try EventLoopGroup(clientThreads: options.threads, configuration: configuration)
        } catch {
            throw LoadTest.StartError(description: "cannot create \(options.threads) event loops: \(error)")
        }
        let workers = group.loops.enumerated().map { index, loop in
            LoopWorker(index: index, loop: loop, context: context, loops: group.loops.count)
        }
        let crews = workers.map { AvalancheCrew(worker: $0, backoff: AvalancheBackoff(), loops: workers.count) }
        for worker in workers { worker.loop.add(worker) }
        group.start()
        defer {
            // As in `LoadTest`: the bots hear of the shutdown's closes, so they and their crews must outlive it.
            group.shutdown()
            withExtendedLifetime((workers, crews)) {}
        }
        let startedAt = MonotonicClock.nanoseconds()
        let wallStartedAt = MonotonicClock.wallSeconds()
        onEveryCrew(crews) { crew in
            crew.setUp(rooms: Array(stride(from: crew.worker.index, to: options.rooms, by: crews.count)))
        }

        var storm = AvalancheStorm(mode: options.dropMode, dropAt: startedAt + UInt64(options.dropAfter * 1e9),
                                   giveUpNanoseconds: UInt64(options.giveUp * 1e9))
        var nextProgress = startedAt + 1_000_000_000
        var nextWatch = startedAt
        while true {
            tick(crews)
            MonotonicClock.sleep(nanoseconds: LoadTest.tickNanoseconds)
            let now = MonotonicClock.nanoseconds()
            guard now >= nextWatch else { continue }
            nextWatch = now + watchNanoseconds
            let progress = self.progress(crews)
            if !options.quiet, now >= nextProgress {
                log(progressLine(progress, seconds: Double(now - startedAt) / 1e9))
                nextProgress += 1_000_000_000
            }
            switch storm.next(progress, now: now) {
            case .wait:
                continue
            case .drop:
                log("avalanche: \(progress.seated) of \(progress.bots) bots seated; dropping every connection")
                onEveryCrew(crews) { $0.dropAll() }
                continue
            case .awaitServer:
                log("avalanche: \(progress.seated) of \(progress.bots) bots seated; waiting for the server to go away")
                continue
            case .stormBegan:
                log("avalanche: connections lost; reconnecting")
                continue
            case .allBack:
                log("avalanche: storm over: \(progress.lost - progress.away) of \(progress.lost) lost bots back, \(progress.refused) refused")
            case .gaveUp(let reason):
                log("avalanche: \(reason)")
            }
            break
        }

        // Play on for a moment, then stop moving, let replies come in, and check every bot against a snapshot.
        let settleEnd = MonotonicClock.nanoseconds() + settleNanoseconds
        while MonotonicClock.nanoseconds() < settleEnd {
            MonotonicClock.sleep(nanoseconds: LoadTest.tickNanoseconds)
        }
        LoadTest.onEveryLoop(workers) { $0.stop() }
        let graceEnd = MonotonicClock.nanoseconds() + UInt64(options.grace * 1e9)
        while MonotonicClock.nanoseconds() < graceEnd,
              LoadTest.onEveryLoop(workers, { $0.repliesOutstanding }).reduce(0, +) > 0 {
            MonotonicClock.sleep(nanoseconds: LoadTest.tickNanoseconds)
        }
        onEveryCrew(crews) { $0.verifyAll() }
        let checkEnd = MonotonicClock.nanoseconds() + checkWaitNanoseconds
        var unanswered = progress(crews).checksPending
        while unanswered > 0, MonotonicClock.nanoseconds() < checkEnd {
            MonotonicClock.sleep(nanoseconds: watchNanoseconds)
            unanswered = progress(crews).checksPending
        }
        let final = progress(crews)
        var figures = AvalancheFigures()
        for part in onEveryCrew(crews, { $0.summary() }) { figures.merge(part) }
        let stats = LoadTest.merged(workers)

        onEveryCrew(crews) { $0.finishAll() }
        let closeEnd = MonotonicClock.nanoseconds() + LoadTest.closeWaitNanoseconds
        while MonotonicClock.nanoseconds() < closeEnd,
              LoadTest.onEveryLoop(workers, { $0.stats.openConnections }).reduce(0, +) > 0 {
            MonotonicClock.sleep(nanoseconds: LoadTest.tickNanoseconds)
        }
        let firstLoss = final.firstLossAt
        return AvalancheReport(
            options: options, fileLimit: fileLimit, startedAt: wallStartedAt, figures: figures, stats: stats,
            firstLossSeconds: firstLoss.map { Double($0 - startedAt) / 1e9 },
            stormSeconds: firstLoss.flatMap { first in final.lastBackAt.map { Double($0 > first ? $0 - first : 0) / 1e9 } },
            checksUnanswered: unanswered)
    }

    static func progressLine(_ progress: AvalancheCrew.Progress, seconds: Double) -> String {
        "[\(pad(String(Int(seconds.rounded())), 4))s] bots \(progress.bots)  seated \(progress.seated)  "
            + "in seat \(progress.inSeat)  lost \(progress.lost)  away \(progress.away)  refused \(progress.refused)"
    }

    private static func tick(_ crews: [AvalancheCrew]) {
        for crew in crews where !crew.tickPending.exchange(true, ordering: .acquiring) {
            crew.worker.loop.execute { _ in crew.tick() }
        }
    }

    private static func progress(_ crews: [AvalancheCrew]) -> AvalancheCrew.Progress {
        var total = AvalancheCrew.Progress()
        for part in onEveryCrew(crews, { $0.progress }) { total.merge(part) }
        return total
    }

    /// Runs `body` on every crew's loop thread and returns the results in crew order.
    @discardableResult
    private static func onEveryCrew<T: Sendable>(_ crews: [AvalancheCrew],
                                                 _ body: @escaping @Sendable (AvalancheCrew) -> T) -> [T] {
        let results = LoadTest.onEveryLoop(crews.map(\.worker)) { worker in
            body(crews[worker.index])
        }
        return results
    }
}
