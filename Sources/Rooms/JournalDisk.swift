#if canImport(Glibc)
import Glibc
#endif

/// The calls through which the journal changes its files: the system's, or a test's that fails like a full or
/// failing disk (ENOSPC, EIO) without filling one.
public protocol JournalDisk: Sendable {
    /// `write(2)`: the bytes written, or -1 with `errno` set.
    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int
    /// `fsync(2)`: 0, or -1 with `errno` set.
    func fsync(_ fd: Int32) -> Int32
}

/// The system calls themselves.
public struct SystemDisk: JournalDisk {
    public init() {}

    public func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        Glibc.write(fd, bytes.baseAddress, bytes.count)
    }

    public func fsync(_ fd: Int32) -> Int32 {
        Glibc.fsync(fd)
    }
}

extension JournalDisk {
    /// Writes all of `bytes` to `fd`, retrying on EINTR.
    ///
    /// - Returns: nil when everything was written, else the errno of the failure (ENOSPC for a write that wrote
    ///   nothing without an error). Part of the bytes may be in the file then: the caller cuts it back.
    func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if written == 0 { return ENOSPC }
            offset += written
        }
        return nil
    }

    func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
        bytes.withUnsafeBytes { writeAll(fd, $0) }
    }
}

/// An errno as people read it in a log line: `No space left on device (ENOSPC)`.
struct SystemErrorText {
    static func describe(_ code: Int32) -> String {
        let name = names[code].map { " (\($0))" } ?? " (errno \(code))"
        return String(cString: strerror(code)) + name
    }

    /// The errnos a write, fsync, rename or open of the data files can meet.
    private static let names: [Int32: String] = [
        ENOSPC: "ENOSPC", EDQUOT: "EDQUOT", EIO: "EIO", EROFS: "EROFS", EFBIG: "EFBIG", EACCES: "EACCES",
        EPERM: "EPERM", ENOENT: "ENOENT", EBADF: "EBADF", EINVAL: "EINVAL", ENOMEM: "ENOMEM", EMFILE: "EMFILE",
        ENFILE: "ENFILE", ENOTDIR: "ENOTDIR", EISDIR: "EISDIR", EEXIST: "EEXIST", EXDEV: "EXDEV",
    ]
}
