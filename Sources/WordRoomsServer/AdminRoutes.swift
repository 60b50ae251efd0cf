import JSON
import Rooms
import Transport
import Runtime
import WebSocket

/// The operator's HTTP API under `/admin/api/` and the token check of every admin path.
///
/// Every path here, and the WebSocket `/admin/ws`, answers 401 without the token: `Authorization: Bearer TOKEN`,
/// or `?token=TOKEN` for the WebSocket alone (a browser cannot set headers on one). Requests carry no bodies
/// (the transport takes none), so actions name their room and member in the path:
///
/// - `GET /admin/api/timeline`: the history the socket sends first.
/// - `GET /admin/api/rooms`: the room table.
/// - `GET /admin/api/rooms/CODE`: the room's state, members and counters.
/// - `POST /admin/api/rooms/CODE/lock`, `.../unlock`, `.../close`, `.../members/ID/remove`.
struct AdminRoutes: Sendable {
    let monitor: AdminMonitor
    let registry: RoomRegistry
    let gate: AdminGate

    init(monitor: AdminMonitor, registry: RoomRegistry) {
        self.monitor = monitor
        self.registry = registry
        gate = AdminGate(token: monitor.token)
    }

    static let apiPrefix = "/admin/api"
    static let socketPath = "/admin/ws"

    /// Whether `path` is an admin endpoint (everything but the page itself, which loads without the token).
    static func isAdminEndpoint(_ path: String) -> Bool {
        path == socketPath || path == apiPrefix || path.hasPrefix(apiPrefix + "/")
    }

    /// 401 unless `request` presents the token, 429 after too many wrong ones from `address` (see `AdminGate`).
    func refusal(_ request: HTTPRequestHead, from address: String) -> HTTPResponse? {
        gate.refusal(request, from: address, socketPath: Self.socketPath, now: MonotonicClock.coarseSeconds())
    }

    func respond(to request: HTTPRequestHead, from address: String) -> HTTPReply {
        if let refusal = refusal(request, from: address) { return .now(refusal) }
        if request.path == Self.socketPath {
            return .now(Self.error(426, "upgrade-required", "\(Self.socketPath) is a WebSocket: open it with an upgrade."))
        }
        let parts = request.path.dropFirst(Self.apiPrefix.count).split(separator: "/").map(String.init)
        let isRead = request.method == "GET" || request.method == "HEAD"
        switch parts.count {
        case 1 where parts[0] == "timeline":
            guard isRead else { return .now(Self.methodNotAllowed("GET")) }
            return .now(.json(monitor.historyJSON()))
        case 1 where parts[0] == "rooms":
            guard isRead else { return .now(Self.methodNotAllowed("GET")) }
            return .now(.json(JSONWriter().serialize(monitor.roomTable())))
        case 2 where parts[0] == "rooms":
            guard isRead else { return .now(Self.methodNotAllowed("GET")) }
            return withRoom(parts[1]) { room, respond in
                room.adminInspect { view in
                    respond(view.map { .json(JSONWriter().serialize($0)) } ?? Self.roomGone(room.code))
                }
            }
        case 3 where parts[0] == "rooms" && ["lock", "unlock", "close"].contains(parts[2]):
            guard request.method == "POST" else { return .now(Self.methodNotAllowed("POST")) }
            let action = parts[2]
            return withRoom(parts[1]) { room, respond in
                let done: @Sendable (Room.AdminOutcome) -> Void = { respond(Self.outcome($0, room: room.code)) }
                switch action {
                case "close": room.adminClose(completion: done)
                default: room.adminSetLocked(action == "lock", completion: done)
                }
            }
        case 5 where parts[0] == "rooms" && parts[2] == "members" && parts[4] == "remove":
            guard request.method == "POST" else { return .now(Self.methodNotAllowed("POST")) }
            let member = parts[3]
            return withRoom(parts[1]) { room, respond in
                room.adminRemove(member: member) { respond(Self.outcome($0, room: room.code, member: member)) }
            }
        default:
            return .now(Self.error(404, "not-found", "No admin endpoint at \(request.path.prefix(100))."))
        }
    }

    /// Finds the room named in the path, then runs `body`; 400 for a code that is not one, 404 for no such room.
    private func withRoom(_ text: String,
                          _ body: @escaping @Sendable (Room, @escaping @Sendable (HTTPResponse) -> Void) -> Void)
        -> HTTPReply
    {
        guard let code = RoomCode(text.uppercased()) else {
            return .now(Self.error(400, "bad-code", "\"\(text.prefix(16))\" is not a room code (4 letters, like QHTW)."))
        }
        let registry = registry
        return .deferred { respond in
            registry.find(code) { room in
                guard let room else { return respond(Self.roomGone(code)) }
                body(room, respond)
            }
        }
    }

    private static func outcome(_ outcome: Room.AdminOutcome, room: RoomCode, member: String = "") -> HTTPResponse {
        switch outcome {
        case .done: .json(JSONWriter().serialize(["ok": true]))
        case .roomGone: roomGone(room)
        case .noSuchMember: error(404, "no-such-player", "Room \(room) has no member \"\(member.prefix(16))\".")
        }
    }

    private static func roomGone(_ code: RoomCode) -> HTTPResponse {
        error(404, "room-not-found", "There is no room \(code) (it may have just closed).")
    }

    private static func methodNotAllowed(_ allowed: String) -> HTTPResponse {
        var response = error(405, "method-not-allowed", "Use \(allowed) here.")
        response.headers.append(("Allow", allowed == "GET" ? "GET, HEAD" : allowed))
        return response
    }

    /// `{"error": CODE, "message": ...}` with `status`.
    private static func error(_ status: Int, _ code: String, _ message: String) -> HTTPResponse {
        .json(JSONWriter().serialize(["error": JSONValue(code), "message": JSONValue(message)]), status: status)
    }
}
