import Transport
import WebSocket

/// Who a client is, as far as limits are concerned: its socket peer, or, when that peer is a trusted proxy,
/// the address the proxy reports in `X-Forwarded-For`.
enum ClientAddress {
    /// The rightmost `X-Forwarded-For` entry that is not itself a trusted proxy: entries to its left were
    /// written by the client and cannot be believed.
    static func resolve(peer: SocketAddress, request: HTTPRequestHead, trustedProxies: AddressRanges) -> String {
        resolve(host: peer.host, request: request, trustedProxies: trustedProxies)
    }

    static func resolve(host direct: String, request: HTTPRequestHead, trustedProxies: AddressRanges) -> String {
        guard trustedProxies.contains(direct) else { return direct }
        let hops = request.headers
            .filter { $0.name.lowercased() == "x-forwarded-for" }
            .flatMap { $0.value.split(separator: ",") }
            .map { $0.trimmingSpaces() }
            .filter { !$0.isEmpty }
        for hop in hops.reversed() where !trustedProxies.contains(hop) {
            return hop
        }
        return direct
    }
}

extension Substring {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
