/// Work with its own timekeeping that an event loop runs on its thread between its I/O events: the bots' wake-ups,
/// which keep a heap of their own rather than a closure per wake-up on the loop's `executor`.
///
/// Jobs and timers that run on the loop belong on `EventLoop.executor` (the rooms' serial executor); a companion
/// is for a client that schedules so many wake-ups that a closure each would cost more than its own heap.
public protocol LoopCompanion: AnyObject {
    /// Runs the work that is waiting and due. Called on the loop's thread after each I/O event and before the
    /// loop sleeps, so keep it cheap when there is nothing to do.
    func runPending()

    /// When the companion next needs to run, in seconds on the monotonic clock (`CLOCK_MONOTONIC`): now or
    /// earlier when work is waiting, nil when nothing is scheduled. The loop sleeps no longer than that.
    func nextDeadline() -> Double?
}
