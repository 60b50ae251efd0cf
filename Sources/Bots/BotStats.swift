import WordGames

/// What the bots of one event-loop thread counted and timed.
///
/// Each loop thread owns one and updates it without locks; the driver merges copies taken on the loops (every
/// second for the progress line, once at the end for the report).
public struct BotStats: Sendable, Equatable {
    // MARK: Connections

    /// Connections started (churners' reconnections included).
    public var connectAttempts = 0
    /// Connections whose opening handshake succeeded.
    public var connectsOpened = 0
    /// Connections that could not be opened, by reason.
    public var connectFailures: [String: Int] = [:]
    /// Connections open now (a gauge: merged by adding).
    public var openConnections = 0
    /// Closes the bots asked for (end of run, after `leave`, a churner's abrupt drop).
    public var expectedCloses = 0
    /// Closes the bots did not ask for, by close code (1006: the TCP connection ended without a close frame).
    public var unexpectedCloses: [UInt16: Int] = [:]

    // MARK: Messages (payload bytes of WebSocket messages, frame headers not included)

    public var messagesIn = 0
    public var messagesOut = 0
    public var bytesIn = 0
    public var bytesOut = 0

    // MARK: Rooms and games

    public var roomsCreated = 0
    /// Rooms whose host could not create them (connection failed or `create` refused).
    public var roomsFailed = 0
    /// `welcome` messages that put a bot in a room (creates, joins and resumes).
    public var welcomes = 0
    /// Game moves and chat lines sent.
    public var moves = 0
    /// Game moves sent, by the game's name for them (`GameBot.moveNoun`: "guesses", "words").
    public var gameMoves: [String: Int] = [:]
    /// Chat lines sent on ticks without a game move (not the bot's turn, no move left, between rounds).
    public var chats = 0
    /// Game moves sent invalid on purpose (`--invalid-share`), such as words that are not words.
    public var invalidMoves = 0
    /// `new_game` messages of hosts.
    public var hostActions = 0
    /// Ticks on which the game called for a move but the bot knew none left (`BotChoice.noMoveLeft`: every
    /// word it knows was found).
    public var skippedMoves = 0
    public var patches = 0
    public var snapshots = 0
    /// `resync` messages sent after a gap (not the churners' verification resyncs).
    public var resyncs = 0
    /// Error replies the bots expected, by code: rejections of deliberately invalid words, and races such as a
    /// word found by someone else first.
    public var expectedRejections: [String: Int] = [:]
    /// Protocol errors, by kind: seq gaps, patches that do not apply, malformed or unexpected messages, resumed
    /// states that differ from a snapshot, echoes that differ from what was sent, and unexpected error replies
    /// (`error:CODE`).
    public var protocolErrors: [String: Int] = [:]
    /// Moves waiting for their patch or error (a gauge).
    public var pendingMoves = 0
    /// Moves whose patch or error never came before the run ended.
    public var unansweredMoves = 0
    /// Timed moves whose patch was not the first one after them: other members' changes came in between
    /// (in games where players move at once; in turn-based ones only a join, leave or drop can come first).
    public var movesShownByLaterPatch = 0
    /// Moves sent by a churner just before it dropped its connection (their replies are lost on purpose).
    public var abandonedMoves = 0

    // MARK: Churn

    /// Churn cycles completed (join, drop, resume, verify, leave).
    public var churnCycles = 0
    /// Connections dropped on purpose without a close frame.
    public var drops = 0
    /// Resumes with token and seq answered by a `welcome`.
    public var resumes = 0
    /// Resumes answered with the missed patches (`resumed: true`).
    public var resumedWithPatches = 0
    /// Resumes answered with the full state.
    public var resumedWithState = 0
    /// Resumed states equal to the snapshot a `resync` returned right after.
    public var resumesVerified = 0
    public var leaves = 0

    // MARK: Echo

    public var echoSent = 0
    public var echoReceived = 0
    /// Echo messages sent but not yet back (a gauge).
    public var echoInFlight = 0
    /// Fixed-rate echo: messages not sent because `--depth` were already in flight.
    public var echoSkipped = 0

    // MARK: Fan-out

    /// Messages the fanout clients sent.
    public var fanoutSent = 0
    /// Own messages that came back to their sender.
    public var fanoutReturned = 0
    /// Messages read from room-mates (every member reads every message of its room).
    public var fanoutFromRoomMates = 0
    /// Own messages sent but not yet back (a gauge).
    public var fanoutInFlight = 0
    /// Own messages skipped by a later one that came back first (each gap is also a protocol error).
    public var fanoutLost = 0

