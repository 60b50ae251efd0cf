import Synchronization

/// A clock and timers that only move when told to: tests advance it instead of sleeping on real time.
///
/// `now` starts at `start` and changes only through `advance(by:)`, which runs, in deadline order, every timer
/// that falls due (a timer scheduled by a timer that runs is itself run if it falls due within the same advance).
/// Timers run on the caller's thread, outside the lock.
public final class ManualTimers: TimerScheduler, Sendable {
    private struct Timer {
        let deadline: Double
        let id: UInt64
        let body: @Sendable () -> Void
    }

    private struct State {
        var now: Double
        var nextID: UInt64 = 0
        var timers: [Timer] = []
    }

    private let state: Mutex<State>

    /// - Parameter start: The time it reads before any `advance`, in seconds.
    public init(start: Double = 1_000_000) {
        state = Mutex(State(now: start))
    }

    /// The current time, in seconds.
    public var now: Double { state.withLock { $0.now } }

    /// `now` as a clock function, for the `clock:` parameters of rooms and registries.
    public var clock: @Sendable () -> Double { { [self] in now } }

    /// Timers scheduled and not yet run or cancelled.
    public var pendingCount: Int { state.withLock { $0.timers.count } }

    @discardableResult
    public func schedule(after seconds: Double, _ body: @escaping @Sendable () -> Void) -> UInt64 {
        state.withLock { state in
            state.nextID += 1
            state.timers.append(Timer(deadline: state.now + max(0, seconds), id: state.nextID, body: body))
            return state.nextID
        }
    }

    public func cancel(_ id: UInt64) {
        state.withLock { $0.timers.removeAll { $0.id == id } }
    }

    /// Moves time on by `seconds`, running the timers that fall due on the way, each with `now` at its deadline.
    public func advance(by seconds: Double) {
        let target = state.withLock { $0.now + max(0, seconds) }
        while let body = nextDue(by: target) {
            body()
        }
        state.withLock { $0.now = max($0.now, target) }
    }

    /// Moves time on by `seconds` like `advance(by:)`, awaiting `settling` after each timer that runs.
    ///
    /// A timer's body often only starts work elsewhere (a task on a room's executor) that reads the clock and
    /// schedules the next deadline. Without the wait, the advance would move on while that work runs, the work
    /// would read a clock already past its own deadline, and a follow-up timer would land later than it should.
    public func advance(by seconds: Double, settling: () async -> Void) async {
        let target = state.withLock { $0.now + max(0, seconds) }
        await settling()
        while let body = nextDue(by: target) {
            body()
            await settling()
        }
        state.withLock { $0.now = max($0.now, target) }
    }

    /// Removes and returns the soonest timer due by `target` (ties in the order they were scheduled), with `now`
    /// moved to its deadline.
    private func nextDue(by target: Double) -> (@Sendable () -> Void)? {
        state.withLock { state in
            var soonest: Int?
            for index in state.timers.indices where state.timers[index].deadline <= target {
                if soonest.map({ state.timers[index].deadline < state.timers[$0].deadline }) ?? true {
                    soonest = index
                }
            }
            guard let soonest else { return nil }
            let timer = state.timers.remove(at: soonest)
            state.now = max(state.now, timer.deadline)
            return timer.body
        }
    }
}
