#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// Human-readable log lines on standard error. Kept tiny on purpose: the server logs rarely (start, errors).
public enum Log {
    public static func info(_ message: String) {
        write("\(message)\n")
    }

    public static func error(_ message: String) {
        write("error: \(message)\n")
    }

    /// A line on standard output, unbuffered so a script waiting for it sees it at once.
    public static func output(_ line: String) {
        write("\(line)\n", to: 1)
    }

    private static func write(_ line: String, to fd: Int32 = 2) {
        var line = line
        line.withUTF8 { bytes in
            _ = Glibc.write(fd, bytes.baseAddress, bytes.count)
        }
    }
}
