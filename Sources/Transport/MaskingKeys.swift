#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// Fresh masking keys for client frames from the kernel's secure random source (RFC 6455 §5.3), fetched a
/// thousand at a time so that a busy client does not make one `getrandom` call per frame.
final class MaskingKeys {
    private static let batch = 1024
    /// Raw memory rather than an array: each use of an array kept in a class is a uniqueness check or a retain,
    /// and a client takes a key for every frame it sends.
    private let keys = UnsafeMutablePointer<UInt32>.allocate(capacity: batch)
    /// Keys of the batch already handed out; the batch is fetched when all were.
    private var used = batch

    deinit { keys.deallocate() }

    func next() -> UInt32 {
        if used == Self.batch {
            refill()
            used = 0
        }
        defer { used &+= 1 }
        return keys[used]
    }

    private func refill() {
        let raw = UnsafeMutableRawBufferPointer(start: UnsafeMutableRawPointer(keys),
                                                count: Self.batch * MemoryLayout<UInt32>.size)
        var filled = 0
        while filled < raw.count {
            let n = getrandom(raw.baseAddress! + filled, raw.count - filled, 0)
            if n > 0 {
                filled += n
            } else if errno != EINTR {
                // getrandom cannot fail on Linux >= 3.17 once the pool is initialised; fall back to the standard
                // library's generator (the same source) rather than send predictable keys.
                var generator = SystemRandomNumberGenerator()
                for index in stride(from: filled, to: raw.count, by: 1) {
                    raw[index] = UInt8.random(in: 0...255, using: &generator)
                }
                filled = raw.count
            }
        }
    }
}

@available(*, unavailable)
extension MaskingKeys: Sendable {}
