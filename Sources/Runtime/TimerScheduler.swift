/// Runs closures after a delay: what a room or the registry needs of time beyond reading a clock.
///
/// `ThreadExecutor` is the implementation the server uses (timers on real monotonic time, run on the executor's
/// thread). Tests pass one whose time they move by hand, so that grace periods and deadlines pass without
/// sleeping.
public protocol TimerScheduler: AnyObject, Sendable {
    /// Runs `body` after `seconds`, unless cancelled first. `body` may run on any thread: it should only queue
    /// work where it belongs (a room's `tick()` does).
    ///
    /// - Returns: An identifier for `cancel`.
    @discardableResult
    func schedule(after seconds: Double, _ body: @escaping @Sendable () -> Void) -> UInt64

    /// Cancels a timer that has not run yet; a timer that ran or was cancelled before is ignored.
    func cancel(_ id: UInt64)
}
