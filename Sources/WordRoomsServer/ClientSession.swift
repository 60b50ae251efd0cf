#if canImport(Glibc)
import Glibc
#endif
import JSON
import Rooms
import Transport
import Runtime
import Synchronization

/// One game connection's state on its event loop: which room it is in, what waits while it is joining, and its
/// message budget. Parsing and validation happen here, on the loop thread, so rooms only see well-formed moves.
final class ClientSession {
    private enum Place {
        case lobby
        /// A create or join is on its way to the registry; messages wait in order.
        case entering
        case inRoom(Room)
    }

    // Declared so that the small fields fill the padding after `link` (17 bytes): every game connection has one
    // session, 152 bytes (a 160-byte malloc chunk; 232 and 240 when each kept its own copy of the limits).
    private let link: ConnectionLink
    private var subscribedToLobby = false
    /// The client sends `ping`s: once seated, the room holds it to its heartbeat (PROTOCOL.md, "Heartbeat").
    private var keepsHeartbeat = false
    /// The registry, the limits and the failed-join counter, which every session of the endpoint shares: one
    /// reference rather than a copy of `GameLimits` (64 bytes) and two more references in each.
    private let endpoint: RoomsEndpoint
    private var place = Place.lobby
    private var waiting: [ClientMessage] = []
    private var limiter: RateLimiter
    /// Messages refused by the rate limit since the last allowed one; a sustained flood ends the connection.
    private var strikes = 0
    /// The client's address (through trusted proxies), which per-address limits count.
    let address: String
    private var creations: RateLimiter

    private var registry: RoomRegistry { endpoint.registry }
    private var limits: GameLimits { endpoint.limits }
    private var failedJoins: AddressRateLimiter { endpoint.failedJoins }

    init(handle: ConnectionHandle, endpoint: RoomsEndpoint, address: String, followsBroadcastStreams: Bool = false) {
        self.address = address
        self.endpoint = endpoint
        let limits = endpoint.limits
        self.creations = RateLimiter(perSecond: limits.roomCreationsPerSecond, burst: limits.roomCreationBurst,
                                     now: MonotonicClock.coarseSeconds())
        self.link = ConnectionLink(handle: handle, takesSharedStreams: followsBroadcastStreams, address: address)
        self.limiter = RateLimiter(perSecond: limits.messagesPerSecond, burst: limits.messageBurst,
                                   now: MonotonicClock.coarseSeconds())
    }

    func received(text: UnsafeRawBufferPointer, on connection: Connection) {
        guard limiter.allow(now: MonotonicClock.coarseSeconds()) else {
            strikes += 1
            if strikes >= limits.strikesBeforeClose {
                // At once: no later message of this connection is parsed, inflated or handled.
                connection.fail(.tooManyMessages)
            } else {
                connection.send(Self.rateLimited)
            }
            return
        }
        strikes = 0
        let message: ClientMessage
        do {
            // The WebSocket session validated the text's UTF-8 before handing it over.
            message = try ClientMessage.parse(text: text)
        } catch {
            connection.send(.error(error))
            return
        }
        dispatch(message, on: connection)
    }

    private func dispatch(_ message: ClientMessage, on connection: Connection) {
        // Answered wherever the connection is: in the lobby, joining, or in a room.
        switch message {
        case .lobby(let subscribe, let game):
            subscribedToLobby = subscribe
            if subscribe { registry.subscribeLater(link, game: game) } else { registry.unsubscribeLater(link.id) }
            return
        case .ping(let id):
            connection.send(id.map(Self.pong) ?? Self.plainPong)
            // A seated member's ping is its heartbeat (PROTOCOL.md): the room closes one that stops. A ping sent
            // before the join counts from the moment the connection is seated.
            keepsHeartbeat = true
            if case .inRoom(let room) = place { room.heard(link.id) }
            return
        case .peek(let code, let client, let key):
            peek(code, client: client, key: key, on: connection)
            return
        default:
            break
        }
        if endpoint.stopping.load(ordering: .acquiring) {
            connection.send(Self.stopping(message.type))
            return
        }
        switch place {
        case .entering:
            guard waiting.count < 32 else {
                connection.send(Self.rateLimited)
                return
            }
            waiting.append(message)
        case .inRoom(let room):
            room.receive(message, from: link.id, receivedAt: MonotonicClock.seconds())
            if case .leave = message { place = .lobby }
        case .lobby:
            switch message {
            case .create(let game, let name, let isPublic, let settings, let client):
                // Per connection and per address: reconnecting does not give an address a new budget.
                let now = MonotonicClock.coarseSeconds()
                guard creations.allow(now: now), endpoint.roomCreations.allow(address, now: now) else {
                    connection.send(.error(RoomError(.creatingRoomsTooFast, move: "create")))
                    return
                }
                place = .entering
                registry.create(game, isPublic: isPublic, settings: settings, creator: link, name: name,
                                client: client) { [link] result in
                    switch result {
                    case .success(let room): ClientSession.entered(.seated(room), link: link)
                    case .failure(let error): ClientSession.entered(.refused(error), link: link)
                    }
                }
            case .join(let code, let name, let token, let lastSeq, let spectator, let client, let takeover, let key):
                guard !failedJoins.isExhausted(address, now: MonotonicClock.coarseSeconds()) else {
                    connection.send(.error(RoomError(.tooManyWrongCodes, move: "join")))
                    return
                }
                place = .entering
                // A private room without its key is not found, and counts as a wrong code.
                registry.find(code, key: key) { [link, address, failedJoins] room in
                    guard let room else {
                        _ = failedJoins.allow(address, now: MonotonicClock.coarseSeconds())
                        ClientSession.entered(.refused(RoomError(.roomNotFound, move: "join")), link: link)
                        return
                    }
                    // The room answers the joiner itself (welcome or error), then says whether it was seated:
                    // after a refusal the connection is back in the lobby and may try again.
                    room.join(link, name: name, token: token, lastSeq: lastSeq, spectator: spectator,
                              client: client, takeover: takeover) { seated in
                        ClientSession.entered(seated ? .seated(room) : .refused(nil), link: link)
                    }
                }
            default:
                connection.send(.error(RoomError(.notInRoom, move: message.type)))
            }
        }
    }

