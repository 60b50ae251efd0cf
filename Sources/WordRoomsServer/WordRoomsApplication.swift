import Transport
import WebSocket

/// Routes of the WordRooms server: the web client, health check and WebSocket endpoints.
public struct WordRoomsApplication: HTTPApplication {
    let staticFiles: StaticFiles?
    let echo: EchoEndpoint

    public init(options: ServerOptions, staticFiles: StaticFiles?) {
        self.staticFiles = staticFiles
        self.echo = EchoEndpoint(maxMessageBytes: options.maxMessageBytes)
    }

    public func webSocketEndpoint(for path: String) -> (any WebSocketEndpoint)? {
        switch path {
        case "/echo": echo
        default: nil
        }
    }

    public func respond(to request: HTTPRequestHead, from peer: SocketAddress) -> HTTPReply {
        switch request.path {
        case "/healthz":
            return .now(.text("ok\n"))
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