    // MARK: Latency (microseconds)

    /// From starting a connection to its opening handshake completing.
    public var connectLatency = LogLinearHistogram()
    /// From sending `create` or `join` to the `welcome`.
    public var joinLatency = LogLinearHistogram()
    /// From sending a move to the first patch after which the mover's rebuilt state shows the move.
    public var moveToPatch = LogLinearHistogram()
    /// From a move being sent to each member of its room (the mover, the other players and the spectators)
    /// reading the patch that shows it: one sample per member per timed move.
    public var patchDelivery = LogLinearHistogram()
    /// From sending a move to the `error` that refused it.
    public var moveToError = LogLinearHistogram()
    /// From sending an echo message to receiving it back.
    public var echoRoundTrip = LogLinearHistogram()
    /// From a fanout client sending a message to the room's broadcast bringing it back to that client.
    public var fanoutRoundTrip = LogLinearHistogram()

    public init() {}

    /// Adds another thread's counts (gauges add up too: each thread's own share).
    public mutating func merge(_ other: BotStats) {
        for field in Self.counts { self[keyPath: field] += other[keyPath: field] }
        for field in Self.countsByName { self[keyPath: field].merge(other[keyPath: field], uniquingKeysWith: +) }
        unexpectedCloses.merge(other.unexpectedCloses, uniquingKeysWith: +)
        for field in Self.latencies { self[keyPath: field].merge(other[keyPath: field]) }
    }

    /// Every field, by kind, for `merge`: one list to extend with a new counter (`BotStatsTests` checks that
    /// none is left out).
    static let counts: [WritableKeyPath<BotStats, Int> & Sendable] = [
        \.connectAttempts, \.connectsOpened, \.openConnections, \.expectedCloses, \.messagesIn, \.messagesOut,
        \.bytesIn, \.bytesOut, \.roomsCreated, \.roomsFailed, \.welcomes, \.moves, \.chats,
        \.invalidMoves, \.hostActions, \.skippedMoves, \.patches, \.snapshots, \.resyncs, \.pendingMoves,
        \.unansweredMoves, \.abandonedMoves, \.movesShownByLaterPatch, \.churnCycles, \.drops, \.resumes,
        \.resumedWithPatches, \.resumedWithState, \.resumesVerified, \.leaves, \.echoSent, \.echoReceived,
        \.echoInFlight, \.echoSkipped, \.fanoutSent, \.fanoutReturned, \.fanoutFromRoomMates, \.fanoutInFlight,
        \.fanoutLost
    ]
    static let countsByName: [WritableKeyPath<BotStats, [String: Int]> & Sendable] = [
        \.connectFailures, \.gameMoves, \.expectedRejections, \.protocolErrors
    ]
    static let latencies: [WritableKeyPath<BotStats, LogLinearHistogram> & Sendable] = [
        \.connectLatency, \.joinLatency, \.moveToPatch, \.moveToError, \.patchDelivery, \.echoRoundTrip, \.fanoutRoundTrip
    ]

    /// Protocol errors of every kind.
    public var protocolErrorCount: Int { protocolErrors.values.reduce(0, +) }
    public var unexpectedCloseCount: Int { unexpectedCloses.values.reduce(0, +) }
    public var connectFailureCount: Int { connectFailures.values.reduce(0, +) }

    /// A message of `bytes` payload bytes came in.
    mutating func received(bytes: Int) {
        messagesIn += 1
        bytesIn += bytes
    }

    /// A message of `bytes` payload bytes went out.
    mutating func sent(bytes: Int) {
        messagesOut += 1
        bytesOut += bytes
    }

    /// A binary message came in: the bots' endpoints speak text only.
    mutating func receivedBinary(bytes: Int) {
        received(bytes: bytes)
        protocolError("binary-message")
    }

    mutating func protocolError(_ kind: String) {
        protocolErrors[kind, default: 0] += 1
    }
}

extension BotStats {
    /// The game moves by kind in the catalog's order, for the reports: "12 guesses, 40 words".
    var gameMovesSummary: String {
        GameCatalog.bots.map { "\(gameMoves[$0.moveNoun, default: 0]) \($0.moveNoun)" }.joined(separator: ", ")
    }

    /// Where the catalog's games show accepted moves, for the reports: "game.list" for each.
    static var shownLists: String {
        GameCatalog.bots.map { "\($0.gameID).\($0.shownIn)" }.joined(separator: ", ")
    }
}
