import JSON
import WordGames

/// One room's state and rules, without I/O: takes an input and the time, changes, and says what to do outside
/// (`RoomEffect`) for the `Room` actor to carry out, as `ConnectionMachine` does for a connection.
///
/// It is made of parts that each own their state: `membership` (members, seats, heartbeat, resume grace),
/// `hostControls` (host, lock, bans), `chat` (lines, notices, reactions, broadcast budget), `turns` (away turns,
/// the next deadline) and `publication` (seq, state, patch history, lobby summary). The game (`RoomGame`) is
/// the room's own: every mutating call on it moves `gameVersion`, so the state builder and the checks that look
/// at the game skip it when it has not changed.
struct RoomMachine {
    let code: RoomCode
    let kind: GameKind
    let isPublic: Bool
    /// A private room's secret, given to every member in `welcome` (the link they share carries it).
    let key: RoomKey?
    let configuration: RoomConfiguration

    var game: any RoomGame {
        didSet { gameVersion &+= 1 }
    }
    /// Bumped on every change to `game` (any mutating call): when it has not moved, as after a chat line, the
    /// state builder skips the game's part.
    var gameVersion = 0
    var random: SplitMix64
    var membership = RoomMembership()
    var hostControls = RoomHostControls()
    var chat = RoomChat()
    var turns = RoomTurns()
    var publication: RoomPublication
    /// Moves the game accepted, for the operator's dashboard.
    private(set) var movesPlayed = 0
    /// The room is gone (abandoned, closed, or unreadable when restored): joins and peeks get `room-not-found`.
    var disposed = false

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
        /// The timer fired, or time passed: deadlines that are due are applied.
        case tick
    }

    init(code: RoomCode, game: any RoomGame, isPublic: Bool, key: RoomKey?, configuration: RoomConfiguration,
         seed: UInt64) {
        self.code = code
        self.kind = game.kind
        self.isPublic = isPublic
        self.key = key
        self.configuration = configuration
        self.game = game
        self.random = SplitMix64(seed: seed)
        self.publication = RoomPublication(configuration: configuration)
        self.publication.privateViews.enabled = type(of: game).hasPrivateViews
        self.chat.announcedResult = game.resultNotice?.number ?? 0
    }

    /// Applies `input` at `now`.
    ///
    /// - Returns: What to do outside the room, in order.
    mutating func apply(_ input: Input, now: Double) -> [RoomEffect] {
        var effects: [RoomEffect] = []
        apply(input, now: now, into: &effects)
        return effects
    }

    /// Applies `input` at `now`, appending what to do outside the room to `effects` (a buffer the caller keeps,
    /// so that a move allocates no list of its own).
    mutating func apply(_ input: Input, now: Double, into effects: inout [RoomEffect]) {
        guard !disposed else {
            switch input {
            case .join(let request):
                effects.append(.send(request.link, .error(RoomError(.roomNotFound, move: "join"))))
                if let entered = request.entered { effects.append(.entered(entered, false)) }
            case .peek(let link, _):
                effects.append(.send(link, .error(RoomError(.roomNotFound, move: "peek"))))
            default:
                break
            }
            return
        }
        // Turns that ran out since the last input are announced; only looked at once a deadline has passed, so
        // that an ordinary move does not touch the game (which would make the state builder rebuild its part).
        // The timer's deadline, the soonest of all the room's, answers for most inputs without the game.
        var announced = false
        if let soonest = turns.timerDeadline, now >= soonest, let deadline = game.nextDeadline, now >= deadline {
            // The game moved on (a round ended): published even if the input itself is refused.
            announced = true
            for player in game.tick(now: now) {
                announce("\(displayName(of: player)) ran out of time", .skip, now: now)
            }
        }
        switch input {
        case .join(let request):
            let seated = join(request, now: now, into: &effects)
            if let entered = request.entered { effects.append(.entered(entered, seated)) }
        case .peek(let link, let client):
            effects.append(.send(link, peekMessage(client: client)))
        case .message(let linkID, let message, let receivedAt):
            // A connection that is not a member has nothing to say here (its session only sends once seated).
            guard let index = membership.index(linkID: linkID) else { break }
            membership.heardFrom(linkID, now: now)
            let versionBefore = gameVersion
            do {
                try handle(message, from: index, now: now, into: &effects)
                if receivedAt > 0 { effects.append(.observeFanout(receivedAt: receivedAt)) }
            } catch {
                if let link = membership.members[index].link { effects.append(.send(link, .error(error))) }
                // A refused call may have moved the game on (see `refused`): published now, so that the state
                // written for the next welcome is never ahead of `seq`.
                if gameVersion != versionBefore { announced = true }
            }
        case .disconnected(let linkID):
            membership.lastHeard[linkID] = nil
            guard let index = membership.index(linkID: linkID) else { break }
            membership.disconnect(index, now: now)
            publishSoon(into: &effects)
        case .heard(let linkID):
            membership.noteHeard(linkID, now: now)
        case .tick:
            turns.timerDeadline = nil
            silenceQuietLinks(now: now, into: &effects)
            releaseExpiredSeats(now: now)
            if disposeIfAbandoned(now: now, into: &effects) { return }
            announced = true
        }
        if noteTurn(now: now), skipAwayTurns(now: now) { announced = true }
        if announced { publish(now: now, into: &effects) }
        scheduleTimer(now: now, into: &effects)
    }

    /// Counts a move the game accepted.
    mutating func countMove() {
        movesPlayed += 1
    }
}
