import Transport
import WebSocket

/// Who a client is, as far as limits are concerned: its socket peer, or, when that peer is a trusted proxy,
/// the address the proxy reports in `X-Forwarded-For`.
enum ClientAddress {
    /// The rightmost `X-Forwarded-For` entry that is not itself a trusted proxy: entries to its left were
    /// written by the client and cannot be believed.
    ///
    /// Every hop read is parsed as a numeric IPv4 or IPv6 address (bracketed IPv6 and a `:port` suffix are
    /// accepted, as some proxies write them) and returned in canonical form, so `::ffff:1.2.3.4` and `1.2.3.4`
    /// are one client. A hop that is no address (`unknown`, `127.evil`, a host name) where a trusted proxy
    /// should have written one makes the whole header unreadable: the result is nil, and the request is refused
    /// with 400 (`refusal`), rather than counted against the proxy, whose address may be loopback and exempt
    /// from limits.
    ///
    /// - Returns: the client's address; nil when a hop that must be read is not an IP address.
    static func resolve(peer: SocketAddress, request: HTTPRequestHead, trustedProxies: AddressRanges) -> String? {
        resolve(host: peer.host, request: request, trustedProxies: trustedProxies)
    }

    static func resolve(host direct: String, request: HTTPRequestHead, trustedProxies: AddressRanges) -> String? {
        guard !trustedProxies.isEmpty, trustedProxies.contains(direct) else { return direct }
        let hops = request.headers
            .filter { $0.name.lowercased() == "x-forwarded-for" }
            .flatMap { $0.value.split(separator: ",") }
            .map { $0.trimmingSpaces() }
            .filter { !$0.isEmpty }
        for hop in hops.reversed() {
            guard let address = numericAddress(hop) else { return nil }
            if !trustedProxies.contains(address) { return address }
        }
        return direct
    }

    /// The 400 for a request whose `X-Forwarded-For` could not be read (see `resolve`).
    static let refusal = HTTPResponse.text(
        "X-Forwarded-For from a trusted proxy must list IP addresses; this request's could not be read.\n",
        status: 400)

    /// `hop` as a canonical numeric address, or nil. Accepts `1.2.3.4`, `1.2.3.4:5678`, `2001:db8::1`,
    /// `[2001:db8::1]` and `[2001:db8::1]:5678`.
    static func numericAddress(_ hop: String) -> String? {
        var text = Substring(hop)
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let after = text[text.index(after: close)...]
            guard after.isEmpty || isPortSuffix(after) else { return nil }
            text = text[text.index(after: text.startIndex)..<close]
        } else if let colon = text.firstIndex(of: ":"), text.lastIndex(of: ":") == colon {
            // One colon: IPv4 with a port (an IPv6 address has at least two).
            guard isPortSuffix(text[colon...]) else { return nil }
            text = text[..<colon]
        }
        return SocketAddress(numericHost: String(text))?.host
    }

    private static func isPortSuffix(_ text: Substring) -> Bool {
        text.count >= 2 && text.count <= 6 && text.first == ":" && text.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
    }
}

extension Substring {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
