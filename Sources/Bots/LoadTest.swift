import Dispatch
import Synchronization
import Transport
import WordGames
import Runtime

/// Runs one scenario from start to report: ramps connections up, drives the loops' timers, prints a progress
/// line a second, stops, waits for replies in flight, closes, and merges what every loop counted.
///
/// `run` blocks its thread for the whole run (it is the driver: it sleeps between ticks); call it from a thread
/// of its own, never from Swift's cooperative pool, whose threads the transport's tasks may need.
public enum LoadTest {
    /// Why a run could not start.
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// How often the driver runs the loops' ramp and fixed-rate echoes.
    static let tickNanoseconds: UInt64 = 5_000_000
    /// How long the end of the run waits for connections to finish closing.
    static let closeWaitNanoseconds: UInt64 = 3_000_000_000

    /// Runs `options.scenario` to the end.
    ///
    /// - Parameters:
    ///   - options: What to run.
    ///   - log: Receives the start line and one progress line a second (unless `options.quiet`).
    /// - Returns: The merged figures of the run.
    /// - Throws: `StartError` if the event loops or the word lists cannot be set up.
    public static func run(_ options: BotOptions, log: @escaping (String) -> Void) throws(StartError) -> BotReport {
        let fileLimit = OpenFileLimit.raiseToHardLimit()
        let lists = try loadWordLists(for: options)
        let rate = options.effectiveRate ?? 1
        let context = RunContext(options: options, lists: lists,
                                 moveInterval: UInt64(max(1, (1e9 / rate).rounded())))
        log(startLine(options, fileLimit: fileLimit))
        if options.plannedConnections + 32 > fileLimit {
            log("warning: \(options.plannedConnections) connections need as many descriptors; the limit is \(fileLimit)")
        }

        let sampler = ServerSampler(host: options.url.host, port: options.url.port, pid: options.serverPID)
        let serverStart = sampler.sample()
        let group: EventLoopGroup
        do {
            var configuration = clientConfiguration
            configuration.pollMicroseconds = options.pollMicroseconds
            configuration.timesReads = true
            group = try EventLoopGroup(clientThreads: options.threads, configuration: configuration)
        } catch {
            throw StartError(description: "cannot create \(options.threads) event loops: \(error)")
        }
        let workers = group.loops.enumerated().map { index, loop in
            LoopWorker(index: index, loop: loop, context: context, loops: group.loops.count)
        }
        for worker in workers { worker.loop.add(worker) }
        group.start()
        defer {
            // Shutting down closes what is still open, and the bots hear of it: they and their workers (which
            // they reach through unowned references) must outlive the loops.
            group.shutdown()
            withExtendedLifetime(workers) {}
        }
        let cpuStart = ProcessUsage.cpuTime()
        let startedAt = MonotonicClock.nanoseconds()
        let wallStartedAt = MonotonicClock.wallSeconds()
        let timingFrom = startedAt + UInt64(options.warmup * 1e9)
        onEveryLoop(workers) { $0.timingFrom = timingFrom }
        let timeline = BotTimelineRecorder(
            startedAt: startedAt, plannedSeconds: options.duration + options.grace + Double(closeWaitNanoseconds) / 1e9,
            sampler: sampler, serverStart: serverStart, cpuStart: cpuStart, snapshot: { snapshot(workers, group) })
        setUp(workers, options: options)

        // Drive the run: ticks every few milliseconds, a progress line every second.
        let end = startedAt + UInt64(options.duration * 1e9)
        var previous = BotStats()
        var nextProgress = startedAt + 1_000_000_000
        var now = startedAt
        while now < end {
            tick(workers)
            MonotonicClock.sleep(nanoseconds: tickNanoseconds)
            now = MonotonicClock.nanoseconds()
            if now >= nextProgress {
                timeline.record(at: now)
                let current = merged(workers)
                if !options.quiet {
                    log(progressLine(current, previous: previous, seconds: Double(now - startedAt) / 1e9,
                                     options: options))
                }
                previous = current
                nextProgress += 1_000_000_000
            }
        }
        let stoppedAt = MonotonicClock.nanoseconds()
        onEveryLoop(workers) { $0.stop() }

        // Replies in flight still count; wait for them within the grace period.
        let graceEnd = stoppedAt + UInt64(options.grace * 1e9)
        while MonotonicClock.nanoseconds() < graceEnd,
              onEveryLoop(workers, { $0.repliesOutstanding }).reduce(0, +) > 0 {
            tick(workers)
            MonotonicClock.sleep(nanoseconds: tickNanoseconds)
            timeline.record(at: MonotonicClock.nanoseconds())
        }
        let drainedAt = MonotonicClock.nanoseconds()
        let serverEnd = sampler.sample()
        let cpuEnd = ProcessUsage.cpuTime()

        onEveryLoop(workers) { $0.finishAll() }
        let closeEnd = MonotonicClock.nanoseconds() + closeWaitNanoseconds
        while MonotonicClock.nanoseconds() < closeEnd,
              onEveryLoop(workers, { $0.stats.openConnections }).reduce(0, +) > 0 {
            MonotonicClock.sleep(nanoseconds: tickNanoseconds)
        }
        let stats = merged(workers)
        let transport = transportCounters(group)
        let finishedTimeline = timeline.finish(at: MonotonicClock.nanoseconds())

        return BotReport(
            options: options, fileLimit: fileLimit, startedAt: wallStartedAt,
            runSeconds: Double(stoppedAt - startedAt) / 1e9, drainSeconds: Double(drainedAt - stoppedAt) / 1e9,
            stats: stats, transport: transport, serverStart: serverStart, serverEnd: serverEnd,
            botCPU: cpuEnd.since(cpuStart),
            botCPUWallSeconds: Double(drainedAt - startedAt) / 1e9, timeline: finishedTimeline)
    }

