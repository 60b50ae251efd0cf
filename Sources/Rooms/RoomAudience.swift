/// Where a room publishes its patches: the connections of its members, reached all at once.
///
/// The room keeps the audience to its connected members (it admits a member's link when it connects, joins or
/// resumes, and dismisses it when it goes) and publishes each patch once, in order; how the message reaches the
/// links, and in what form, is the audience's business (the server frames it once for every member and
/// compresses it once for those who negotiated compression). Messages for one member (a welcome, replays, an
/// error) go to its `ClientLink` directly, never through the audience.
///
/// Called on the room's executor only.
public protocol RoomAudience: AnyObject {
    /// `link` receives every message published from now on.
    func admit(_ link: any ClientLink)
    /// The link with `linkID` receives nothing more.
    func dismiss(_ linkID: UInt64)
    /// Queues `message` to every link admitted but the one with id `except`.
    func publish(_ message: ServerMessage, except: UInt64?)
}
