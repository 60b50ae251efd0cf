#if canImport(Glibc)
import Glibc
#endif

/// What per-address limits count a client address as: an IPv4 address alone, an IPv6 address by its network
/// (the first `ipv6Prefix` bits, /64 by default), an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) as IPv4.
///
/// One home or one cloud instance is given a whole /64 (RFC 6177 §3 recommends at least a /56 for a site), so a
/// limit keyed by the full IPv6 address was a limit per random draw: rotating addresses within one /64 peeked
/// 8,192 room codes a second and guessed admin tokens without a lockout. Every per-address limit (handshake
/// rate, connections, rooms, members in a room, failed joins and peeks, wrong admin tokens) keys by `key(of:)`.
struct AddressBuckets: Sendable, Equatable {
    /// Leading bits of an IPv6 address that name its bucket (32-128).
    let ipv6Prefix: Int

    static let prefixRange = 32...128

    init(ipv6Prefix: Int = 64) {
        precondition(Self.prefixRange.contains(ipv6Prefix), "--ipv6-prefix is checked when parsed")
        self.ipv6Prefix = ipv6Prefix
    }

    /// The bucket of `address` (numeric, as a socket or `X-Forwarded-For` gives it): `203.0.113.5`,
    /// `2001:db8:1:2::/64`. Loopback stays `127.x.x.x` or `::1`, which the limits exempt. Text that is not a
    /// numeric address is its own bucket, unchanged.
    func key(of address: String) -> String {
        guard address.contains(":") else { return address }
        var raw = in6_addr()
        guard inet_pton(AF_INET6, address, &raw) == 1 else { return address }
        var bytes = withUnsafeBytes(of: raw) { Array($0) }
        // RFC 4291 §2.5.5.2: ::ffff:a.b.c.d is the IPv4 address a.b.c.d.
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return "\(bytes[12]).\(bytes[13]).\(bytes[14]).\(bytes[15])"
        }
        if address == "::1" || bytes == Self.loopback { return "::1" }
        guard ipv6Prefix < 128 else { return Self.text(of: bytes) }
        for index in 0..<16 {
            let kept = max(0, min(8, ipv6Prefix - index * 8))
            bytes[index] &= kept == 0 ? 0 : UInt8(truncatingIfNeeded: 0xFF << (8 - kept))
        }
        return Self.text(of: bytes) + "/\(ipv6Prefix)"
    }

    private static let loopback: [UInt8] = Array(repeating: 0, count: 15) + [1]

    /// RFC 5952's canonical text (inet_ntop's), so that every spelling of one network is one key.
    private static func text(of bytes: [UInt8]) -> String {
        var raw = in6_addr()
        withUnsafeMutableBytes(of: &raw) { $0.copyBytes(from: bytes) }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &raw, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
