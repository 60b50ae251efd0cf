#if canImport(Glibc)
import Glibc
#endif
import JSON
import WordGames

/// Creates, finds and disposes of rooms, and keeps the public lobby list.
public actor RoomRegistry {
    public let configuration: RoomConfiguration
    private let lists: WordLists
    private let clock: @Sendable () -> Double
    private var random: SplitMix64
    private var rooms: [RoomCode: Room] = [:]
    private var summaries: [RoomCode: RoomSummary] = [:]
    private var lobbySubscribers: [UInt64: any ClientLink] = [:]
    private var lobbyBroadcastPending = false
    /// Rooms created since start, for metrics.
    public private(set) var roomsCreated = 0
    /// Message-to-patch fan-out latency of every room.
    public nonisolated let fanout = LatencyHistogram()

    /// - Parameters:
    ///   - seed: seeds room codes and game randomness (tests pass one to reproduce a run); nil draws from the
    ///     system's secure source.
    public init(lists: WordLists, configuration: RoomConfiguration = RoomConfiguration(), seed: UInt64? = nil,
                clock: @escaping @Sendable () -> Double = RoomRegistry.wallClock) {
        self.lists = lists
        self.configuration = configuration
        self.clock = clock
        var system = SystemRandomNumberGenerator()
        self.random = SplitMix64(seed: seed ?? system.next())
    }

    /// Seconds since 1970: deadlines on the wire are wall-clock times clients can count down to.
    public static let wallClock: @Sendable () -> Double = {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Creates a room and queues its creator's join (the creator becomes host).
    public func create(_ kind: GameKind, isPublic: Bool, settings: JSONObject, creator: any ClientLink,
                       name: String) throws(RoomError) -> Room {
        guard rooms.count < configuration.maxRooms else {
            throw RoomError(code: "server-full", title: "Server full",
                            message: "This server already hosts \(configuration.maxRooms) rooms. Try again later.",
                            move: "create")
        }
        _ = try NameRules.cleanRefusing("create", name)
        var code = RoomCode.random(using: &random)
        while rooms[code] != nil {
            code = RoomCode.random(using: &random)
        }
        let game = try RoomGame.make(kind, settings: settings, lists: lists, now: clock(), using: &random)
        let room = Room(code: code, game: game, isPublic: isPublic, lists: lists, configuration: configuration,
                        registry: self, seed: random.next(), clock: clock, fanout: fanout)
        rooms[code] = room
        roomsCreated += 1
        room.join(creator, name: name, token: nil, lastSeq: nil, spectator: false)
        return room
    }

    /// The room with `code`, if it exists.
    public func room(_ code: RoomCode) -> Room? {
        rooms[code]
    }

    /// Every room, e.g. to tick them all after the clock moved.
    public func allRooms() -> [Room] {
        Array(rooms.values)
    }

    /// Number of rooms by game.
    public func roomCounts() -> [GameKind: Int] {
        var counts: [GameKind: Int] = [:]
        for room in rooms.values { counts[room.kind, default: 0] += 1 }
        return counts
    }

    public var count: Int { rooms.count }

    func remove(_ code: RoomCode) {
        rooms[code] = nil
        if summaries.removeValue(forKey: code)?.isPublic == true {
            lobbyChanged()
        }
    }

    func update(_ summary: RoomSummary) {
        guard rooms[summary.code] != nil else { return }
        summaries[summary.code] = summary
        if summary.isPublic { lobbyChanged() }
    }

    /// Public rooms, most players first, then by code.
    public func publicRooms() -> [RoomSummary] {
        summaries.values.filter(\.isPublic).sorted {
            $0.players != $1.players ? $0.players > $1.players : $0.code.rawValue < $1.code.rawValue
        }
    }

    /// `{"rooms": [...]}` for `GET /api/rooms`.
    public func publicRoomsJSON() -> [UInt8] {
        JSONWriter().serialize(["rooms": .array(publicRooms().map(\.json))])
    }

    /// Sends the lobby list to `link` now and whenever it changes, until `unsubscribe`.
    public func subscribe(_ link: any ClientLink) {
        lobbySubscribers[link.id] = link
        link.send(frame: lobbyFrame())
    }

    public func unsubscribe(_ linkID: UInt64) {
        lobbySubscribers[linkID] = nil
    }

    private func lobbyFrame() -> [UInt8] {
        ServerMessage.frame(["type": "lobby", "rooms": .array(publicRooms().map(\.json))])
    }

    /// Coalesces lobby changes: subscribers get at most about four updates a second.
    private func lobbyChanged() {
        guard !lobbySubscribers.isEmpty, !lobbyBroadcastPending else { return }
        lobbyBroadcastPending = true
        Task {
            try? await Task.sleep(for: .milliseconds(250))
            self.broadcastLobby()
        }
    }

    private func broadcastLobby() {
        lobbyBroadcastPending = false
        let frame = lobbyFrame()
        for link in lobbySubscribers.values {
            link.send(frame: frame)
        }
    }
}

extension NameRules {
    static func cleanRefusing(_ move: String, _ raw: String) throws(RoomError) -> String {
        do { return try clean(raw) } catch { throw error.refusing(move) }
    }
}