    /// The bots' event loops: the server pings connections that stay silent and the bots' WebSocket sessions
    /// answer, so the loops send no keepalive pings of their own. (They would go out unmasked: the transport's
    /// sweep queues the server's ping frame on client connections too, and a server must close a connection
    /// that sends an unmasked frame, RFC 6455 §5.1, with 1002.)
    static var clientConfiguration: TransportConfiguration {
        var configuration = TransportConfiguration()
        configuration.pingIntervalSeconds = 365 * 86_400
        return configuration
    }

    /// The bundled word lists if a game of the run uses them (`GameBot.usesWordLists`), else nil: the bots of
    /// other games run without the lists beside them.
    static func loadWordLists(for options: BotOptions) throws(StartError) -> WordLists? {
        guard [.play, .churn, .avalanche].contains(options.scenario),
              options.gamesPlayed.contains(where: { $0.usesWordLists }) else { return nil }
        do {
            return try WordLists.bundled()
        } catch {
            throw StartError(description: "cannot load the word lists: \(error)")
        }
    }

    /// Gives each loop its rooms (round robin) or its share of the connections, and waits until they are set up.
    private static func setUp(_ workers: [LoopWorker], options: BotOptions) {
        let count = workers.count
        switch options.scenario {
        case .play, .churn, .avalanche:
            onEveryLoop(workers) { worker in
                worker.setUp(rooms: Array(stride(from: worker.index, to: options.rooms, by: count)))
            }
        case .fanout:
            onEveryLoop(workers) { worker in
                worker.setUp(fanoutRooms: Array(stride(from: worker.index, to: options.fanoutRooms, by: count)))
            }
        case .idle, .echo:
            onEveryLoop(workers) { worker in
                worker.setUp(connections: options.connections / count
                                 + (worker.index < options.connections % count ? 1 : 0))
            }
        }
    }

    private static func tick(_ workers: [LoopWorker]) {
        for worker in workers where !worker.tickPending.exchange(true, ordering: .acquiring) {
            worker.loop.execute { _ in worker.tick() }
        }
    }

    /// Runs `body` on every worker's loop thread and returns the results in worker order.
    @discardableResult
    static func onEveryLoop<T: Sendable>(_ workers: [LoopWorker],
                                         _ body: @escaping @Sendable (LoopWorker) -> T) -> [T] {
        let results = Mutex<[Int: T]>([:])
        let done = DispatchSemaphore(value: 0)
        for worker in workers {
            worker.loop.execute { _ in
                let result = body(worker)
                results.withLock { $0[worker.index] = result }
                done.signal()
            }
        }
        for _ in workers { done.wait() }
        return results.withLock { all in workers.map { all[$0.index]! } }
    }

