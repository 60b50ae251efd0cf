import JSON
import WordGames
import Runtime
import Synchronization

/// One shared game room: the single owner of its game state, players and history.
///
/// Inputs (joins, moves, disconnects, timer ticks) are queued in order on the room's executor, so they are applied in the
/// order they arrived, whichever connection sent them. The room's rules live in `RoomMachine`, a value type with
/// no I/O: this actor feeds it each input and carries out the effects it returns (`Room+Effects.swift`). Every
/// change produces one JSON Patch from the previous state to the new one, encoded once into a message and queued
/// to every connected member (all members see the same state: the secret word and the valid-word list are not
/// in it while they are secret).
public actor Room {
    public nonisolated let code: RoomCode
    public nonisolated let kind: GameKind
    public nonisolated let isPublic: Bool
    /// A private room's secret, needed besides its code to join or peek (`admits`); nil for public rooms.
    public nonisolated let key: RoomKey?
    let configuration: RoomConfiguration
    private let lists: WordLists
    let clock: @Sendable () -> Double
    weak var registry: RoomRegistry?
    /// Time from a message arriving to its patch being queued to every member.
    let fanout: LatencyHistogram?

    /// The room's state and rules; everything it decides comes back as effects.
    var machine: RoomMachine
    /// The effects of the input being applied; kept between inputs so that a move allocates no list of its own.
    var effectBuffer: [RoomEffect] = []

    /// `locked`, the moves played and the members connected, readable from any thread: the operator dashboard's room table reads them
    /// every second without entering the room.
    nonisolated let lockedNow = Atomic<Bool>(false)
    nonisolated let movesPlayed = Atomic<Int>(0)
    /// Members with a live connection, players and spectators alike: a seat is held for a while after its
    /// connection drops (for a resume), so the seat counts alone overstate who is there.
    nonisolated let connectedNow = Atomic<Int>(0)
    /// When this process created or restored the room (the room's clock), for the dashboard's age column.
    public nonisolated let openedAt: Double

    /// Makes the room's audience on its first publish (`Room+Audience.swift`).
    let makeAudience: @Sendable () -> any RoomAudience
    var audience: (any RoomAudience)?
    /// The links the audience has, and the members' version they were taken at (nil: none taken yet).
    var audienceLinks: Set<UInt64> = []
    var audienceVersion: Int?
    /// The timer waking the room at the machine's next deadline.
    var timer: UInt64?
    /// Where changes are saved, when the server has a data directory.
    let journal: RoomJournal?

    /// The thread this room runs on; inputs are queued to it in arrival order.
    public nonisolated let executor: ThreadExecutor
    /// Wakes the room for its deadlines: the executor itself in the server, a clock moved by hand in tests.
    let timers: any TimerScheduler

    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    typealias JoinRequest = RoomMachine.JoinRequest
    typealias Input = RoomMachine.Input

    init(code: RoomCode, game: any RoomGame, isPublic: Bool, key: RoomKey? = nil, lists: WordLists,
         configuration: RoomConfiguration,
         registry: RoomRegistry, executor: ThreadExecutor, timers: (any TimerScheduler)? = nil, seed: UInt64,
         clock: @escaping @Sendable () -> Double, fanout: LatencyHistogram? = nil, journal: RoomJournal? = nil,
         audiences: (@Sendable () -> any RoomAudience)? = nil) {
        self.fanout = fanout
        self.makeAudience = audiences ?? { LinkAudience() }
        self.journal = journal
        self.code = code
        self.kind = game.kind
        self.isPublic = isPublic
        self.key = key
        self.machine = RoomMachine(code: code, game: game, isPublic: isPublic, key: key, configuration: configuration,
                                   seed: seed)
        self.lists = lists
        self.configuration = configuration
        self.timers = timers ?? executor
        self.registry = registry
        self.executor = executor
        self.clock = clock
        self.openedAt = clock()
    }

    // MARK: Entry points (any thread, applied in order)

    private nonisolated func enqueue(_ input: Input) {
        executor.execute { [self] in
            self.assumeIsolated { room in room.apply(input) }
        }
    }

    /// Queues a join; the joiner gets `welcome` or an `error`, and then `entered` hears which.
    public nonisolated func join(_ link: any ClientLink, name: String?, token: ResumeToken?, lastSeq: Int?,
                                 spectator: Bool, client: ClientID? = nil, takeover: Bool = false,
                                 entered: (@Sendable (Bool) -> Void)? = nil) {
        enqueue(.join(JoinRequest(link: link, name: name, token: token, lastSeq: lastSeq, spectator: spectator,
                                  client: client, takeover: takeover, entered: entered)))
    }

    /// Queues a `peek`: `link` gets a `room` message describing the room (or `room-not-found` once it is gone),
    /// saying too whether the browser `client` has a seat here (then a full or locked room still takes it back).
    public nonisolated func peek(_ link: any ClientLink, client: ClientID? = nil) {
        enqueue(.peek(link, client: client))
    }

    /// The connection `linkID` sent a heartbeat: from its first one on, it must keep sending something at least
    /// every `silenceSeconds`, or it is closed and its member counts as away.
    public nonisolated func heard(_ linkID: UInt64) {
        enqueue(.heard(linkID: linkID))
    }

    /// Queues a message from the connection `linkID`; `receivedAt` (monotonic seconds) is when it arrived.
    public nonisolated func receive(_ message: ClientMessage, from linkID: UInt64, receivedAt: Double = 0) {
        enqueue(.message(linkID: linkID, message, receivedAt: receivedAt))
    }

    /// The connection `linkID` is gone; its seat waits for a resume.
    public nonisolated func disconnected(_ linkID: UInt64) {
        enqueue(.disconnected(linkID: linkID))
    }

    /// Returns once every input queued before this call has been applied, and its patch sent (a patch
    /// `publishSoon` put behind this call is sent first).
    public nonisolated func settled() async {
        await withCheckedContinuation { continuation in
            executor.execute { [self] in
                self.assumeIsolated { room in room.publishIfQueued() }
                continuation.resume()
            }
        }
    }

    /// Advances the room's timers now (the clock may have been moved by a test, or time passed while stopped).
    public nonisolated func tick() {
        enqueue(.tick)
    }

    // MARK: Driving the machine

    private func apply(_ input: Input) {
        var effects = takeEffectBuffer()
        machine.apply(input, now: clock(), into: &effects)
        run(&effects)
    }

    /// Publishes the change `publishSoon` queued, unless a publish since carried it.
    func publishIfQueued() {
        guard machine.publication.publishQueued, !machine.disposed else { return }
        var effects = takeEffectBuffer()
        machine.publishIfQueued(now: clock(), into: &effects)
        run(&effects)
    }

    /// Tells the registry the room's summary if it changed (or `lastSummary` was cleared to force a report).
    func reportSummary() {
        var effects = takeEffectBuffer()
        machine.reportSummary(into: &effects)
        run(&effects)
    }

    /// Brings the room back from its record (see `RoomMachine.restore(from:now:into:)`).
    func restore(from record: RoomRecord, now: Double) throws {
        var effects = takeEffectBuffer()
        defer { run(&effects) }
        try machine.restore(from: record, now: now, into: &effects)
    }

    /// The room as a record to save.
    func record(version: Int) -> RoomRecord {
        machine.record(version: version)
    }

    /// The summary the lobby last heard; cleared to make the next `reportSummary` report.
    var lastSummary: RoomSummary? {
        get { machine.publication.lastSummary }
        set { machine.publication.lastSummary = newValue }
    }

    /// The room is gone: joins and peeks get `room-not-found`.
    var disposed: Bool {
        get { machine.disposed }
        set { machine.disposed = newValue }
    }

    /// The public state every member has, at `seq`.
    var state: JSONValue { machine.state }

    /// `seq` of `state`; increases by one per change.
    var seq: Int { machine.publication.seq }

    /// Version of the last record handed to the journal.
    var persistedVersion: Int { machine.publication.persistedVersion }

    /// A fresh snapshot: the state and its `seq` (for tests and resync).
    public func snapshot() -> (seq: Int, state: JSONValue) {
        publishIfQueued()
        return (machine.publication.seq, machine.state)
    }

    /// `text` with runs of whitespace made one space and none at the ends. Plain ASCII text (most chat) is
    /// returned as it is when it has nothing to collapse, without looking up Unicode properties.
    static func collapsingWhitespace(_ text: String) -> String {
        var needsWork = false
        var previousWasSpace = true
        for byte in text.utf8 {
            if byte >= 0x80 || byte < 0x20 || byte == 0x7F {
                needsWork = true
                break
            }
            let isSpace = byte == 0x20
            if isSpace && previousWasSpace {
                needsWork = true
                break
            }
            previousWasSpace = isSpace
        }
        if !needsWork && !previousWasSpace { return text }
        return text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
