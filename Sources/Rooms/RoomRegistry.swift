#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import JSON
import Synchronization
import WordGames
import Runtime

/// Creates, finds and disposes of rooms, and keeps the public lobby list.
///
/// Like the rooms, it runs on a `ThreadExecutor` thread, and offers callback entry points so that connection
/// threads never wait on Swift's cooperative pool to enter a room.
public actor RoomRegistry {
    public nonisolated let executors: ThreadExecutorPool
    public nonisolated let shard: Int?
    /// Saves rooms in the data directory, when there is one.
    public nonisolated let journal: RoomJournal?
    public nonisolated let executor: ThreadExecutor

    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    public let configuration: RoomConfiguration
    private let lists: WordLists
    let clock: @Sendable () -> Double
    /// The timers of the registry and its rooms; nil for each one's own executor (tests pass a manual clock's).
    let timers: (any TimerScheduler)?
    /// Makes each room's audience (the server's broadcast group); nil: each link is sent every patch itself.
    private let audiences: (@Sendable () -> any RoomAudience)?
    /// The generator of a registry given a seed (tests replaying a run); nil draws codes and seeds from
    /// `SecureRandom`, so that codes handed out do not tell the codes to come (see `SecureRandom`).
    private var seeded: SplitMix64?
    var rooms: [RoomCode: Room] = [:]
    /// Who created each room that counts against a client address (see `RoomConfiguration.maxRoomsPerAddress`).
    private var roomOwners: [RoomCode: String] = [:]
    /// Rooms alive per client address, from `roomOwners`.
    private var roomsByAddress: [String: Int] = [:]
    /// Rooms restored at start that nobody has needed yet (see `restoreSavedRooms`).
    var dormant: [RoomCode: DormantRoom] = [:]
    private var wakingScheduled = false
    /// When the dormant rooms were read (the registry's clock), their age on the dashboard.
    var restoredAt = 0.0
    /// Where rooms that cannot be woken are reported (given to `restoreSavedRooms`).
    private var restoreLog: (@Sendable (String) -> Void)?
    var summaries: [RoomCode: RoomSummary] = [:]
    /// The lobby's subscribers and the pages they follow (see `RoomRegistry+Lobby.swift`).
    var lobbySubscribers: [UInt64: any ClientLink] = [:]
    var lobby = LobbyFeed()
    var lobbyBroadcastPending = false
    /// Requests for the lobby's listing waiting for the next rebuild (see `withLobbyListing`).
    var lobbyListingWaiters: [@Sendable (LobbyListing) -> Void] = []
    /// The newest listing while no room changed since, readable from any thread: `GET /api/rooms` is answered
    /// from it on the connection's own loop.
    nonisolated let publishedLobby = Mutex<LobbyListing?>(nil)
    /// Rooms created since start, for metrics.
    public private(set) var roomsCreated = 0
    /// Message-to-patch fan-out latency of every room.
    public nonisolated let fanout = LatencyHistogram()

    /// - Parameters:
    ///   - seed: seeds room codes and game randomness (tests pass one to reproduce a run); nil draws each code
    ///     and seed from the system's secure source (`SecureRandom`). Private rooms' keys always come from it.
    ///   - executors: the threads rooms run on; the registry runs on the first.
    ///   - shard: this instance's shard, written into every room code it creates.
    ///   - clock: the time rooms read (seconds since 1970 by default).
    ///   - timers: what wakes rooms for their deadlines and the registry for lobby updates; by default the
    ///     executor each runs on. Tests pass `ManualTimers`, whose time also drives `clock`, to move time by hand.
    ///   - audiences: makes a room's `RoomAudience`, on its first publish.
    public init(lists: WordLists, configuration: RoomConfiguration = RoomConfiguration(), seed: UInt64? = nil,
                shard: Int? = nil, executors: ThreadExecutorPool = ThreadExecutorPool(threads: 1),
                journal: RoomJournal? = nil,
                clock: @escaping @Sendable () -> Double = RoomRegistry.wallClock,
                timers: (any TimerScheduler)? = nil,
                audiences: (@Sendable () -> any RoomAudience)? = nil) {
        self.audiences = audiences
        self.executors = executors
        self.executor = executors.executors[0]
        self.shard = shard
        self.journal = journal
        self.lists = lists
        self.configuration = configuration
        self.clock = clock
        self.seeded = seed.map { SplitMix64(seed: $0) }
        self.timers = timers
        // The patch dictionary is derived from the games' sample plays (tens of milliseconds): here, at start-up,
        // rather than on the first room's first patch.
        _ = PatchPacking.dictionary.count
    }

    /// Seconds since 1970: deadlines on the wire are wall-clock times clients can count down to.
    public static let wallClock: @Sendable () -> Double = { MonotonicClock.wallSeconds() }

    /// Creates a room and queues its creator's join (the creator becomes host). A private room gets a fresh
    /// `RoomKey`, without which its code names no room.
    public func create(_ kind: GameKind, isPublic: Bool, settings: JSONObject, creator: any ClientLink,
                       name: String, client: ClientID? = nil) throws(RoomError) -> Room {
        guard rooms.count + dormant.count < configuration.maxRooms else {
            throw RoomError(.serverFull(maxRooms: configuration.maxRooms), move: "create")
        }
        let owner = creator.address
        if let owner, roomsByAddress[owner, default: 0] >= configuration.maxRoomsPerAddress {
            throw RoomError(.tooManyRoomsFromAddress(limit: configuration.maxRoomsPerAddress), move: "create")
        }
        _ = try NameRules.cleanRefusing("create", name)
        let code = freeCode()
        let game: any RoomGame
        if seeded != nil {
            game = try GameRegistry.make(kind, settings: settings, lists: lists, now: clock(), using: &seeded!)
        } else {
            // The first secret word is drawn from a generator seeded by the system: nobody can replay its choice.
            var first = SplitMix64(seed: nextSeed())
            game = try GameRegistry.make(kind, settings: settings, lists: lists, now: clock(), using: &first)
        }
        let room = open(game, code: code, isPublic: isPublic)
        if let owner {
            roomOwners[code] = owner
            roomsByAddress[owner, default: 0] += 1
        }
        room.join(creator, name: name, token: nil, lastSeq: nil, spectator: false, client: client)
        return room
    }

    /// Opens a room of `game` with nobody in it yet (the first player to join hosts it). Every `create` opens
    /// its room here; tests open rooms of games that `GameCatalog` does not list.
    func open(_ game: any RoomGame, code: RoomCode? = nil, isPublic: Bool) -> Room {
        let code = code ?? freeCode()
        let room = Room(code: code, game: game, isPublic: isPublic, key: isPublic || !configuration.privateRoomKeys ? nil : RoomKey.random(),
                        lists: lists, configuration: configuration,
                        registry: self, executor: executors.next(), timers: timers, seed: nextSeed(), clock: clock,
                        fanout: fanout, journal: journal, audiences: audiences)
        rooms[code] = room
        roomsCreated += 1
        return room
    }

    /// A code no room, running or dormant, has.
    private func freeCode() -> RoomCode {
        var code = nextCode()
        while rooms[code] != nil || dormant[code] != nil {
            code = nextCode()
        }
        return code
    }

    /// The room with `code`, if it exists.
    public func room(_ code: RoomCode) -> Room? {
        rooms[code] ?? wake(code)
    }

    /// The room with `code` if `key` opens it: any public room, a private one only with its key. A private
    /// room asked for without its key is not there, exactly as a code nobody uses (no oracle for guessers).
    public func room(_ code: RoomCode, key: RoomKey?) -> Room? {
        guard let room = room(code), room.admits(key) else { return nil }
        return room
    }

    /// A new room code: from `SecureRandom`, or the seeded generator of a test.
    private func nextCode() -> RoomCode {
        if seeded != nil { return RoomCode.random(shard: shard, using: &seeded!) }
        var secure = SecureRandom()
        return RoomCode.random(shard: shard, using: &secure)
    }

    /// A new room's seed (its later secret words): from `SecureRandom`, or the seeded generator of a test.
    private func nextSeed() -> UInt64 {
        if seeded != nil { return seeded!.next() }
        var secure = SecureRandom()
        return secure.next()
    }

    /// Brings back the rooms saved in the journal (at start, before any client is served).
    ///
    /// Only each room's newest record is picked here; a room runs again when it is first needed (`wake`): a
    /// player resuming into it, a `peek`, the dashboard. After a restart under load the players' resumes come
    /// at once, and restoring every room before serving any of them (1,250-2,500 rooms after `kill -9`: 0.7-0.9
    /// s of parsing records and rebuilding states) was most of the time they waited. Rooms nobody comes back to
    /// are woken a few at a time from `dormantWakeDelay` after the start (`wakeSome`), so that they are listed
    /// and expire like any room.
    ///
    /// - Returns: how many rooms were found; a room whose record cannot be read when it wakes is logged (with
    ///   `log`) and left out then.
    public func restoreSavedRooms(log: @escaping @Sendable (String) -> Void) async -> Int {
        guard let journal else { return 0 }
        restoreLog = log
        restoredAt = clock()
        for saved in journal.loadForRestore() {
            guard let code = RoomCode(saved.code) else {
                log("room \(saved.code) was not restored: not a room code")
                continue
            }
            guard rooms[code] == nil else { continue }
            dormant[code] = saved
        }
        scheduleWaking(after: Self.dormantWakeDelay)
        return dormant.count
    }

    /// How long after the start rooms nobody came back to begin to wake, and how many wake every
    /// `dormantWakeInterval`: late enough to leave the reconnect storm the event loops, slow enough (8 rooms in
    /// 50 ms, about 160 a second) never to hold up a move for long.
    static let dormantWakeDelay = 3.0
    static let dormantWakeInterval = 0.05
    static let dormantWakeBatch = 8

    private func scheduleWaking(after seconds: Double) {
        guard !dormant.isEmpty, !wakingScheduled else { return }
        wakingScheduled = true
        (timers ?? executor).schedule(after: seconds) { [weak self] in
            self?.enqueue { registry in
                registry.wakingScheduled = false
                registry.wakeSome()
            }
        }
    }

    private func wakeSome() {
        for code in Array(dormant.keys.prefix(Self.dormantWakeBatch)) {
            _ = wake(code)
        }
        scheduleWaking(after: Self.dormantWakeInterval)
    }

    /// Runs the dormant room `code`: parses its record, rebuilds the game, and queues the room's restore on its
    /// executor ahead of anything a caller queues after this returns (a join, a peek).
    ///
    /// - Returns: the room, or nil when `code` is not dormant or its record cannot be read (logged).
    private func wake(_ code: RoomCode) -> Room? {
        guard let saved = dormant.removeValue(forKey: code) else { return nil }
        let record: RoomRecord
        let game: any RoomGame
        do {
            record = try saved.record()
            game = try record.game(lists: lists)
        } catch {
            restoreLog?("room \(saved.code) was not restored: \(error)")
            return nil
        }
        let room = Room(code: code, game: game, isPublic: record.isPublic, key: record.key.flatMap(RoomKey.init),
                        lists: lists, configuration: configuration, registry: self, executor: executors.next(),
                        timers: timers, seed: nextSeed(), clock: clock, fanout: fanout, journal: journal,
                        audiences: audiences)
        rooms[code] = room
        let now = clock()
        let log = restoreLog
        room.executor.execute {
            room.assumeIsolated { room in
                do {
                    try room.restore(from: record, now: now)
                    room.lastSummary = nil
                    room.reportSummary()
                } catch {
                    // Whoever queued behind the restore hears that the room is not there.
                    log?("room \(code.rawValue) was not restored: its saved state is unreadable")
                    room.disposed = true
                    self.roomDisposed(code)
                }
            }
        }
        return room
    }

    /// Wakes every dormant room (for callers that look at all rooms, e.g. to tick them).
    private func wakeAll() {
        for code in Array(dormant.keys) {
            _ = wake(code)
        }
    }

    /// Every room, from any thread other than the registry's (blocks until the registry answers).
    /// The running rooms and, as they were read, the dormant ones (see `restoreSavedRooms`): what a snapshot at
    /// the stop must hold.
    public nonisolated func roomsNow() -> (running: [Room], dormant: [DormantRoom]) {
        let box = Mutex<(running: [Room], dormant: [DormantRoom])>(([], []))
        let done = DispatchSemaphore(value: 0)
        enqueue { registry in
            box.withLock { $0 = (Array(registry.rooms.values), Array(registry.dormant.values)) }
            done.signal()
        }
        done.wait()
        return box.withLock { $0 }
    }

    /// Every room, dormant ones woken, e.g. to tick them all after the clock moved.
    public func allRooms() -> [Room] {
        wakeAll()
        return Array(rooms.values)
    }

    /// Number of rooms by game.
    public func roomCounts() -> [GameKind: Int] {
        var counts: [GameKind: Int] = [:]
        for room in rooms.values { counts[room.kind, default: 0] += 1 }
        for room in dormant.values {
            if let kind = room.head?.kind { counts[kind, default: 0] += 1 }
        }
        return counts
    }

    /// Rooms running and dormant.
    public var count: Int { rooms.count + dormant.count }

    /// Runs `body` on the registry's executor, in order with everything else queued there.
    nonisolated func enqueue(_ body: @escaping @Sendable (isolated RoomRegistry) -> Void) {
        executor.execute { [self] in
            self.assumeIsolated { registry in body(registry) }
        }
    }

    /// Creates a room (see `create`) and reports the result from the registry's thread.
    public nonisolated func create(_ kind: GameKind, isPublic: Bool, settings: JSONObject, creator: any ClientLink,
                                   name: String, client: ClientID? = nil,
                                   completion: @escaping @Sendable (Result<Room, RoomError>) -> Void) {
        enqueue { registry in
            completion(Result { () throws(RoomError) in
                try registry.create(kind, isPublic: isPublic, settings: settings, creator: creator, name: name,
                                    client: client)
            })
        }
    }

    /// Finds the room with `code` and reports it (or nil) from the registry's thread.
    public nonisolated func find(_ code: RoomCode, completion: @escaping @Sendable (Room?) -> Void) {
        enqueue { registry in completion(registry.room(code)) }
    }

    /// Finds the room with `code` that `key` opens (see `room(_:key:)`) and reports it (or nil).
    public nonisolated func find(_ code: RoomCode, key: RoomKey?, completion: @escaping @Sendable (Room?) -> Void) {
        enqueue { registry in completion(registry.room(code, key: key)) }
    }

    nonisolated func roomDisposed(_ code: RoomCode) {
        enqueue { registry in
            registry.rooms[code] = nil
            if let owner = registry.roomOwners.removeValue(forKey: code) {
                let left = registry.roomsByAddress[owner, default: 1] - 1
                registry.roomsByAddress[owner] = left > 0 ? left : nil
            }
            if registry.summaries.removeValue(forKey: code)?.isPublic == true {
                registry.lobbyChanged()
            }
        }
    }

    nonisolated func roomChanged(_ summary: RoomSummary) {
        enqueue { registry in
            guard registry.rooms[summary.code] != nil else { return }
            let wasPublic = registry.summaries.updateValue(summary, forKey: summary.code)?.isPublic == true
            if summary.isPublic || wasPublic { registry.lobbyChanged() }
        }
    }

    /// Public rooms, most players first, then by code.
    public func publicRooms() -> [RoomSummary] {
        summaries.values.filter(\.isPublic).sorted {
            $0.players != $1.players ? $0.players > $1.players : $0.code.rawValue < $1.code.rawValue
        }
    }

    /// Reports rooms by game and rooms created so far, from the registry's thread.
    public nonisolated func withCounts(_ body: @escaping @Sendable ([GameKind: Int], Int) -> Void) {
        enqueue { body($0.roomCounts(), $0.roomsCreated) }
    }

    /// Reports the public rooms from the registry's thread.
    public nonisolated func withPublicRooms(_ body: @escaping @Sendable ([RoomSummary]) -> Void) {
        enqueue { body($0.publicRooms()) }
    }
}

extension NameRules {
    static func cleanRefusing(_ move: String, _ raw: String) throws(RoomError) -> String {
        do { return try clean(raw) } catch { throw error.refusing(move) }
    }
}
