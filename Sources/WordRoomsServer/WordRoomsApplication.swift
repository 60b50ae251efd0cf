import JSON
import Rooms
import Transport
import WebSocket
import Runtime

/// Routes of the WordRooms server: the web client, the game socket, the lobby API, health and echo.
public final class WordRoomsApplication: HTTPApplication, Sendable {
    let staticFiles: StaticFiles?
    /// `/echo`, with `--bench-echo` only.
    let echo: EchoEndpoint?
    /// Who may read `/metrics`.
    let metricsGate: MetricsGate
    let rooms: RoomsEndpoint
    /// `/fanout/NAME`, with `--bench-fanout` only.
    let fanout: FanoutEndpoint?
    let registry: RoomRegistry
    /// Set once the transport exists (it needs the application first).
    let transport = TransportReference()

    let options: ServerOptions
    /// Set when shutdown begins, so readiness probes send traffic elsewhere.
    let stopping = Atomic<Bool>(false)
    let lobby: SharedLobby?
    /// WebSocket handshakes per client address.
    let handshakes: AddressRateLimiter
    /// `GET /api/rooms` per client address.
    let lobbyRequests: AddressRateLimiter
    /// The operator dashboard: `/admin` (the page), `/admin/api/...` and `/admin/ws`.
    let admin: AdminMonitor
    let adminRoutes: AdminRoutes
    let adminEndpoint: AdminEndpoint

    init(options: ServerOptions, staticFiles: StaticFiles?, registry: RoomRegistry, limits: GameLimits,
         lobby: SharedLobby?, adminToken: AdminToken, clock: @escaping @Sendable () -> Double) {
        self.options = options
        var pages = staticFiles
        pages?.pageHeaders = Self.pageHeaders
        self.staticFiles = pages
        self.echo = options.benchEcho
            ? EchoEndpoint(maxMessageBytes: options.maxMessageBytes, compression: options.compression) : nil
        metricsGate = MetricsGate(allowed: (try? AddressRanges(options.metricsAllow)) ?? AddressRanges(),
                                  token: options.metricsToken)
        self.rooms = RoomsEndpoint(registry: registry, limits: limits,
                                   maxMessageBytes: min(options.maxMessageBytes, 16 * 1024),
                                   perAddress: ConnectionsPerAddress(limit: options.maxConnectionsPerIP),
                                   trustedProxies: (try? AddressRanges(options.trustedProxies)) ?? AddressRanges(),
                                   failedJoins: AddressRateLimiter(perSecond: limits.failedJoinsPerSecond,
                                                                   burst: limits.failedJoinBurst),
                                   buckets: AddressBuckets(ipv6Prefix: options.ipv6Prefix),
                                   compression: options.compression
                                       ? .sharedStreams(windowBits: ConnectionAudience.windowBits) : .off)
        self.fanout = options.benchFanout ? FanoutEndpoint(maxMessageBytes: options.maxMessageBytes) : nil
        self.handshakes = AddressRateLimiter(
            perSecond: limits.handshakesPerSecond,
            burst: Self.handshakeBurst(perSecond: limits.handshakesPerSecond,
                                       connectionsPerAddress: options.maxConnectionsPerIP))
        self.lobbyRequests = AddressRateLimiter(perSecond: limits.lobbyRequestsPerSecond,
                                                burst: limits.lobbyRequestBurst)
        self.registry = registry
        self.lobby = lobby
        admin = AdminMonitor(token: adminToken, registry: registry, transport: transport, clock: clock)
        adminRoutes = AdminRoutes(monitor: admin, registry: registry)
        adminEndpoint = AdminEndpoint(monitor: admin)
    }

    /// Handshakes one address may make at once: twice the rate, or as many as it may hold open if that is more.
    ///
    /// After a deploy or a network blip every player behind one NAT (a school, an office, a café) reconnects
    /// within a second; a burst of only twice the rate would refuse most of them with 429 and stretch their
    /// return over many seconds of backoff. They could hold that many sockets anyway (`--max-connections-per-ip`
    /// caps them), so letting them all back at once costs nothing the cap does not allow; the sustained rate
    /// after the burst stays `perSecond`.
    static func handshakeBurst(perSecond: Double, connectionsPerAddress: Int) -> Double {
        max(perSecond * 2, Double(connectionsPerAddress))
    }

