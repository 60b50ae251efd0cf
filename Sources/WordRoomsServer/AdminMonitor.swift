import JSON
import Rooms
import Runtime
import Synchronization
import Transport
import WebSocket

/// The operator dashboard's data: samples the server once a second into `MetricsTimeline` and pushes each sample,
/// with the room table, to every open admin WebSocket.
///
/// A sample reads counters only: the event loops' `TransportCounters` (each loop copies its own), the fan-out
/// histogram, `getrusage` and `/proc/self/statm`, and one walk of the registry's room dictionary. No connection is
/// looked at and no room is entered, so its cost does not grow with the connections. Each update is encoded once
/// and the same frame is queued to every admin socket.
final class AdminMonitor: Sendable {
    let token: AdminToken
    private let registry: RoomRegistry
    private let transport: TransportReference
    /// The registry's clock, for the rooms' ages.
    private let clock: @Sendable () -> Double
    private let state: Mutex<State>
    /// The monitor's own thread: its timer, and the encoding of each update, which at a few thousand rooms takes
    /// milliseconds that should not stall an event loop (the registry's thread is one).
    private let worker = ThreadExecutor(name: "admin")
    /// Seconds between samples.
    static let interval = 1.0

    private struct State: Sendable {
        var timeline: MetricsTimeline
        var previous: MetricsTimeline.Reading?
        var rates = AdminRoomRates()
        /// The rooms at the last sample, for the table of a socket that opens between samples.
        var entries: [RoomRegistry.AdminEntry] = []
        var watchers: [UInt64: ConnectionHandle] = [:]
        var running = false
        var timer: UInt64?
        /// A sample is on its way through the loops and the registry: the next tick skips rather than pile up.
        var sampling = false
    }

    init(token: AdminToken, registry: RoomRegistry, transport: TransportReference,
         clock: @escaping @Sendable () -> Double, capacity: Int = MetricsTimeline.defaultCapacity) {
        self.token = token
        self.registry = registry
        self.transport = transport
        self.clock = clock
        state = Mutex(State(timeline: MetricsTimeline(capacity: capacity)))
    }

    // MARK: Sampling

    /// Starts sampling, once a second until `stop()`.
    func start() {
        state.withLock { $0.running = true }
        scheduleNext()
    }

    /// Stops sampling and the monitor's thread.
    func stop() {
        let timer = state.withLock { state in
            state.running = false
            return state.timer
        }
        if let timer { worker.cancel(timer) }
        worker.stop()
    }

    private func scheduleNext() {
        // On the whole seconds of the monotonic clock, and before the sample is taken, so that a slow sample (loops
        // busy under load answer late) does not push every later one back.
        let now = MonotonicClock.seconds()
        let delay = max(0.05, (now / Self.interval).rounded(.down) * Self.interval + Self.interval - now)
        state.withLock { state in
            guard state.running else { return }
            state.timer = worker.schedule(after: delay) { [self] in self.sample() }
        }
    }

    /// Reads the loops' counters (each on its loop), then the rooms (on the registry's thread), then records the
    /// sample and pushes it on the monitor's thread.
    private func sample() {
        scheduleNext()
        guard let server = transport.server else { return }
        let busy = state.withLock { state in
            defer { state.sampling = true }
            return state.sampling
        }
        guard !busy else { return }
        let (registry, clock, worker) = (registry, clock, worker)
        server.group.withCounters { [self] counters in
            // Everything but the rooms is read here, as close to the counters as it gets: under load the hop to
            // the registry's thread can take a while, and the interval must be the counters' own.
            let reading = MetricsTimeline.Reading(
                monotonic: MonotonicClock.seconds(),
                wall: MetricsTimeline.rounded(MonotonicClock.wallSeconds(), places: 3), transport: counters,
                fanout: registry.fanout.snapshot, cpuSeconds: ProcessStats.cpuSeconds(),
                residentBytes: ProcessStats.residentBytes(), roomsByGame: [:], moves: 0)
            registry.withAdminEntries { [self] entries in
                worker.execute { [self] in
                    var counted = reading
                    counted.roomsByGame = Self.countByGame(entries)
                    record(counted, entries: entries, now: clock())
                    state.withLock { $0.sampling = false }
                }
            }
        }
    }

