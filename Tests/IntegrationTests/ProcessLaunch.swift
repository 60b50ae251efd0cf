import Foundation

/// Starts child processes one at a time.
///
/// swift-corelibs-foundation's `Process.run()` is not safe to call from two threads at once: two crash tests
/// starting their servers in the same moment crashed the test process (SIGSEGV in a `memcpy` inside
/// `Process.run()`, seen once in CI). Only the launch is serialized; the processes then run side by side.
enum ProcessLaunch {
    private static let lock = NSLock()

    static func run(_ process: Process) throws {
        lock.lock()
        defer { lock.unlock() }
        try process.run()
    }
}
