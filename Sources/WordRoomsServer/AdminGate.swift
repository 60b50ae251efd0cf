import Transport
import WebSocket

/// Who may use the admin endpoints: the token, and a limit on wrong tokens from one client address.
///
/// A generated token (192 bits) cannot be guessed, but an operator may choose a 16-character one; so an address
/// that presents `wrongTokenBurst` wrong tokens gets 429 for every admin request, the right token included,
/// until its bucket refills (one more try every 5 seconds). Refusing the right token too is the point: were
/// it let through, a 429 would only tell a guesser "wrong" faster. A request without any token is the page
/// asking for one, not a guess, and is not counted. Loopback is not limited, as for every other per-address
/// limit (`AddressRateLimiter`): behind a proxy, give `--trusted-proxy` so that addresses are the clients'.
struct AdminGate: Sendable {
    let token: AdminToken
    static let wrongTokenBurst = 10.0
    static let wrongTokensPerSecond = 0.2
    private let wrongTokens = AddressRateLimiter(perSecond: AdminGate.wrongTokensPerSecond,
                                                 burst: AdminGate.wrongTokenBurst)

    init(token: AdminToken) {
        self.token = token
    }

    /// nil when `request`, from `address`, may go on; else the response that refuses it (401 or 429). The
    /// query counts only on `socketPath`, the WebSocket (a browser cannot set headers on one).
    func refusal(_ request: HTTPRequestHead, from address: String, socketPath: String, now: Double) -> HTTPResponse? {
        let presented = AdminToken.presented(authorization: request.value(of: "authorization"), query: request.query,
                                             allowingQuery: request.path == socketPath)
        var response: HTTPResponse
        if presented != nil, wrongTokens.isExhausted(address, now: now) {
            response = .text("Too many wrong admin tokens from your address; try again in a few seconds.\n",
                             status: 429)
            response.headers.append(("Retry-After", "5"))
        } else if let presented {
            if token.matches(presented) { return nil }
            _ = wrongTokens.allow(address, now: now)
            response = .text("The admin token is wrong. Use the one in the server's start line, or the one given with --admin-token.\n",
                             status: 401)
            response.headers.append(("WWW-Authenticate", #"Bearer realm="WordRooms admin""#))
        } else {
            response = .text("This is an operator endpoint and needs the admin token: send the header \"Authorization: Bearer TOKEN\" (the WebSocket \(socketPath) takes ?token=TOKEN). The token is the one in the server's start line, or the one given with --admin-token.\n",
                             status: 401)
            response.headers.append(("WWW-Authenticate", #"Bearer realm="WordRooms admin""#))
        }
        response.headers.append(("Cache-Control", "no-store"))
        return response
    }
}
