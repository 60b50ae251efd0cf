import JSON
import Rooms
import Transport
import WebSocket
import Runtime

/// Routes of the WordRooms server: the web client, the game socket, the lobby API, health and echo.
public final class WordRoomsApplication: HTTPApplication, Sendable {
    let staticFiles: StaticFiles?
    let echo: EchoEndpoint
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
    /// The operator dashboard: `/admin` (the page), `/admin/api/...` and `/admin/ws`.
    let admin: AdminMonitor
    let adminRoutes: AdminRoutes
    let adminEndpoint: AdminEndpoint

    init(options: ServerOptions, staticFiles: StaticFiles?, registry: RoomRegistry, limits: GameLimits,
         lobby: SharedLobby?, adminToken: AdminToken, clock: @escaping @Sendable () -> Double) {
        self.options = options
        self.staticFiles = staticFiles
        self.echo = EchoEndpoint(maxMessageBytes: options.maxMessageBytes, compression: options.compression)
        self.rooms = RoomsEndpoint(registry: registry, limits: limits,
                                   maxMessageBytes: min(options.maxMessageBytes, 16 * 1024),
                                   perAddress: ConnectionsPerAddress(limit: options.maxConnectionsPerIP),
                                   trustedProxies: (try? AddressRanges(options.trustedProxies)) ?? AddressRanges(),
                                   failedJoins: AddressRateLimiter(perSecond: limits.failedJoinsPerSecond,
                                                                   burst: limits.failedJoinBurst),
                                   buckets: AddressBuckets(ipv6Prefix: options.ipv6Prefix),
                                   compression: options.compression
                                       ? .sharedStreams(windowBits: RoomDeflateStream.windowBits) : .off)
        self.fanout = options.benchFanout ? FanoutEndpoint(maxMessageBytes: options.maxMessageBytes) : nil
        self.handshakes = AddressRateLimiter(
            perSecond: limits.handshakesPerSecond,
            burst: Self.handshakeBurst(perSecond: limits.handshakesPerSecond,
                                       connectionsPerAddress: options.maxConnectionsPerIP))
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

    /// The client's address bucket for per-address limits (the proxy's report when the peer is a trusted proxy).
    private func clientAddress(_ peer: SocketAddress, _ request: HTTPRequestHead) -> String {
        rooms.buckets.key(of: ClientAddress.resolve(peer: peer, request: request, trustedProxies: rooms.trustedProxies))
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
        if AdminRoutes.isAdminEndpoint(request.path),
           let refusal = adminRoutes.refusal(request, from: clientAddress(peer, request)) {
            return refusal
        }
        if !options.allowedOrigins.isEmpty, let origin = request.value(of: "origin"),
           !options.allowedOrigins.contains(origin.lowercased()) {
            return .text("Origin \(origin.prefix(100)) may not open WebSocket connections to this server.", status: 403)
        }
        let address = clientAddress(peer, request)
        guard handshakes.allow(address, now: MonotonicClock.coarseSeconds()) else {
            var response = HTTPResponse.text("Too many connection attempts from your address; try again in a second.",
                                             status: 429)
            response.headers.append(("Retry-After", "1"))
            return response
        }
        return nil
    }

    public func respond(to request: HTTPRequestHead, from peer: SocketAddress) -> HTTPReply {
        if AdminRoutes.isAdminEndpoint(request.path) {
            return adminRoutes.respond(to: request, from: clientAddress(peer, request))
        }
        switch request.path {
        case "/healthz":
            return .now(.text("ok\n"))
        case "/readyz":
            return .now(stopping.load(ordering: .relaxed) ? .text("stopping\n", status: 503) : .text("ready\n"))
        case "/api/config":
            var config: JSONObject = ["publicUrl": options.publicURL.map { JSONValue($0) } ?? .null]
            config["shard"] = options.shard.map { JSONValue($0) } ?? .null
            return .now(.json(JSONWriter().serialize(.object(config))))
        case "/metrics":
            let (registry, transport) = (registry, transport)
            return .deferred { respond in
                guard let server = transport.server else { return respond(.text("starting", status: 503)) }
                server.group.withCounters { counters in
                    registry.withCounts { rooms, created in
                        let text = MetricsReport.render(transport: counters, rooms: rooms, roomsCreated: created,
                                                        fanout: registry.fanout.snapshot, process: .current())
                        respond(HTTPResponse(status: 200,
                                             headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
                                             body: Array(text.utf8)))
                    }
                }
            }
        case "/api/rooms":
            let (registry, lobby) = (registry, lobby)
            return .deferred { respond in
                if let lobby {
                    lobby.withAllRoomsJSON { respond(.json($0)) }
                } else {
                    registry.withPublicRooms { rooms in respond(.json(RoomSummary.listJSON(rooms))) }
                }
            }
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
