#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// Fresh masking keys for client frames from the kernel's secure random source (RFC 6455 §5.3), fetched a
/// thousand at a time so that a busy client does not make one `getrandom` call per frame.
final class MaskingKeys {
    private var keys: [UInt32] = []

    func next() -> UInt32 {
        if keys.isEmpty { refill() }
        return keys.removeLast()
    }

    private func refill() {
        keys = [UInt32](repeating: 0, count: 1024)
        keys.withUnsafeMutableBytes { raw in
            var filled = 0
            while filled < raw.count {
                let n = getrandom(raw.baseAddress! + filled, raw.count - filled, 0)
                if n > 0 {
                    filled += n
                } else if errno != EINTR {
                    // getrandom cannot fail on Linux >= 3.17 once the pool is initialised; fall back to the
                    // standard library's generator (the same source) rather than send predictable keys.
                    var generator = SystemRandomNumberGenerator()
                    for index in stride(from: filled, to: raw.count, by: 1) {
                        raw[index] = UInt8.random(in: 0...255, using: &generator)
                    }
                    filled = raw.count
                }
            }
        }
    }
}

@available(*, unavailable)
extension MaskingKeys: Sendable {}
