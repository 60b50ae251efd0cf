import Transport
import WebSocket

/// Who may read `/metrics`: loopback always, the addresses and networks of `--metrics-allow`, and anyone who
/// presents `--metrics-token` as `Authorization: Bearer TOKEN`. Everyone else gets 403.
///
/// The counters tell how busy the server is, how many rooms it holds and how its clients fail: worth keeping from
/// strangers, who before this could read them from anywhere. The address is the client's as `ClientAddress`
/// resolves it, so behind a declared proxy a player is not loopback just because the proxy is.
struct MetricsGate: Sendable {
    let allowed: AddressRanges
    private let token: [UInt8]?

    static let minimumTokenLength = 16
    static let maximumTokenLength = 256

    init(allowed: AddressRanges, token: String?) {
        self.allowed = allowed
        self.token = token.map { Array($0.utf8) }
    }

    /// Why `text` cannot be a metrics token, or nil when it can: 16-256 visible ASCII characters (a Bearer
    /// token, RFC 6750 §2.1, sent in a header and written in scrape configs).
    static func problem(withToken text: String) -> String? {
        guard text.utf8.count >= minimumTokenLength else {
            return "a metrics token needs at least \(minimumTokenLength) characters"
        }
        guard text.utf8.count <= maximumTokenLength else {
            return "a metrics token can be at most \(maximumTokenLength) characters"
        }
        guard text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return "a metrics token may only hold visible ASCII characters (no spaces)"
        }
        return nil
    }

    /// nil when `request` from `address` may read the metrics; else the 403 that refuses it.
    func refusal(_ request: HTTPRequestHead, from address: String) -> HTTPResponse? {
        if ConnectionsPerAddress.isLoopback(address) || allowed.contains(address) { return nil }
        if let token, let presented = AdminToken.presented(authorization: request.value(of: "authorization"),
                                                           query: nil, allowingQuery: false),
           AdminToken.constantTimeEquals(token, Array(presented.utf8)) {
            return nil
        }
        var response = HTTPResponse.text(
            "/metrics is for the operator's monitoring: allow its address with --metrics-allow, or send the "
                + "--metrics-token as \"Authorization: Bearer TOKEN\".\n",
            status: 403)
        response.headers.append(("Cache-Control", "no-store"))
        return response
    }
}
