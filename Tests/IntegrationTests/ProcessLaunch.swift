import Foundation

/// Starts child processes one at a time.
///
/// A precaution, not a fix: the test process crashed twice in CI with SIGSEGV in a `memcpy` inside
/// Foundation's `Process.run()` while a crash test started its server, once before this lock and once with it,
/// so two launches at the same moment are not the (only) cause. The cause is not found yet.
enum ProcessLaunch {
    private static let lock = NSLock()

    static func run(_ process: Process) throws {
        lock.lock()
        defer { lock.unlock() }
        try process.run()
    }
}
