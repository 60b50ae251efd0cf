/// What the bots of one loop counted through the reconnect storm; the loops' figures are merged for the report.
public struct AvalancheFigures: Sendable, Equatable {
    /// Bots planned (players, hosts included).
    public var bots = 0
    /// Bots in their room when the storm came: the ones that must come back.
    public var seated = 0
    /// Bots whose connection ended at least once after they were seated.
    public var lost = 0
    /// Bots back in their seat (a resumed `welcome`) after their last loss.
    public var back = 0
    /// Bots whose resume was refused (`error` to the join: the seat expired, the room is gone).
    public var refused = 0
    /// Resume latency, from the loss of the connection to the resumed `welcome`, microseconds.
    public var resumeLatency = LogLinearHistogram()
    /// Resumes answered with the missed patches (`resumed: true`).
    public var resumedWithPatches = 0
    /// Resumes answered with the whole state instead (the server no longer had the patches, or restarted).
    public var resumedWithState = 0
    /// Connection attempts after a loss, and how many of them failed (refused, timed out, HTTP 429 or 503).
    public var reconnectAttempts = 0
    public var reconnectFailures = 0
    /// Resume `join`s unanswered within `AvalancheBot.resumeTimeout`, after which the bot tried again.
    public var resumeTimeouts = 0
    /// The most attempts one bot needed to get back.
    public var mostAttempts = 0
    /// Final check: bots whose state equalled a fresh snapshot, bots whose state did not.
    public var verified = 0
    public var mismatched = 0
    /// The rooms' verdicts (room index -> every checked bot matched).
    public var rooms = AvalancheRoomCheck()

    public init() {}

    /// Adds another loop's figures.
    public mutating func merge(_ other: AvalancheFigures) {
        bots += other.bots
        seated += other.seated
        lost += other.lost
        back += other.back
        refused += other.refused
        resumeLatency.merge(other.resumeLatency)
        resumedWithPatches += other.resumedWithPatches
        resumedWithState += other.resumedWithState
        reconnectAttempts += other.reconnectAttempts
        reconnectFailures += other.reconnectFailures
        resumeTimeouts += other.resumeTimeouts
        mostAttempts = max(mostAttempts, other.mostAttempts)
        verified += other.verified
        mismatched += other.mismatched
        rooms.merge(other.rooms)
    }
}
