#if canImport(Glibc)
import Glibc
#endif

/// The addresses of this machine that others on its networks can open: the start line's `Network:` URLs, the
/// way development servers print them, so the host of a game can tell friends in the room where to go.
///
/// Only addresses of interfaces that are up, and neither loopback (127.0.0.0/8, ::1) nor link-local
/// (169.254.0.0/16, fe80::/10: they need an interface name in the URL, and browsers refuse those), nor
/// unspecified. Read through `getifaddrs(3)`; nothing is sent anywhere.
public enum InterfaceAddresses {
    /// `IFF_UP` and `IFF_LOOPBACK` of netdevice(7) (Swift's Glibc module does not import the enum's values).
    private static let interfaceUp: UInt32 = 0x1
    private static let interfaceLoopback: UInt32 = 0x8

    /// The shareable addresses in numeric form, IPv4 first, each once, in the order the system lists them.
    ///
    /// - Parameter includingIPv6: also IPv6 addresses (a server listening on `::` takes both).
    public static func shareable(includingIPv6: Bool) -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var v4: [String] = []
        var v6: [String] = []
        var entry: UnsafeMutablePointer<ifaddrs>? = first
        while let current = entry {
            defer { entry = current.pointee.ifa_next }
            let flags = current.pointee.ifa_flags
            guard flags & interfaceUp != 0, flags & interfaceLoopback == 0,
                  let address = current.pointee.ifa_addr else { continue }
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                let bytes = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                    withUnsafeBytes(of: pointer.pointee.sin_addr) { Array($0) }
                }
                if isShareable(bytes), let text = numeric(AF_INET, bytes), !v4.contains(text) { v4.append(text) }
            case AF_INET6 where includingIPv6:
                let bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                    withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
                }
                if isShareable(bytes), let text = numeric(AF_INET6, bytes), !v6.contains(text) { v6.append(text) }
            default:
                continue
            }
        }
        return v4 + v6
    }

    /// Whether an address (4 bytes for IPv4, 16 for IPv6, network order) can be opened from another machine.
    public static func isShareable(_ bytes: [UInt8]) -> Bool {
        switch bytes.count {
        case 4:
            // RFC 1122 §3.2.1.3: 0.0.0.0/8 ("this network") and 127.0.0.0/8 (loopback); RFC 3927: 169.254/16.
            return bytes[0] != 0 && bytes[0] != 127 && !(bytes[0] == 169 && bytes[1] == 254)
        case 16:
            let unspecified = bytes.allSatisfy { $0 == 0 }
            let loopback = bytes.dropLast().allSatisfy { $0 == 0 } && bytes[15] == 1
            // RFC 4291 §2.5.6: fe80::/10 is link-local; §2.5.5.2: ::ffff:0:0/96 are IPv4 addresses.
            let linkLocal = bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80
            let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
            return !unspecified && !loopback && !linkLocal && !mapped
        default:
            return false
        }
    }

    /// A URL for `address` (numeric) and `port`: IPv6 in brackets (RFC 3986 §3.2.2).
    public static func url(_ address: String, port: Int) -> String {
        address.contains(":") ? "http://[\(address)]:\(port)/" : "http://\(address):\(port)/"
    }

    private static func numeric(_ family: Int32, _ bytes: [UInt8]) -> String? {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let ok = bytes.withUnsafeBytes { raw in
            inet_ntop(family, raw.baseAddress, &text, socklen_t(text.count)) != nil
        }
        guard ok else { return nil }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
