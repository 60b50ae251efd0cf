import Rooms
import Transport
import WebSocket

/// Routes of the WordRooms server: the web client, the game socket, the lobby API, health and echo.
public struct WordRoomsApplication: HTTPApplication {
    let staticFiles: StaticFiles?
    let echo: EchoEndpoint
    let rooms: RoomsEndpoint
    let registry: RoomRegistry

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
