import Rooms
import Transport
import WebSocket

/// Routes of the WordRooms server: the web client, the game socket, the lobby API, health and echo.
public struct WordRoomsApplication: HTTPApplication {
    let staticFiles: StaticFiles?
    let echo: EchoEndpoint
    let rooms: RoomsEndpoint
    let registry: RoomRegistry
    /// Set once the transport exists (it needs the application first).
    let transport = TransportReference()

    init(options: ServerOptions, staticFiles: StaticFiles?, registry: RoomRegistry, limits: GameLimits) {
        self.staticFiles = staticFiles
        self.echo = EchoEndpoint(maxMessageBytes: options.maxMessageBytes)
        self.rooms = RoomsEndpoint(registry: registry, limits: limits,
                                   maxMessageBytes: min(options.maxMessageBytes, 16 * 1024))
        self.registry = registry
    }

    public func webSocketEndpoint(for path: String) -> (any WebSocketEndpoint)? {
        switch path {
        case "/ws": rooms
        case "/echo": echo
        default: nil
        }
    }

    public func respond(to request: HTTPRequestHead, from peer: SocketAddress) -> HTTPReply {
        switch request.path {
        case "/healthz":
            return .now(.text("ok\n"))
        case "/metrics":
            let (registry, transport) = (registry, transport)
            return .later {
                let counters = await transport.server?.counters() ?? TransportCounters()
                let text = MetricsReport.render(
                    transport: counters, rooms: await registry.roomCounts(), roomsCreated: await registry.roomsCreated,
                    fanout: registry.fanout.snapshot, process: .current())
                return HTTPResponse(status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
                                    body: Array(text.utf8))
            }
        case "/api/rooms":
            let registry = registry
            return .later { .json(await registry.publicRoomsJSON()) }
        default:
            guard let staticFiles else {
                return .now(.text("This server was started without a web client directory.", status: 404))
            }
            // Client-side routes of the single-page app load the same page.
            if request.path.hasPrefix("/r/") {
                return .now(staticFiles.response(for: request, path: "/index.html"))
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
