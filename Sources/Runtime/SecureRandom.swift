#if canImport(Glibc)
import Glibc
#endif
// getrandom(2) is declared in <sys/random.h>, which the Glibc module leaves out.
import CLinux

/// The operating system's secure random source, read with getrandom(2): what room codes, room keys, the seeds of
/// rooms and of their first secret words are drawn from, so that none can be predicted from the others.
///
/// A seeded `SplitMix64` is not enough for these: its state follows from a few of its outputs (every step is
/// invertible), so one drawn seed plus the codes handed out would tell the codes to come.
public struct SecureRandom: RandomNumberGenerator, Sendable {
    public init() {}

    /// 64 bits from getrandom(2).
    public mutating func next() -> UInt64 {
        var value: UInt64 = 0
        Self.fill(&value)
        return value
    }

    /// Fills `bytes` from getrandom(2).
    ///
    /// getrandom(2) returns at most 33,554,431 bytes per call and may return fewer after a signal, so it is
    /// called until the buffer is full; it blocks only before the kernel's pool is first initialized, at boot.
    public static func fill(_ bytes: UnsafeMutableRawBufferPointer) {
        guard var cursor = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let read = getrandom(cursor, remaining, 0)
            if read < 0 {
                // EINTR: a signal came first; nothing else can fail with a valid buffer and no flags.
                precondition(errno == EINTR, "getrandom failed: errno \(errno)")
                continue
            }
            cursor += read
            remaining -= read
        }
    }

    public static func fill<T: BitwiseCopyable>(_ value: inout T) {
        withUnsafeMutableBytes(of: &value) { fill($0) }
    }

    /// `count` bytes from getrandom(2).
    public static func bytes(_ count: Int) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: count)
        result.withUnsafeMutableBytes { fill($0) }
        return result
    }
}