    /// The policies of every page (the game, `/admin`, the 404 page).
    ///
    /// `Content-Security-Policy` (W3C CSP Level 3): scripts, styles, images, sockets and fetches from this origin
    /// only (the client has no inline script, style attribute or handler; `'self'` covers the same-origin
    /// `ws:`/`wss:` sockets), no plugins, no `<base>` rewriting, forms posting here only, and no framing by
    /// another site (clickjacking). `img-src` adds `data:` for images a page builds itself.
    /// `Referrer-Policy: no-referrer`: links leaving the dashboard or a room say nothing of where they came from
    /// (the room code is in the path; the admin token travels in the fragment, which is never sent, but nothing
    /// is lost by sending no referrer at all).
    static let pageHeaders: [(name: String, value: String)] = [
        ("Content-Security-Policy",
         "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
        ("Referrer-Policy", "no-referrer"),
    ]

    /// The client's address bucket for per-address limits (the proxy's report when the peer is a trusted proxy,
    /// IPv6 by `--ipv6-prefix`); nil when a trusted proxy's `X-Forwarded-For` could not be read
    /// (see `ClientAddress.resolve`).
    func clientAddress(_ peer: SocketAddress, _ request: HTTPRequestHead) -> String? {
        ClientAddress.resolve(peer: peer, request: request, trustedProxies: rooms.trustedProxies)
            .map { rooms.buckets.key(of: $0) }
    }

    public func webSocketEndpoint(for path: String) -> (any WebSocketEndpoint)? {
        if path == "/ws" || path.hasPrefix("/ws/") { return rooms }
        if path == AdminRoutes.socketPath { return adminEndpoint }
        if let fanout, FanoutEndpoint.topicName(ofPath: path) != nil { return fanout }
        return path == "/echo" ? echo : nil
    }

    /// Browsers send `Origin`; when an allowlist is configured, other sites cannot open game sockets
    /// (clients that send no `Origin`, like the bots, are not browsers and are let through).
    public func refuseUpgrade(_ request: HTTPRequestHead, from peer: SocketAddress) -> HTTPResponse? {
        guard let address = clientAddress(peer, request) else { return ClientAddress.refusal }
        if AdminRoutes.isAdminEndpoint(request.path), let refusal = adminRoutes.refusal(request, from: address) {
            return refusal
        }
        if !options.allowedOrigins.isEmpty, let origin = request.value(of: "origin"),
           !options.allowedOrigins.contains(origin.lowercased()) {
            return .text("Origin \(origin.prefix(100)) may not open WebSocket connections to this server.", status: 403)
        }
        guard handshakes.allow(address, now: MonotonicClock.coarseSeconds()) else {
            var response = HTTPResponse.text("Too many connection attempts from your address; try again in a second.",
                                             status: 429)
            response.headers.append(("Retry-After", "1"))
            return response
        }
        return nil
    }

    public func respond(to request: HTTPRequestHead, from peer: SocketAddress) -> HTTPReply {
        guard let address = clientAddress(peer, request) else { return .now(ClientAddress.refusal) }
        if AdminRoutes.isAdminEndpoint(request.path) {
            return adminRoutes.respond(to: request, from: address)
        }
        switch request.path {
        case "/healthz":
            return .now(.text("ok\n"))
        case "/readyz":
            if stopping.load(ordering: .relaxed) { return .now(.text("stopping\n", status: 503)) }
            // New players go elsewhere while their games could not be saved; players already here play on.
            if let failure = registry.journal?.health.failure {
                return .now(.text("saving rooms fails: \(failure)\n", status: 503))
            }
            return .now(.text("ready\n"))
        case "/api/config":
            var config: JSONObject = ["publicUrl": options.publicURL.map { JSONValue($0) } ?? .null]
            config["shard"] = options.shard.map { JSONValue($0) } ?? .null
            // For the invite link of a page opened on loopback (issue 43): same port, one of these hosts.
            let addresses = clientAddress(peer, request).map { options.networkAddresses(forClient: $0) } ?? []
            config["networkAddresses"] = .array(addresses.map { JSONValue($0) })
            config["games"] = GameRegistry.catalog
            return .now(.json(JSONWriter().serialize(.object(config))))
        case "/metrics":
            if let refusal = metricsGate.refusal(request, from: address) { return .now(refusal) }
            let (registry, transport) = (registry, transport)
            return .deferred { respond in
                guard let server = transport.server else { return respond(.text("starting", status: 503)) }
                server.group.withCounters { counters in
                    registry.withCounts { rooms, created in
                        let text = MetricsReport.render(transport: counters, rooms: rooms, roomsCreated: created,
                                                        fanout: registry.fanout.snapshot, process: .current(),
                                                        journal: registry.journal?.health)
                        respond(HTTPResponse(status: 200,
                                             headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
                                             body: Array(text.utf8)))
                    }
                }
            }
        case "/api/rooms":
            return lobbyPage(request, from: peer)
        default:
            guard let staticFiles else {
                return .now(.text("This server was started without a web client directory.", status: 404))
            }
            // Client-side routes of the single-page app load the same page.
            if request.path.hasPrefix("/r/") {
                return .now(staticFiles.response(for: request, path: "/index.html"))
            }
            // The dashboard's page loads without the token and asks for it.
            if request.path == "/admin" || request.path == "/admin/" {
                return .now(staticFiles.response(for: request, path: "/admin.html"))
            }
            return .now(staticFiles.response(for: request))
        }
    }
}

/// Lets the application reach the server that runs it, which is created after it.
final class TransportReference: Sendable {
    private let storage = Mutex<SocketServer?>(nil)

    var server: SocketServer? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}

import Synchronization