    /// How a create or join ended.
    private enum Entry: Sendable {
        case seated(Room)
        /// With the error to send, or nil when the room has already sent it.
        case refused(RoomError?)
    }

    /// `peek`: the room describes itself to the connection, or the connection hears there is no such room.
    /// Counted like joins of rooms that do not exist, so that codes cannot be enumerated this way either.
    private func peek(_ code: RoomCode, client: ClientID?, key: RoomKey?, on connection: Connection) {
        guard !failedJoins.isExhausted(address, now: MonotonicClock.coarseSeconds()) else {
            connection.send(.error(RoomError(.tooManyWrongCodes, move: "peek")))
            return
        }
        registry.find(code, key: key) { [link, address, failedJoins] room in
            guard let room else {
                _ = failedJoins.allow(address, now: MonotonicClock.coarseSeconds())
                link.send(.error(RoomError(.roomNotFound, move: "peek")))
                return
            }
            room.peek(link, client: client)
        }
    }

    /// Back on the connection's loop after a create or join: enter the room (or go back to the lobby) and replay
    /// what the client sent meanwhile. If the connection closed meanwhile, the room hears of it at once.
    private static func entered(_ entry: Entry, link: ConnectionLink) {
        link.handle.execute { connection in
            let session = connection?.context as? ClientSession
            switch entry {
            case .seated(let room):
                guard let session else {
                    room.disconnected(link.id)
                    return
                }
                session.place = .inRoom(room)
                if session.keepsHeartbeat { room.heard(link.id) }
            case .refused(let error):
                if let error { link.send(.error(error)) }
                session?.place = .lobby
            }
            if let session, let connection {
                let replay = session.waiting
                session.waiting.removeAll()
                for message in replay {
                    session.dispatch(message, on: connection)
                }
            }
        }
    }

    func closed() {
        if case .inRoom(let room) = place {
            room.disconnected(link.id)
        }
        if subscribedToLobby {
            registry.unsubscribeLater(link.id)
        }
    }

    /// `{"type":"pong","id":N}`, the heartbeat's answer.
    static func pong(_ id: Int) -> ServerMessage {
        var payload = Array(#"{"type":"pong","id":"#.utf8)
        payload.append(contentsOf: String(id).utf8)
        payload.append(UInt8(ascii: "}"))
        return ServerMessage(json: payload)
    }

    /// `{"type":"pong"}`, to a ping without an id; prepared once and framed once for every connection.
    static let plainPong = ServerMessage(json: Array(#"{"type":"pong"}"#.utf8))

    /// The commonest refusal, to a flood, prepared once (like `plainPong`).
    static let rateLimited = ServerMessage.error(RoomError(.rateLimited))
    static func stopping(_ type: String) -> ServerMessage { .error(RoomError(.serverStopping, move: type)) }
}

/// Limits on what one game connection may send.
public struct GameLimits: Sendable {
    /// `GET /api/rooms` per client address: a burst (a school's class opening the lobby together), then this rate.
    public var lobbyRequestsPerSecond: Double = 5
    public var lobbyRequestBurst: Double = 30
    public var messagesPerSecond: Double = 20
    public var messageBurst: Double = 40
    /// Consecutive refused messages before the connection is closed with 1008.
    public var strikesBeforeClose = 60
    /// Rooms one connection may create: a burst of this many, then one every 12 seconds.
    public var roomCreationBurst: Double = 5
    public var roomCreationsPerSecond: Double = 1.0 / 12
    /// Rooms one client address may create a minute, whatever its connections (`--room-creations-per-minute`),
    /// bursts of as many; loopback is not limited.
    public var roomCreationsPerAddressPerMinute: Double = 10
    /// Joins of rooms that do not exist, per client address: a burst, then a slow trickle, so room codes cannot
    /// be enumerated (234,000 codes at 1 guess every 6 seconds).
    public var failedJoinBurst: Double = 10
    public var failedJoinsPerSecond: Double = 1.0 / 6
    /// WebSocket handshakes per client address per second (burst twice that).
    public var handshakesPerSecond: Double = 20

    public init() {}
}
