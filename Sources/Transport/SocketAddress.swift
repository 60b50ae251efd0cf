#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// A peer's IP address and port in 20 bytes (a `sockaddr_storage` is 128), formatted only when asked:
/// connections keep one each, and idle connections must stay small.
public struct SocketAddress: Sendable, Hashable, CustomStringConvertible {
    /// IPv6 address bytes; IPv4 addresses are stored v4-mapped (`::ffff:a.b.c.d`).
    private let address: (UInt64, UInt64)
    public let port: Int

    init(_ storage: sockaddr_storage) {
        var copy = storage
        var bytes = (UInt64(0), UInt64(0))
        var port = 0
        withUnsafePointer(to: &copy) { pointer in
            if Int32(storage.ss_family) == AF_INET {
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                    let mapped = UInt64(0xFFFF) << 32 | UInt64(UInt32(bigEndian: v4.pointee.sin_addr.s_addr))
                    bytes = (0, mapped.bigEndian)
                    port = Int(UInt16(bigEndian: v4.pointee.sin_port))
                }
            } else {
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                    withUnsafeBytes(of: v6.pointee.sin6_addr) { raw in
                        bytes = (raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
                                 raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                    }
                    port = Int(UInt16(bigEndian: v6.pointee.sin6_port))
                }
            }
        }
        self.address = bytes
        self.port = port
    }

    private init(address: (UInt64, UInt64), port: Int) {
        self.address = address
        self.port = port
    }

    /// The same address with port 0: the key of per-address counts.
    public var withoutPort: SocketAddress {
        SocketAddress(address: address, port: 0)
    }

    /// The key of per-client counts: an IPv4 address alone, an IPv6 address as its network of `ipv6PrefixBits`
    /// leading bits (the rest zero, port 0). One subscriber is handed a whole /64 or more (RFC 6177), so counting
    /// IPv6 addresses one by one would let one client rotate through 2^64 of them.
    public func network(ipv6PrefixBits: Int) -> SocketAddress {
        let bits = min(128, max(0, ipv6PrefixBits))
        guard !isIPv4, bits < 128 else { return withoutPort }
        // The bytes are stored in network order; as big-endian numbers the leading bits are the high ones.
        func masked(_ word: UInt64, keeping count: Int) -> UInt64 {
            let value = UInt64(bigEndian: word)
            let kept = count <= 0 ? 0 : count >= 64 ? value : value & ~(UInt64.max >> UInt64(count))
            return kept.bigEndian
        }
        return SocketAddress(address: (masked(address.0, keeping: bits), masked(address.1, keeping: bits - 64)),
                             port: 0)
    }

    public static func == (lhs: SocketAddress, rhs: SocketAddress) -> Bool {
        lhs.address == rhs.address && lhs.port == rhs.port
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(address.0)
        hasher.combine(address.1)
        hasher.combine(port)
    }

    /// True for IPv4 peers (including IPv4 clients of a dual-stack socket).
    public var isIPv4: Bool {
        address.0 == 0 && UInt64(bigEndian: address.1) >> 32 == 0xFFFF
    }

    /// The address without the port, e.g. `127.0.0.1` or `::1`.
    public var host: String {
        if isIPv4 {
            let value = UInt32(truncatingIfNeeded: UInt64(bigEndian: address.1))
            return "\(value >> 24).\(value >> 16 & 0xFF).\(value >> 8 & 0xFF).\(value & 0xFF)"
        }
        var raw = in6_addr()
        withUnsafeMutableBytes(of: &raw) { buffer in
            buffer.storeBytes(of: address.0, toByteOffset: 0, as: UInt64.self)
            buffer.storeBytes(of: address.1, toByteOffset: 8, as: UInt64.self)
        }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A numeric IPv4 or IPv6 address as `inet_pton` reads it (no port, brackets or zone; IPv4 only in
    /// dotted-decimal with four parts), with port 0; nil for anything else, such as a host name or `127.evil`.
    public init?(numericHost text: String) {
        guard let (storage, _, _) = Self.numeric(host: text, port: 0) else { return nil }
        self.init(storage)
    }

    /// Whether this is a loopback address, tested on the bytes: IPv4 127.0.0.0/8 (RFC 1122 §3.2.1.3), also
    /// v4-mapped, and IPv6 `::1` (RFC 4291 §2.5.3).
    public var isLoopback: Bool {
        if isIPv4 { return UInt64(bigEndian: address.1) >> 24 & 0xFF == 127 }
        return address.0 == 0 && UInt64(bigEndian: address.1) == 1
    }

    public var description: String {
        isIPv4 ? "\(host):\(port)" : "[\(host)]:\(port)"
    }
}
