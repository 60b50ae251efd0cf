#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// A failed system call: the call's name and the `errno` it left.
public struct SystemError: Error, CustomStringConvertible, Sendable {
    public let call: String
    public let errno: Int32

    public init(_ call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    public var description: String {
        "\(call): \(String(cString: strerror(errno))) (errno \(errno))"
    }
}

/// Result of a non-blocking I/O call: "would block" is a value, not an error (NIO's `IOResult`).
enum IOResult<T> {
    case processed(T)
    case wouldBlock
}

/// Runs a syscall returning -1 on failure, retrying on EINTR.
@inline(__always)
func retryingEINTR<T: BinaryInteger>(_ call: String, _ body: () -> T) throws(SystemError) -> T {
    while true {
        let result = body()
        if result >= 0 { return result }
        let error = Glibc.errno
        if error == EINTR { continue }
        throw SystemError(call, errno: error)
    }
}

/// Like `retryingEINTR`, but EAGAIN/EWOULDBLOCK becomes `.wouldBlock`.
@inline(__always)
func nonBlocking<T: BinaryInteger>(_ call: String, _ body: () -> T) throws(SystemError) -> IOResult<T> {
    while true {
        let result = body()
        if result >= 0 { return .processed(result) }
        let error = Glibc.errno
        if error == EINTR { continue }
        if error == EAGAIN || error == EWOULDBLOCK { return .wouldBlock }
        throw SystemError(call, errno: error)
    }
}
