/// What `RoomMachine` decided to do outside itself, for the `Room` actor to carry out in order (as
/// `ConnectionMachine.Action` is for the event loop): messages to links, the journal, the timer and the registry.
///
/// Links appear as the machine knows them (`Member.link`, or the link of a join or peek); the machine never
/// calls them itself.
enum RoomEffect {
    /// Queues `message` to one link.
    case send(any ClientLink, ServerMessage)
    /// Publishes a patch to every connected member but `except`, through the room's `RoomAudience`. The
    /// recipients are the members connected when the effects run: no input changes a member's link after its
    /// publish.
    case broadcast(ServerMessage, except: UInt64?)
    /// Queues `message` to each connected member's link, outside the state (a reaction).
    case sendToEach(ServerMessage)
    /// Closes a link, saying why.
    case close(any ClientLink, CloseReason)
    /// Answers a join's `entered` callback: whether the connection is now a member.
    case entered(@Sendable (Bool) -> Void, Bool)
    /// Observes the time from a message's arrival (monotonic seconds) to now, its patch queued, in the fan-out
    /// histogram.
    case observeFanout(receivedAt: Double)
    /// The room changed: the journal saves it (it asks the room for its record later, on its executor).
    case save
    /// The room was just restored from its record: the journal counts it as saved.
    case saveRestored
    /// The room is gone: the journal drops it, at this record version.
    case forget(version: Int)
    /// Wakes the room (a `tick`) after `seconds`, replacing the timer set before.
    case schedule(after: Double)
    /// Cancels the timer set before, if any.
    case cancelTimer
    /// Publishes once the inputs queued now have been applied (`RoomMachine.publishIfQueued`).
    case publishSoon
    /// Tells the registry the room's new lobby summary.
    case summary(RoomSummary)
    /// Tells the registry the room is gone; the room lets its audience go.
    case disposed
}
