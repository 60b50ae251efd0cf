import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`, its standard output and standard error on pipes, its standard
/// input `/dev/null`, and no other descriptor of the test process.
///
/// Not Foundation's `Process`: in the toolchain's corelibs Foundation, `Process.run()` lists `/proc/self/fd`
/// copying each `readdir` entry whole (the declared 256-byte name, not the entry's `d_reclen`), which reads
/// past the end of glibc's directory buffer when an entry lands at its end. With the test process holding
/// hundreds of sockets that crashed the whole test run now and then (SIGSEGV in a `memcpy` inside
/// `Process.run()`), in CI on 2026-12-04. It is swift-corelibs-foundation #5472, fixed upstream in May 2026 but
/// not in the Swift 6.3.1 release this project builds with.
final class ChildProcess: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let pid: pid_t
    /// The read ends of the child's standard output and standard error.
    let output: FileHandle
    let errors: FileHandle
    private let lock = NSLock()
    private var status: Int32?

    init(executable: String, arguments: [String]) throws {
        let out = try Self.pipe()
        let err = try Self.pipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, out.write, 1)
        posix_spawn_file_actions_adddup2(&actions, err.write, 2)
        // Every other descriptor stays with the test process: a sibling's pipe leaked into this child would keep
        // that sibling's reader from ever seeing end-of-file.
        guard Self.addCloseFrom(&actions, 3) == 0 else { throw Failure(description: "addclosefrom_np failed") }

        // The test's threads block signals (libdispatch's workers do), and a spawned child inherits the mask and
        // any ignored signal: it starts with none blocked and every signal at its default.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child = pid_t()
        let result = argv.withUnsafeBufferPointer { argvBuffer in
            posix_spawn(&child, executable, &actions, &attributes, argvBuffer.baseAddress!, environ)
        }
        close(out.write)
        close(err.write)
        output = FileHandle(fileDescriptor: out.read, closeOnDealloc: true)
        errors = FileHandle(fileDescriptor: err.read, closeOnDealloc: true)
        guard result == 0 else {
            throw Failure(description: "posix_spawn \(executable): \(String(cString: strerror(result)))")
        }
        pid = child
    }

    deinit {
        // A test that failed half-way must not leave a server running or a zombie behind.
        if lock.withLock({ status == nil }) {
            kill(pid, SIGKILL)
            _ = waitForExit()
        }
    }

    func signal(_ number: Int32) {
        if lock.withLock({ status == nil }) { kill(pid, number) }
    }

    /// Waits for the child to end: its exit status, or 128 plus the signal that ended it, as a shell reports it.
    @discardableResult
    func waitForExit() -> Int32 {
        lock.lock()
        defer { lock.unlock() }
        if let status { return status }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        let ended = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        status = ended
        return ended
    }

    /// The child's standard output up to and including its first line break (or all of it, if it ends first).
    func readFirstLine() -> Data {
        var line = Data()
        while !line.contains(10) {
            let chunk = output.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        return line
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which the Glibc module leaves out
    /// because it is declared only under `_GNU_SOURCE`.
    private static let addCloseFrom: @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32 = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") else {
            fatalError("glibc 2.34 or later is needed for posix_spawn_file_actions_addclosefrom_np")
        }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    private static func pipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard Glibc.pipe(&fds) == 0 else {
            throw Failure(description: "pipe: \(String(cString: strerror(errno)))")
        }
        // Close-on-exec too, for any child not started here (each one started here closes them itself).
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }
}