    static func merged(_ workers: [LoopWorker]) -> BotStats {
        var total = BotStats()
        for stats in onEveryLoop(workers, { $0.stats }) { total.merge(stats) }
        return total
    }

    /// The transport's own counts (frames and bytes on the wire), summed over the loops.
    private static func transportCounters(_ group: EventLoopGroup) -> TransportCounters {
        let result = Mutex<TransportCounters?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let counters = await group.counters()
            result.withLock { $0 = counters }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }

    /// The merged counts and the transport's byte counts, for the timeline. The transport's are asked for
    /// first: on each loop the two readings are then queued one after the other, and are of the same moment.
    private static func snapshot(_ workers: [LoopWorker],
                                 _ group: EventLoopGroup) -> (BotStats, BotTimelineRecorder.WireBytes) {
        let wire = Mutex(BotTimelineRecorder.WireBytes())
        let done = DispatchSemaphore(value: 0)
        group.withCounters { counters in
            wire.withLock { $0 = .init(bytesIn: counters.bytesIn, bytesOut: counters.bytesOut) }
            done.signal()
        }
        let stats = merged(workers)
        done.wait()
        return (stats, wire.withLock { $0 })
    }

    static func startLine(_ options: BotOptions, fileLimit: Int) -> String {
        var line = "wordrooms-bots \(options.scenario.rawValue) against \(options.url.hostHeader)\(options.path): "
        switch options.scenario {
        case .play, .churn, .avalanche:
            line += "\(options.rooms) rooms x \(options.players) players"
            if options.scenario == .churn { line += " + \(options.churners) churners" }
            if options.spectators > 0 { line += " + \(options.spectators) spectators" }
            line += ", \(options.game.rawValue), \(formatNumber(options.effectiveRate ?? 1)) moves/s per bot"
        case .echo:
            line += "\(options.connections) connections x \(options.depth) in flight x \(options.size) bytes"
            if let rate = options.effectiveRate { line += ", \(formatNumber(rate)) msg/s per connection" }
        case .idle:
            line += "\(options.connections) idle connections"
        case .fanout:
            line += "\(options.connections) clients in rooms of \(options.roomSize) on \(options.path)/NAME, "
                + "\(options.size) bytes x \(formatNumber(options.effectiveRate ?? 1)) msg/s per client"
        }
        if options.deflate { line += ", permessage-deflate offered" }
        line += ", \(formatNumber(options.duration)) s, ramp \(formatNumber(options.ramp))/s, \(options.threads) threads, open-files limit \(fileLimit)"
        return line
    }

    static func progressLine(_ stats: BotStats, previous: BotStats, seconds: Double, options: BotOptions) -> String {
        let errors = stats.protocolErrorCount + stats.unexpectedCloseCount + stats.connectFailureCount
        var line = "[\(pad(String(Int(seconds.rounded())), 4))s] open \(stats.openConnections)"
        if options.scenario == .play || options.scenario == .churn {
            line += "  rooms \(stats.roomsCreated)"
        }
        line += "  in \(stats.messagesIn - previous.messagesIn)/s  out \(stats.messagesOut - previous.messagesOut)/s"
        switch options.scenario {
        case .play, .avalanche:
            line += "  moves \(stats.moves - previous.moves)/s  move->patch p99 \(formatMicroseconds(stats.moveToPatch.value(atPercentile: 99)))"
        case .churn:
            line += "  resumes \(stats.resumes) verified \(stats.resumesVerified)  move->patch p99 \(formatMicroseconds(stats.moveToPatch.value(atPercentile: 99)))"
        case .echo:
            line += "  rtt p99 \(formatMicroseconds(stats.echoRoundTrip.value(atPercentile: 99)))"
        case .idle:
            line += "  connect p99 \(formatMicroseconds(stats.connectLatency.value(atPercentile: 99)))"
        case .fanout:
            line += "  sent \(stats.fanoutSent - previous.fanoutSent)/s  own p99 \(formatMicroseconds(stats.fanoutRoundTrip.value(atPercentile: 99)))"
        }
        line += "  errors \(errors)"
        return line
    }
}
