import Synchronization
import Runtime

/// An event loop's one cross-thread inbox: tasks from other threads (frames to send, closes, and the work of the
/// loop's `ThreadExecutor`) wait here under one lock, and the first one in wakes the loop through an eventfd.
///
/// A class of its own, not part of `EventLoop`, so that the executor can hold it without holding the loop: the
/// executor lives as long as the rooms on it, the loop's buffers and descriptors need not.
final class EventLoopMailbox: ThreadExecutorInbox, Sendable {
    private let tasks = Mutex<[LoopTask]>([])
    /// Watched by the loop's epoll instance; readable while the loop has been signalled and not drained it.
    let wakeFD: Int32

    init() throws(SystemError) {
        wakeFD = try Syscall.eventFD()
    }

    deinit {
        Syscall.close(wakeFD)
    }

    /// Queues `task`; from any thread but the loop's.
    func submit(_ task: LoopTask) {
        let first = tasks.withLock { tasks in
            tasks.append(task)
            return tasks.count == 1
        }
        // With tasks already waiting, the loop was signalled and has not drained them yet.
        if first { Syscall.signal(eventFD: wakeFD) }
    }

    func post(_ work: ThreadExecutor.Work) {
        submit(.work(work))
    }

    /// Takes every waiting task, swapping them into `batch` (empty, its storage reused); on the loop's thread.
    func drain(into batch: inout [LoopTask]) {
        Syscall.drain(eventFD: wakeFD)
        tasks.withLock { tasks in swap(&tasks, &batch) }
    }
}
