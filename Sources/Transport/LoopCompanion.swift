/// Work that an event loop runs on its own thread between its I/O events, such as the rooms it hosts.
///
/// Running that work on the loop's thread instead of a thread of its own saves a thread switch and a wake-up
/// each way for every message, and frames it sends to connections of the same loop go out in the same pass.
public protocol LoopCompanion: AnyObject {
    /// Runs the work that is waiting and the timers that are due. Called on the loop's thread after each I/O
    /// event and before the loop sleeps, so keep it cheap when there is nothing to do.
    func runPending()

    /// When the companion next needs to run, in seconds on the monotonic clock (`CLOCK_MONOTONIC`): now or
    /// earlier when work is waiting, nil when nothing is scheduled. The loop sleeps no longer than that.
    func nextDeadline() -> Double?
}