    /// Adds a reading: the sample since the previous one goes into the timeline and to every admin socket.
    func record(_ reading: MetricsTimeline.Reading, entries: [RoomRegistry.AdminEntry], now: Double) {
        let (sample, watchers, rows): (MetricsTimeline.Sample?, [ConnectionHandle], JSONValue?) = state.withLock { state in
            var reading = reading
            reading.moves = state.rates.update(entries)
            state.entries = entries
            defer { state.previous = reading }
            guard let previous = state.previous else { return (nil, [], nil) }
            let sample = MetricsTimeline.Sample.between(previous, reading)
            state.timeline.append(sample)
            guard !state.watchers.isEmpty else { return (sample, [], nil) }
            return (sample, Array(state.watchers.values), Self.table(entries, rates: state.rates, now: now))
        }
        guard let sample, let rows, !watchers.isEmpty else { return }
        let message: JSONValue = ["type": "sample", "sample": sample.json, "rooms": rows]
        ConnectionHandle.broadcast(frame: FrameEncoder.encode(.text, payload: JSONWriter().serialize(message)),
                                   to: watchers)
    }

    private static func countByGame(_ entries: [RoomRegistry.AdminEntry]) -> [GameKind: Int] {
        var counts: [GameKind: Int] = [:]
        for entry in entries { counts[entry.game, default: 0] += 1 }
        return counts
    }

    // MARK: What the page gets

    /// The room table's column names, in the order of each row's values.
    static let tableColumns = ["code", "game", "players", "spectators", "connected", "age", "movesPerMinute", "status",
                               "locked", "public"]

    /// `{"columns": [...], "rows": [[...], ...]}`, rows by room code: arrays rather than objects, as the table is
    /// sent every second.
    private static func table(_ entries: [RoomRegistry.AdminEntry], rates: AdminRoomRates, now: Double) -> JSONValue {
        let rows = entries.sorted { $0.code.rawValue < $1.code.rawValue }.map { entry -> JSONValue in
            [
                JSONValue(entry.code.rawValue), JSONValue(entry.game.rawValue), JSONValue(entry.players),
                JSONValue(entry.spectators), JSONValue(entry.connected), JSONValue(Int(max(0, now - entry.openedAt))),
                JSONValue(rates.movesPerMinute(entry.code)), JSONValue(entry.status), JSONValue(entry.locked),
                JSONValue(entry.isPublic),
            ]
        }
        return ["columns": .array(tableColumns.map { JSONValue($0) }), "rows": .array(rows)]
    }

    /// The room table as of the last sample.
    func roomTable() -> JSONValue {
        let now = clock()
        return state.withLock { Self.table($0.entries, rates: $0.rates, now: now) }
    }

    /// `{"type": "history", "interval": 1, "timeline": {...}, "rooms": {...}}`: what a socket gets first, and
    /// `GET /admin/api/timeline`.
    func historyJSON() -> [UInt8] {
        let now = clock()
        return state.withLock { Self.history($0, now: now) }
    }

    private static func history(_ state: State, now: Double) -> [UInt8] {
        JSONWriter().serialize([
            "type": "history", "interval": JSONValue(interval), "timeline": state.timeline.json,
            "rooms": table(state.entries, rates: state.rates, now: now),
        ])
    }

    /// Sends the history to a new admin socket and adds it to those that get every update (on its loop thread).
    func watch(_ connection: Connection) {
        let now = clock()
        let history = state.withLock { state in
            state.watchers[connection.handle.id] = connection.handle
            return Self.history(state, now: now)
        }
        // Sent on the loop now, before any update the timer queues to this loop after the lock was let go.
        connection.send(frame: FrameEncoder.encode(.text, payload: history))
    }

    func unwatch(_ id: UInt64) {
        state.withLock { _ = $0.watchers.removeValue(forKey: id) }
    }

    var watcherCount: Int { state.withLock { $0.watchers.count } }

    /// Samples kept so far (tests).
    var sampleCount: Int { state.withLock { $0.timeline.count } }
}
