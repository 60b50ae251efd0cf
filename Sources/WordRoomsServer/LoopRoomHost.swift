import Rooms
import Transport
import Runtime

/// Lets an event loop host a room executor: the loop runs the executor's work between its I/O events, so a
/// move read on a loop is applied, and its patch queued to that loop's connections, on the same thread.
final class LoopRoomHost: ThreadExecutorHost, LoopCompanion, @unchecked Sendable {
    private let loop: EventLoop
    private let executor: ThreadExecutor

    /// Attaches `executor` to `loop`; before the loop starts.
    init(loop: EventLoop, executor: ThreadExecutor) {
        self.loop = loop
        self.executor = executor
        executor.attach(to: self)
        loop.add(self)
    }

    var isCurrentThread: Bool { loop.isCurrentThread }

    func wakeUp() { loop.wakeUp() }

    func runPending() { executor.runPending() }

    func nextDeadline() -> Double? { executor.nextDeadline() }
}
