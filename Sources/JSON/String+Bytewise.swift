#if canImport(Glibc)
import Glibc
#endif

// Swift's `String ==` and `String.hashValue` follow Unicode canonical equivalence, so "é" (U+00E9) equals
// "e\u{301}". JSON does not: RFC 6902 §4.6 compares strings code point by code point, and RFC 8259 §8.3 says
// implementations that compare member names code unit by code unit interoperate. These helpers compare and hash
// the UTF-8 bytes instead, so two values are equal exactly when they serialize to the same bytes.

extension String {
    /// True when both strings have identical UTF-8 bytes (no Unicode normalization).
    @inline(__always)
    func bytewiseEquals(_ other: String) -> Bool {
        let lhs = utf8
        let rhs = other.utf8
        guard lhs.count == rhs.count else { return false }
        // memcmp, not `elementsEqual`: the generic byte loop showed up in profiles of every object lookup.
        let contiguous = lhs.withContiguousStorageIfAvailable { left in
            rhs.withContiguousStorageIfAvailable { right in
                left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
            }
        }
        if let contiguous, let result = contiguous {
            return result
        }
        return lhs.elementsEqual(rhs)
    }

    /// Feeds the UTF-8 bytes and their count into `hasher`, consistently with `bytewiseEquals`.
    @inline(__always)
    func hashBytes(into hasher: inout Hasher) {
        let bytes = utf8
        hasher.combine(bytes.count)
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            hasher.combine(bytes: UnsafeRawBufferPointer(buffer))
        }
        if done == nil {
            for byte in bytes {
                hasher.combine(byte)
            }
        }
    }
}
