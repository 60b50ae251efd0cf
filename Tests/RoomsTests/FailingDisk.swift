#if canImport(Glibc)
import Glibc
#endif
import Synchronization
@testable import Rooms

/// A disk that fails like a full or broken one on demand: writes (to every file, or to files whose path ends a
/// given way) return an errno, after writing part of the bytes when `shortWrites` is set; fsyncs may fail too.
final class FailingDisk: JournalDisk {
    private struct Faults {
        var writeError: Int32?
        var shortWrites = false
        var pathSuffix: String?
        var syncError: Int32?
    }

    private let faults = Mutex(Faults())

    /// Writes fail with `error` from now on (only to paths ending with `pathSuffix`, when given); with
    /// `shortWrites`, each failing write first writes half its bytes, as a disk filling up mid-record does.
    func failWrites(_ error: Int32 = ENOSPC, shortWrites: Bool = false, pathSuffix: String? = nil) {
        faults.withLock { $0 = Faults(writeError: error, shortWrites: shortWrites, pathSuffix: pathSuffix, syncError: $0.syncError) }
    }

    func failSyncs(_ error: Int32 = EIO) {
        faults.withLock { $0.syncError = error }
    }

    /// Everything works again.
    func heal() {
        faults.withLock { $0 = Faults() }
    }

    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        let faults = faults.withLock { $0 }
        guard let error = faults.writeError, faults.pathSuffix.map({ Self.path(of: fd).hasSuffix($0) }) ?? true else {
            return Glibc.write(fd, bytes.baseAddress, bytes.count)
        }
        if faults.shortWrites, bytes.count > 1 {
            return Glibc.write(fd, bytes.baseAddress, bytes.count / 2)
        }
        errno = error
        return -1
    }

    func fsync(_ fd: Int32) -> Int32 {
        if let error = faults.withLock({ $0.syncError }) {
            errno = error
            return -1
        }
        return Glibc.fsync(fd)
    }

    /// The path `fd` was opened with, from /proc.
    private static func path(of fd: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
        guard count > 0 else { return "" }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
