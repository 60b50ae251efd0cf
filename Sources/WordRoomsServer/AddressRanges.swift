#if canImport(Glibc)
import Glibc
#endif

/// A set of IP addresses and networks (`127.0.0.1`, `10.0.0.0/8`, `fd00::/8`), such as the trusted proxies.
struct AddressRanges: Sendable, Equatable {
    private struct Range: Sendable, Equatable {
        /// The network as 16 bytes (IPv4 as v4-mapped IPv6) and how many leading bits must match.
        var bytes: [UInt8]
        var prefix: Int
    }

    private var ranges: [Range] = []

    init() {}

    /// Parses addresses and networks.
    ///
    /// - Parameter flag: the option the entries came from, named in the error.
    /// - Throws: a `ParseError` naming the first entry that is neither.
    init(_ entries: [String], flag: String = "--trusted-proxy") throws(ServerOptions.ParseError) {
        for entry in entries {
            guard let range = Self.parse(entry) else {
                throw ServerOptions.ParseError(
                    description: "\(flag) needs numeric addresses or networks like 10.0.0.0/8, not '\(entry)'")
            }
            ranges.append(range)
        }
    }

    var isEmpty: Bool { ranges.isEmpty }

    /// Whether `address` (numeric, as `SocketAddress.host` prints it) is in one of the ranges.
    func contains(_ address: String) -> Bool {
        guard let bytes = Self.bytes(of: address) else { return false }
        return ranges.contains { range in
            var remaining = range.prefix
            for index in 0..<16 where remaining > 0 {
                let bits = min(8, remaining)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
                if bytes[index] & mask != range.bytes[index] & mask { return false }
                remaining -= bits
            }
            return true
        }
    }

    private static func parse(_ entry: String) -> Range? {
        let parts = entry.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let bytes = bytes(of: String(parts[0])) else { return nil }
        let isV4 = !parts[0].contains(":")
        let width = isV4 ? 32 : 128
        var prefix = width
        if parts.count == 2 {
            guard let value = Int(parts[1]), (0...width).contains(value) else { return nil }
            prefix = value
        }
        return Range(bytes: bytes, prefix: isV4 ? prefix + 96 : prefix)
    }

    /// 16 bytes for an IPv6 address, or the v4-mapped form of an IPv4 one.
    private static func bytes(of address: String) -> [UInt8]? {
        var result = [UInt8](repeating: 0, count: 16)
        if address.contains(":") {
            var raw = in6_addr()
            guard inet_pton(AF_INET6, address, &raw) == 1 else { return nil }
            withUnsafeBytes(of: raw) { result = Array($0) }
        } else {
            var raw = in_addr()
            guard inet_pton(AF_INET, address, &raw) == 1 else { return nil }
            result[10] = 0xFF
            result[11] = 0xFF
            withUnsafeBytes(of: raw) { result.replaceSubrange(12..<16, with: $0) }
        }
        return result
    }
}
