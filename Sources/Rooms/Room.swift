#if canImport(Glibc)
import Glibc
#endif
import JSON
import WordGames
import Runtime
import Synchronization

/// One shared game room: the single owner of its game state, players and history.
///
/// Inputs (joins, moves, disconnects, timer ticks) are queued in order on the room's executor, so they are applied in the
/// order they arrived, whichever connection sent them. Every change produces one JSON Patch from the previous
/// state to the new one, encoded once into a message and queued to every connected member (all members see the
/// same state: the secret word and the valid-word list are not in it while they are secret).
public actor Room {
    public nonisolated let code: RoomCode
    public nonisolated let kind: GameKind
    public nonisolated let isPublic: Bool
    /// A private room's secret, needed besides its code to join or peek (`admits`); nil for public rooms.
    public nonisolated let key: RoomKey?
    let configuration: RoomConfiguration
    private let lists: WordLists
    let clock: @Sendable () -> Double
    private weak var registry: RoomRegistry?
    /// Time from a message arriving to its patch being queued to every member.
    private let fanout: LatencyHistogram?

    var game: any RoomGame {
        didSet { gameVersion &+= 1 }
    }
    /// Bumped on every change to `game` (any mutating call): when it has not moved, as after a chat line, the
    /// state builder skips the game's part.
    private var gameVersion = 0
    var members: [Member] = [] {
        didSet {
            membersVersion &+= 1
            var online = 0
            for member in members where member.linkID != nil { online += 1 }
            connectedNow.store(online, ordering: .relaxed)
        }
    }
    var host: PlayerID?
    var chat: [ChatLine] = []
    /// Bumped on every change to `members`: the key of the state builder's kept JSON for them.
    private var membersVersion = 0
    /// Keeps the lists' lengths only (see `RoomStateBuilder`): `state` writes them when someone needs the whole state.
    private var stateBuilder = RoomStateBuilder(keepingEntries: false)
    var chatCounter = 0
    var memberCounter = 0
    /// Who the host removed; they cannot come back while the room lives, unless the host lifts the ban.
    var bans: [Ban] = []
    var banCounter = 0
    /// The member id each browser last had here, for seats given up (expired or left): a browser that sits down
    /// again gets its id back, so the evening's totals stay one row per person (`Room+Seats.swift`).
    var pastSeats: [ClientID: PlayerID] = [:]
    /// When the room last heard from each connection that keeps the heartbeat (it sent a `ping` while seated),
    /// by link id: one silent past `silenceSeconds` is closed and its member is away (`Room+Seats.swift`).
    var lastHeard: [UInt64: Double] = [:]
    /// Set by the host (or the server's operator): nobody new may join (resumes still may).
    var locked = false {
        didSet { lockedNow.store(locked, ordering: .relaxed) }
    }
    /// `locked`, the moves played and the members connected, readable from any thread: the operator dashboard's room table reads them
    /// every second without entering the room.
    nonisolated let lockedNow = Atomic<Bool>(false)
    nonisolated let movesPlayed = Atomic<Int>(0)
    /// Members with a live connection, players and spectators alike: a seat is held for a while after its
    /// connection drops (for a resume), so the seat counts alone overstate who is there.
    nonisolated let connectedNow = Atomic<Int>(0)
    /// When this process created or restored the room (the room's clock), for the dashboard's age column.
    public nonisolated let openedAt: Double
    /// The number of the last `RoomGame.resultNotice` announced in the chat (saved, so a restart does not repeat it).
    var announcedResult = 0
    /// `gameVersion` when the game's result and Ready list were last looked at.
    private var settledGameVersion = -1
    private var settledMembersVersion = -1
    /// When each member's recent reactions were sent, oldest first, for the rate limit.
    private var reactionTimes: [PlayerID: [Double]] = [:]
    /// Who has the turn (Snowman) and since when, to pass the turn of a player who is away.
    private var turnHolder: (player: PlayerID, since: Double)?
    /// Whether `turnHolder` is away, as of the game and member versions in `notedVersions`.
    private var turnHolderAway = false
    /// Nobody but the room's creator has ever joined it: once they are gone it expires after
    /// `creatorOnlyRoomGraceSeconds` (see `emptyGraceSeconds`).
    var creatorOnly = false
    /// The room's budget of broadcast bytes for chat, renames and reactions (see `spendBroadcast`).
    var broadcastBudget = BroadcastBudget()
    private var notedVersions = (game: -1, members: -1)
    var random: SplitMix64

    /// `seq` of `state`; increases by one per change.
    var seq = 0
    /// The public state every member has (at `seq`); setting it (a restored room) makes the next change diff
    /// against it. Written from the room's parts each time (see `RoomStateBuilder.shownState`).
    var state: JSONValue {
        get { stateBuilder.shownState(stateParts(game: game)) }
        set {
            stateBuilder.restore(newValue)
            stateText = nil
        }
    }
    /// Takes the state a restored room's clients have, as `builder` built it from the room's record; the next
    /// update goes on from what `builder` kept instead of building everything anew.
    func restoreState(builtBy builder: RoomStateBuilder) {
        stateBuilder = builder
        stateText = nil
    }

    /// `state` as JSON text at `seq`, kept from one whole-state message to the next until the state changes:
    /// after a restart most of a room's members come back within the same moment, and each welcome (or
    /// `resync` answer) wrote the same 8-10 KB again.
    private var stateText: (seq: Int, bytes: [UInt8])?
    private var history: PatchHistory
    /// Makes the room's broadcast stream the first time a member follows one; nil when the server has none.
    private let makeBroadcastStream: (@Sendable () -> any BroadcastStream)?
    private var broadcastStream: (any BroadcastStream)?
    /// A member joined or resumed: the next broadcast restarts the stream, so the newcomer can read on from it.
    private var broadcastStreamRestart = false
    /// When the room became empty (nobody connected), for disposal after the grace period.
    var emptySince: Double?
    private var timer: UInt64?
    private var timerDeadline: Double?
    var lastSummary: RoomSummary?
    /// `membersVersion` when the summary was last built.
    private var summarizedMembersVersion = -1
    var disposed = false
    /// Version of the last record handed to the journal.
    var persistedVersion = 0
    /// The game changed in a way the state does not show (a host's new word list of the same length): the next
    /// publish saves the room even if it has no patch to send.
    private var unsavedChange = false
    /// A seat's connection came or went and its patch is queued behind the inputs waiting now (`publishSoon`).
    private var publishQueued = false
    /// Where changes are saved, when the server has a data directory.
    let journal: RoomJournal?

    /// The thread this room runs on; inputs are queued to it in arrival order.
    public nonisolated let executor: ThreadExecutor
    /// Wakes the room for its deadlines: the executor itself in the server, a clock moved by hand in tests.
    private let timers: any TimerScheduler

    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// A `join` on its way to the room.
    struct JoinRequest: Sendable {
        var link: any ClientLink
        var name: String?
        var token: ResumeToken?
        var lastSeq: Int?
        var spectator: Bool
        var client: ClientID?
        /// Take the browser's seat over from its other live connection (`takeover` in PROTOCOL.md).
        var takeover = false
        /// Told whether the connection is now a member (false after any refusal, so it may try again).
        var entered: (@Sendable (Bool) -> Void)?
    }

    enum Input: Sendable {
        case join(JoinRequest)
        /// What the room is like, for someone deciding whether to join.
        case peek(any ClientLink, client: ClientID?)
        /// `receivedAt`: monotonic seconds when the message came off the socket, for the fan-out histogram.
        case message(linkID: UInt64, ClientMessage, receivedAt: Double)
        case disconnected(linkID: UInt64)
        /// The connection `linkID` sent a heartbeat (`ping`): it is alive.
        case heard(linkID: UInt64)
        case tick
    }

    init(code: RoomCode, game: any RoomGame, isPublic: Bool, key: RoomKey? = nil, lists: WordLists,
         configuration: RoomConfiguration,
         registry: RoomRegistry, executor: ThreadExecutor, timers: (any TimerScheduler)? = nil, seed: UInt64,
         clock: @escaping @Sendable () -> Double, fanout: LatencyHistogram? = nil, journal: RoomJournal? = nil,
         broadcastStreams: (@Sendable () -> any BroadcastStream)? = nil) {
        self.fanout = fanout
        self.makeBroadcastStream = broadcastStreams
        self.journal = journal
        self.code = code
        self.kind = game.kind
        self.isPublic = isPublic
        self.key = key
        self.game = game
        self.lists = lists
        self.configuration = configuration
        self.timers = timers ?? executor
        self.registry = registry
        self.executor = executor
        self.clock = clock
        self.random = SplitMix64(seed: seed)
        self.history = PatchHistory(capacity: configuration.patchHistory, byteLimit: configuration.patchHistoryBytes)
        self.announcedResult = game.resultNotice?.number ?? 0
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

    // MARK: Applying inputs

    private func apply(_ input: Input) {
        guard !disposed else {
            switch input {
            case .join(let request):
                request.link.send(.error(RoomError(.roomNotFound, move: "join")))
                request.entered?(false)
            case .peek(let link, _):
                link.send(.error(RoomError(.roomNotFound, move: "peek")))
            default:
                break
            }
            return
        }
        let now = clock()
        // Turns that ran out since the last input are announced; only looked at once a deadline has passed, so
        // that an ordinary move does not touch the game (which would make the state builder rebuild its part).
        // `timerDeadline`, the soonest of all the room's deadlines, answers for most inputs without the game.
        var announced = false
        if let soonest = timerDeadline, now >= soonest, let deadline = game.nextDeadline, now >= deadline {
            // The game moved on (a round ended): published even if the input itself is refused.
            announced = true
            for player in game.tick(now: now) {
                announce("\(displayName(of: player)) ran out of time", .skip, now: now)
                announced = true
            }
        }
        switch input {
        case .join(let request):
            // Not `entered?(join(...))`: optional chaining would skip the join itself when nobody listens.
            let seated = join(request, now: now)
            request.entered?(seated)
        case .peek(let link, let client):
            link.send(peekMessage(client: client))
        case .message(let linkID, let message, let receivedAt):
            // A connection that is not a member has nothing to say here (its session only sends once seated).
            guard let index = memberIndex(linkID: linkID) else { break }
            if !lastHeard.isEmpty, lastHeard[linkID] != nil { lastHeard[linkID] = now }
            let versionBefore = gameVersion
            do {
                try handle(message, from: index, now: now)
                if receivedAt > 0, let fanout {
                    fanout.observe(MonotonicClock.seconds() - receivedAt)
                }
            } catch {
                members[index].link?.send(.error(error))
                // A refused call may have moved the game on (see `refused`): published now, so that the state
                // written for the next welcome is never ahead of `seq`.
                if gameVersion != versionBefore { announced = true }
            }
        case .disconnected(let linkID):
            lastHeard[linkID] = nil
            guard let index = memberIndex(linkID: linkID) else { break }
            members[index].link = nil
            members[index].disconnectedAt = now
            publishSoon()
        case .heard(let linkID):
            noteHeard(linkID, now: now)
        case .tick:
            timerDeadline = nil
            silenceQuietLinks(now: now)
            releaseExpiredSeats(now: now)
            if disposeIfAbandoned(now: now) { return }
            announced = true
        }
        if noteTurn(now: now), skipAwayTurns(now: now) { announced = true }
        if announced { publish(now: now) }
        scheduleTimer(now: now)
    }

    /// Seats the joiner, or refuses with an `error` saying why.
    ///
    /// - Returns: Whether the connection is now a member.
    private func join(_ request: JoinRequest, now: Double) -> Bool {
        let link = request.link
        func refuse(_ error: RoomError) -> Bool {
            link.send(.error(error.refusing("join")))
            return false
        }
        func refuse(_ reason: RoomError.Reason) -> Bool {
            refuse(RoomError(reason))
        }
        if bans.contains(where: { $0.matches(token: request.token, client: request.client) }) {
            return refuse(.banned(room: code))
        }
        if let token = request.token, let index = members.firstIndex(where: { $0.token.matches(token) }) {
            resume(index, link: link, lastSeq: request.lastSeq, client: request.client, now: now)
            return true
        }
        // The browser's seat, for a tab without a token (or whose token another tab's takeover replaced).
        if let seated = rejoinByClient(request, now: now) { return seated }
        guard let rawName = request.name else {
            return request.token == nil ? false : refuse(.seatExpired(room: code))
        }
        // A new seat only: members of a removed player's network already in the room may still resume.
        if isBanned(address: link.address) {
            return refuse(.banned(room: code))
        }
        guard !locked else {
            return refuse(.roomLocked(room: code))
        }
        let cleaned: String
        do {
            cleaned = try NameRules.clean(rawName)
        } catch {
            return refuse(error)
        }
        if let crowded = crowdedAddress(link.address) {
            return refuse(crowded)
        }
        let (players, spectators) = headcount()
        if request.spectator {
            guard spectators < configuration.maxSpectators else {
                return refuse(.noSpectatorSeats(room: code, maxSpectators: configuration.maxSpectators))
            }
        } else {
            guard players < configuration.maxPlayers else {
                return refuse(.noPlayerSeats(room: code, maxPlayers: configuration.maxPlayers))
            }
        }
        // The first member ever is the creator; anyone after them makes the room a real one (a creator who
        // comes back gets their past id, so the counter stays at one).
        let firstEver = memberCounter == 0
        var member = Member(
            id: newMemberID(spectator: request.spectator, client: request.client),
            name: NameRules.distinct(cleaned, among: members.map(\.name)),
            token: ResumeToken.random(), client: request.client, isSpectator: request.spectator, link: link,
            disconnectedAt: nil)
        member.address = link.address
        creatorOnly = firstEver || (creatorOnly && memberCounter == 1)
        // The room's first member created it: nobody is there to hear that they joined.
        if !members.isEmpty { announce("\(member.name) joined", .join, now: now) }
        members.append(member)
        // A browser back in its old id may come with another name: its standings take the new one.
        if let client = request.client, pastSeats[client] == member.id {
            game.renamePlayer(member.id, to: member.name)
        }
        if !request.spectator {
            game.addPlayer(Player(id: member.id, name: member.name), now: now)
            if host == nil { makeHost(member.id, now: now, announced: members.count > 1) }
        }
        emptySince = nil
        publish(now: now, except: link.id)
        link.send(welcome(member, withState: true))
        if link.followsBroadcastStream { broadcastStreamRestart = true }
        return true
    }

    /// Players and spectators in the room.
    private func headcount() -> (players: Int, spectators: Int) {
        var spectators = 0
        for index in members.indices where members[index].isSpectator { spectators += 1 }
        return (members.count - spectators, spectators)
    }

    /// `{"type":"room",...}`: what someone about to join needs to know.
    private func peekMessage(client: ClientID?) -> ServerMessage {
        let (players, spectators) = headcount()
        var object: JSONObject = [
            "type": "room", "code": JSONValue(code.rawValue), "game": JSONValue(kind.rawValue),
            "players": JSONValue(players), "spectators": JSONValue(spectators),
            "maxPlayers": JSONValue(configuration.maxPlayers), "locked": JSONValue(locked),
            "full": JSONValue(players >= configuration.maxPlayers), "status": JSONValue(game.status),
        ]
        if let client, members.contains(where: { $0.client == client }) { object["seated"] = true }
        return ServerMessage.object(object)
    }

    func resume(_ index: Int, link: any ClientLink, lastSeq: Int?, client: ClientID?, now: Double) {
        if let client { members[index].client = client }
        members[index].address = link.address
        if let old = members[index].link, old.id != link.id {
            old.send(.error(RoomError(.replaced(room: code))))
            old.close(.replaced)
        }
        members[index].link = link
        members[index].disconnectedAt = nil
        emptySince = nil
        // A seq from before a restart other than the saved one may name a state this process never had.
        let trusted = members[index].restoredSeq.map { $0 == lastSeq } ?? true
        members[index].restoredSeq = nil
        // The resumer first gets what it missed (or the whole state), then the change its return causes.
        if trusted, let lastSeq, let missed = history.messages(after: lastSeq, lastSeq: seq) {
            link.send(welcome(members[index], withState: false, seq: lastSeq))
            for message in missed { link.sendOutsideStream(message) }
        } else {
            link.send(welcome(members[index], withState: true))
        }
        if link.followsBroadcastStream { broadcastStreamRestart = true }
        publishSoon()
    }

    /// Publishes once the inputs queued now have been applied: when a restart or a network drop brings a whole
    /// room back (or takes it away) at once, its members' comings and goings make one patch instead of one each
    /// (a storm of 10,000 resumes made 10,000 patches, each diffed and sent to the room). Alone, the patch goes
    /// out at once, since nothing else is queued; any publish before it carries the change.
    private func publishSoon() {
        guard !publishQueued else { return }
        publishQueued = true
        executor.execute { [self] in
            self.assumeIsolated { room in room.publishIfQueued() }
        }
    }

    func publishIfQueued() {
        guard publishQueued, !disposed else { return }
        let now = clock()
        publish(now: now)
        // Publishing settles the game: a player gone who was the last not Ready starts the next round, whose
        // deadline must be on the timer (as `apply` does after every input).
        scheduleTimer(now: now)
    }

    /// `state` as JSON, written once per `seq` (see `stateText`).
    private func currentStateText() -> [UInt8] {
        if let stateText, stateText.seq == seq { return stateText.bytes }
        let bytes = JSONWriter().serialize(state)
        stateText = (seq, bytes)
        return bytes
    }

    /// `withState`: with the whole state (written once per `seq`, see `currentStateText`), or `resumed` for a
    /// member whose missed patches follow.
    private func welcome(_ member: Member, withState: Bool, seq overrideSeq: Int? = nil) -> ServerMessage {
        var object: JSONObject = [
            "type": "welcome",
            "code": JSONValue(code.rawValue),
            "you": JSONValue(member.id.rawValue),
            "token": JSONValue(member.token.description),
            "seq": JSONValue(overrideSeq ?? seq),
            "serverTime": JSONValue(clock()),
        ]
        // Every member may invite: the link they share carries the key.
        if let key { object["key"] = JSONValue(key.rawValue) }
        guard withState else {
            object["resumed"] = true
            return ServerMessage.object(object)
        }
        return ServerMessage.object(object, state: currentStateText())
    }

    private func handle(_ message: ClientMessage, from index: Int, now: Double) throws(RoomError) {
        let member = members[index]
        let isHost = member.id == host
        switch message {
        case .move(let move):
            guard !member.isSpectator else { throw Self.spectatorsCannotPlay(move.type) }
            // Only a deadline that has passed lets a refused move change the game (see `refused`); then the
            // next update looks at the game in full, otherwise the next accepted move may still be written from
            // the move alone.
            let deadlinePassed = game.nextDeadline.map { now >= $0 } ?? false
            do {
                try game.play(move, by: member.id, now: now)
            } catch {
                throw deadlinePassed ? refused(error) : error
            }
            movesPlayed.add(1, ordering: .relaxed)
        case .newGame:
            guard isHost else { throw Self.hostOnly("new_game", "start the next game") }
            do { try game.startNext(now: now, using: &random) } catch { throw refused(error) }
        case .settings(let settings):
            guard isHost else { throw Self.hostOnly("settings", "change the settings") }
            try game.updateSettings(settings)
            // A new custom list as long as the old one changes the game but not the state: no patch, yet it
            // must reach the data directory now, not with the room's next change.
            unsavedChange = true
        case .kick(let target):
            guard isHost else { throw Self.hostOnly("kick", "remove players") }
            guard let targetIndex = members.firstIndex(where: { $0.id.rawValue == target }) else {
                throw Self.noSuchMember("kick", target)
            }
            guard members[targetIndex].id != member.id else {
                throw RoomError(.cannotRemoveYourself, move: "kick")
            }
            let removed = members[targetIndex]
            banCounter += 1
            bans.append(Ban(id: "b\(banCounter)", name: removed.name, token: removed.token, client: removed.client,
                            address: removed.address))
            if bans.count > configuration.maxBans { bans.removeFirst(bans.count - configuration.maxBans) }
            removed.link?.send(.error(RoomError(.removedByHost(room: code))))
            removed.link?.close(.removedByHost)
            removeForGood(targetIndex, now: now, notice: "\(removed.name) was removed by the host", .kick)
        case .unban(let id):
            guard isHost else { throw Self.hostOnly("unban", "let removed players back") }
            guard let banIndex = bans.firstIndex(where: { $0.id == id }) else {
                throw RoomError(.noSuchBan(id: id), move: "unban")
            }
            bans.remove(at: banIndex)
        case .lock(let lock):
            guard isHost else { throw Self.hostOnly("lock", "lock the room") }
            locked = lock
        case .skip:
            guard isHost else { throw Self.hostOnly("skip", "skip a turn") }
            let skipped: PlayerID
            do { skipped = try game.skipTurn(now: now) } catch { throw refused(error) }
            announce("\(displayName(of: skipped))'s turn was skipped by the host", .skip, now: now)
        case .makeHost(let target):
            guard isHost else { throw Self.hostOnly("host", "hand over hosting") }
            guard let newHost = members.first(where: { $0.id.rawValue == target }) else {
                throw Self.noSuchMember("host", target)
            }
            guard !newHost.isSpectator else {
                throw RoomError(.spectatorCannotHost(name: newHost.name), move: "host")
            }
            makeHost(newHost.id, now: now)
        case .chat(let raw):
            let checked: String?
            do {
                checked = try NameRules.checkChat(raw)
            } catch {
                throw RoomError(.badChat(error), move: "chat")
            }
            guard let text = checked else {
                throw RoomError(.emptyChat, move: "chat")
            }
            guard text.count <= ClientMessage.maxChatCharacters else {
                throw RoomError(.chatTooLong, move: "chat")
            }
            try spendBroadcast(bytes: text.utf8.count + Self.chatLineOverhead, move: "chat", now: now)
            appendChat(ChatLine(id: chatCounter + 1, player: member.id, name: member.name, text: text, at: now))
        case .react(let emoji):
            try react(emoji, from: index, now: now)
            return
        case .rename(let raw):
            guard try rename(index, to: raw, now: now) else { return }
        case .seat(let role, let target):
            guard try seat(role, target: target, by: index, now: now) else { return }
        case .resync:
            member.link?.send(.object(["type": "snapshot", "seq": JSONValue(seq), "serverTime": JSONValue(now)],
                                      state: currentStateText()))
            return
        case .leave:
            member.link?.send(.object(["type": "left", "code": JSONValue(code.rawValue)]))
            removeForGood(index, now: now, notice: "\(member.name) left", .leave)
        case .create, .join, .lobby, .peek, .ping:
            throw RoomError(.alreadyInRoom(room: code), move: message.type)
        }
        publish(now: now)
    }

    /// A game call refused `error`. It may still have moved the game on first (turns or a round whose time was
    /// up, applied before the input is looked at), and a mutating call that throws does not run `game`'s didSet:
    /// the version moves here, so that the next update looks at the game.
    private func refused(_ error: RoomError) -> RoomError {
        gameVersion &+= 1
        return error
    }

    private func appendChat(_ line: ChatLine) {
        chatCounter = line.id
        chat.append(line)
        if chat.count > configuration.chatHistory { chat.removeFirst(chat.count - configuration.chatHistory) }
    }

    /// A line in the chat from the room itself, such as a skipped turn.
    func announce(_ text: String, _ notice: ChatNotice, now: Double) {
        appendChat(ChatLine(id: chatCounter + 1, player: nil, name: nil, text: text, at: now, notice: notice))
    }

    /// Hands hosting to `id`, announcing it ("Cleo is now the host") unless `announced` is false (the creator).
    private func makeHost(_ id: PlayerID?, now: Double, announced: Bool = true) {
        guard id != host else { return }
        host = id
        if announced, let id { announce("\(displayName(of: id)) is now the host", .host, now: now) }
    }

    // MARK: Reactions, names and seats

    /// `react`: the emoji goes to every connected member at once, outside the state (no `seq`, no history, no
    /// journal, no compression); one message object, encoded once, for all of them.
    private func react(_ emoji: String, from index: Int, now: Double) throws(RoomError) {
        guard Reaction.emoji.contains(emoji) else { throw RoomError(.badReaction, move: "react") }
        let id = members[index].id
        var times = reactionTimes[id] ?? []
        times.removeAll { $0 <= now - Reaction.windowSeconds }
        if times.count >= Reaction.perWindow {
            let wait = max(1, Int((times[0] + Reaction.windowSeconds - now).rounded(.up)))
            reactionTimes[id] = times
            throw RoomError(.tooManyReactions(limit: Reaction.perWindow, seconds: Int(Reaction.windowSeconds),
                                              retryAfter: wait), move: "react")
        }
        try spendBroadcast(bytes: emoji.utf8.count + Self.reactionOverhead, move: "react", now: now)
        times.append(now)
        reactionTimes[id] = times
        let message = ServerMessage.object([
            "type": "reaction", "player": JSONValue(id.rawValue), "emoji": JSONValue(emoji),
        ])
        for index in members.indices {
            members[index].link?.sendOutsideStream(message)
        }
    }

    /// `rename`: the same rules as a name at join (cleaned, and made distinct from the others' names).
    ///
    /// - Returns: Whether the name changed (the same name changes nothing and gets no answer).
    private func rename(_ index: Int, to raw: String, now: Double) throws(RoomError) -> Bool {
        let cleaned: String
        do {
            cleaned = try NameRules.clean(raw)
        } catch {
            throw error.refusing("rename")
        }
        let old = members[index].name
        var others: [String] = []
        for other in members.indices where other != index { others.append(members[other].name) }
        let name = NameRules.distinct(cleaned, among: others)
        guard name != old else { return false }
        try spendBroadcast(bytes: 2 * (name.utf8.count + old.utf8.count) + Self.renameOverhead, move: "rename", now: now)
        members[index].name = name
        // Spectators too: the game may still show them from when they played.
        game.renamePlayer(members[index].id, to: name)
        announce("\(old) is now \(name)", .rename, now: now)
        return true
    }

    /// `seat`: a member takes a player's seat or moves to the spectators; see PROTOCOL.md for who may do which.
    ///
    /// - Returns: Whether anything changed (a member already in the role asked for: nothing, no answer).
    private func seat(_ role: SeatRole, target: String?, by index: Int, now: Double) throws(RoomError) -> Bool {
        let asker = members[index]
        let targetIndex: Int
        if let target, target != asker.id.rawValue {
            guard asker.id == host else { throw Self.hostOnly("seat", "move other members") }
            guard let found = members.firstIndex(where: { $0.id.rawValue == target }) else {
                throw Self.noSuchMember("seat", target)
            }
            targetIndex = found
        } else {
            targetIndex = index
        }
        let byHost = asker.id == host
        let member = members[targetIndex]
        switch role {
        case .player:
            guard member.isSpectator else { return false }
            guard byHost || game.status != "playing" else { throw RoomError(.seatDuringGame, move: "seat") }
            guard headcount().players < configuration.maxPlayers else {
                throw RoomError(.noPlayerSeats(room: code, maxPlayers: configuration.maxPlayers), move: "seat")
            }
            members[targetIndex].isSpectator = false
            game.addPlayer(Player(id: member.id, name: member.name), now: now)
            announce("\(member.name) is now playing", .seat, now: now)
            if host == nil { makeHost(member.id, now: now) }
        case .spectator:
            guard !member.isSpectator else { return false }
            guard member.id != host else { throw RoomError(.hostMustPlay, move: "seat") }
            members[targetIndex].isSpectator = true
            game.removePlayer(member.id, now: now)
            announce("\(member.name) is now watching", .seat, now: now)
        }
        return true
    }

    /// The name to show for `player`: the member's, or the game's for someone who has left.
    private func displayName(of player: PlayerID) -> String {
        for index in members.indices where members[index].id == player { return members[index].name }
        return game.name(of: player) ?? "A player"
    }

    // MARK: Turns of players who are away

    /// Notes who has the turn; returns whether it is held by a player who is away (then `skipAwayTurns` has
    /// something to look at).
    private func noteTurn(now: Double) -> Bool {
        // Most inputs change neither the game nor the members: the answer then stands.
        if notedVersions == (gameVersion, membersVersion) { return turnHolderAway }
        notedVersions = (gameVersion, membersVersion)
        turnHolderAway = false
        guard let current = game.currentTurn else {
            turnHolder = nil
            return false
        }
        if turnHolder?.player != current { turnHolder = (current, now) }
        guard let index = memberIndex(id: current) else { return false }
        turnHolderAway = members[index].linkID == nil
        return turnHolderAway
    }

    /// When the turn of its holder, who is away, passes on: `awayTurnSeconds` after they left or got the turn,
    /// whichever came later. Nil when nobody else is connected to take the turn (passing it would only bring it
    /// back to them, over and over).
    private func awayTurnDeadline() -> Double? {
        guard let holder = turnHolder, let index = memberIndex(id: holder.player),
              let away = members[index].disconnectedAt else { return nil }
        var anotherPlayerHere = false
        for other in members.indices where other != index && !members[other].isSpectator
            && members[other].linkID != nil {
            anotherPlayerHere = true
            break
        }
        guard anotherPlayerHere else { return nil }
        return max(away, holder.since) + configuration.awayTurnSeconds
    }

    /// Passes the turns of players who are away past their grace; true when any was passed.
    private func skipAwayTurns(now: Double) -> Bool {
        var skippedAny = false
        // Each pass moves the turn on by one; no more passes than players.
        for _ in 0..<max(1, members.count) {
            guard let deadline = awayTurnDeadline(), now >= deadline,
                  let skipped = try? game.skipTurn(now: now) else { break }
            announce("\(displayName(of: skipped))'s turn was skipped: disconnected", .skip, now: now)
            skippedAny = true
            guard noteTurn(now: now) else { break }
        }
        return skippedAny
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

    private static func spectatorsCannotPlay(_ move: String) -> RoomError {
        RoomError(.watchingOnly, move: move)
    }

    private static func hostOnly(_ move: String, _ what: String) -> RoomError {
        RoomError(.hostOnly(action: what), move: move)
    }

    private static func noSuchMember(_ move: String, _ id: String) -> RoomError {
        RoomError(.noSuchPlayer(id: id), move: move)
    }

    /// Removes a member (left, kicked or gone past the grace period), announcing it with `notice`; hosting
    /// passes to the longest-present player.
    func removeForGood(_ index: Int, now: Double, notice text: String, _ notice: ChatNotice) {
        let member = members.remove(at: index)
        reactionTimes[member.id] = nil
        rememberDeparture(of: member)
        if !member.isSpectator {
            game.removePlayer(member.id, now: now)
        }
        announce(text, notice, now: now)
        if host == member.id {
            let players = members.filter { !$0.isSpectator }
            host = nil
            makeHost((players.first { $0.link != nil } ?? players.first)?.id, now: now)
        }
    }

    private func releaseExpiredSeats(now: Double) {
        while let index = members.firstIndex(where: {
            $0.disconnectedAt.map { now >= $0 + configuration.resumeGraceSeconds } ?? false
        }) {
            removeForGood(index, now: now, notice: "\(members[index].name) left", .leave)
        }
    }

    // MARK: What the game does by itself

    /// Before a change goes out: goes on when every connected player is ready (Word Scramble's break), and
    /// announces a result the game has not had announced. Looked at only when the game or the members changed.
    private func settleGame(now: Double) {
        guard gameVersion != settledGameVersion || membersVersion != settledMembersVersion else { return }
        if let ready = game.readyPlayers, !ready.isEmpty {
            var anyoneReady = false
            var everyone = true
            for index in members.indices where !members[index].isSpectator && members[index].linkID != nil {
                if ready.contains(members[index].id) { anyoneReady = true } else { everyone = false; break }
            }
            if everyone && anyoneReady { game.everyoneReady(now: now) }
        }
        if let result = game.resultNotice, result.number > announcedResult {
            announcedResult = result.number
            announce(result.text, .result, now: now)
        }
        settledGameVersion = gameVersion
        settledMembersVersion = membersVersion
    }

    /// Disposes of the room once nobody has been connected for the grace period.
    private func disposeIfAbandoned(now: Double) -> Bool {
        guard let emptySince, now >= emptySince + emptyGraceSeconds else { return false }
        dispose()
        return true
    }

    /// Ends the room for good: the registry forgets it and the data directory drops it.
    func dispose() {
        disposed = true
        // The stream's compressor is the room's biggest buffer: let it go now, whoever still holds the room.
        broadcastStream = nil
        if let timer { timers.cancel(timer) }
        registry?.roomDisposed(code)
        persistedVersion += 1
        journal?.roomRemoved(code, version: persistedVersion)
    }

    // MARK: State and patches

    /// Brings the state up to date; when it changed, broadcasts one patch message to every connected member
    /// (except `except`, which gets a welcome instead).
    func publish(now: Double, except: UInt64? = nil) {
        publishQueued = false
        settleGame(now: now)
        // Members are looked at in place (by index) throughout: copying one out retains all its fields. Plain
        // loops rather than closures: a closure formed in the actor checks at run time that it runs on the
        // actor's executor, a cost every change paid several times over.
        var anyoneConnected = false
        for index in members.indices where members[index].linkID != nil {
            anyoneConnected = true
            break
        }
        if anyoneConnected {
            emptySince = nil
        } else if emptySince == nil {
            emptySince = now
        }
        // The game only when the builder will look at it: a copy of it retains everything the game holds.
        let game: (any RoomGame)? = stateBuilder.needsGame(version: gameVersion) ? self.game : nil
        let operations = stateBuilder.update(stateParts(game: game))
        guard !operations.isEmpty else {
            if unsavedChange {
                unsavedChange = false
                journal?.roomChanged(self)
            }
            return
        }
        unsavedChange = false
        seq += 1
        stateText = nil
        let message = ServerMessage.patch(seq: seq, ops: JSONPatch(operations))
        encodeInStream(message, except: except)
        history.append(message, seq: seq)
        journal?.roomChanged(self)
        for index in members.indices {
            if let link = members[index].link, link.id != except {
                link.send(message)
            }
        }
        // The stream form served this broadcast only: replays from the history go outside the stream. Kept, it
        // would hold a second framing (compressed) of each of the history's patches: 256 of them per room.
        message.streamForm = nil
        reportSummary()
    }

    /// What the state is built from, as the room holds it now.
    func stateParts(game: (any RoomGame)?) -> RoomStateBuilder.Parts {
        RoomStateBuilder.Parts(
            code: code, kind: kind, isPublic: isPublic, host: host, locked: locked, bans: bans, members: members,
            membersVersion: membersVersion, chat: chat, game: game, gameVersion: gameVersion)
    }

    /// Hands a broadcast to the room's stream when some recipient follows it (the stream is made then, so rooms
    /// of players who negotiated no compression never pay for one).
    private func encodeInStream(_ message: ServerMessage, except: UInt64?) {
        guard let makeBroadcastStream else { return }
        var followed = false
        for index in members.indices {
            if let link = members[index].link, link.id != except, link.followsBroadcastStream {
                followed = true
                break
            }
        }
        guard followed else { return }
        if broadcastStream == nil {
            broadcastStream = makeBroadcastStream()
            broadcastStreamRestart = true
        }
        broadcastStream?.append(message, restart: broadcastStreamRestart)
        broadcastStreamRestart = false
    }

    /// The member with id `id`.
    func memberIndex(id: PlayerID) -> Int? {
        for index in members.indices where members[index].id == id { return index }
        return nil
    }

    /// The member connected through `linkID`.
    func memberIndex(linkID: UInt64) -> Int? {
        for index in members.indices where members[index].linkID == linkID { return index }
        return nil
    }

    /// A fresh snapshot: the state and its `seq` (for tests and resync).
    public func snapshot() -> (seq: Int, state: JSONValue) {
        publishIfQueued()
        return (seq, state)
    }

    // MARK: Lobby summary and timers

    func reportSummary() {
        // Most changes (a guess, a word, a chat line) change neither the members nor the game's status: the
        // summary is only built when one of them did (or after `lastSummary` was cleared to force a report).
        let status = game.status
        guard membersVersion != summarizedMembersVersion || status != lastSummary?.status
                || locked != lastSummary?.locked else { return }
        summarizedMembersVersion = membersVersion
        var spectators = 0
        for index in members.indices where members[index].isSpectator { spectators += 1 }
        let summary = RoomSummary(code: code, game: kind, players: members.count - spectators,
                                  spectators: spectators,
                                  maxPlayers: configuration.maxPlayers, status: status, isPublic: isPublic,
                                  locked: locked)
        guard summary != lastSummary else { return }
        lastSummary = summary
        registry?.roomChanged(summary)
    }

    /// Wakes the room at the next moment something happens by itself: a turn or round deadline, a seat's grace
    /// period ending, or the room's own disposal.
    func scheduleTimer(now: Double) {
        var next = game.nextDeadline
        for index in members.indices {
            if let at = members[index].disconnectedAt {
                next = min(next ?? .infinity, at + configuration.resumeGraceSeconds)
            }
        }
        if let emptySince {
            next = min(next ?? .infinity, emptySince + emptyGraceSeconds)
        }
        if let away = awayTurnDeadline() {
            next = min(next ?? .infinity, away)
        }
        if let silence = silenceDeadline() {
            next = min(next ?? .infinity, silence)
        }
        guard next != timerDeadline else { return }
        if let timer { timers.cancel(timer) }
        timerDeadline = next
        guard let next else { timer = nil; return }
        timer = timers.schedule(after: max(0, next - now) + 0.005) { [weak self] in
            self?.tick()
        }
    }
}

