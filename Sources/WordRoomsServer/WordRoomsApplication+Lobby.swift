import Rooms
import Runtime
import Transport
import WebSocket

extension WordRoomsApplication {
    /// `GET /api/rooms?game=&offset=&limit=`: one page of the public rooms (of every instance with `--redis`),
    /// with the total and the count per game; at most `lobbyRequestsPerSecond` per address (then 429).
    ///
    /// Pages are cut from a listing built at most once per change and kept encoded (`LobbyListing.page`), so a
    /// flood of requests costs copies, not encodings, and while no room changes it never leaves the
    /// connection's loop.
    func lobbyPage(_ request: HTTPRequestHead, from peer: SocketAddress) -> HTTPReply {
        guard let address = clientAddress(peer, request) else { return .now(ClientAddress.refusal) }
        guard lobbyRequests.allow(address, now: MonotonicClock.coarseSeconds()) else {
            var response = HTTPResponse.text("Too many requests for the room list from your address; try again in "
                                             + "\(lobbyRetryAfter) s.", status: 429)
            response.headers.append(("Retry-After", String(lobbyRetryAfter)))
            return .now(response)
        }
        let query: LobbyQuery
        do {
            query = try LobbyQuery(httpQuery: request.query)
        } catch {
            return .now(.text(error.message, status: 400))
        }
        if let lobby {
            if let listing = lobby.latestListing() { return .now(.json(listing.page(query))) }
            return .deferred { respond in lobby.withListing { respond(.json($0.page(query))) } }
        }
        if let listing = registry.latestLobbyListing() { return .now(.json(listing.page(query))) }
        let registry = registry
        return .deferred { respond in registry.withLobbyListing { respond(.json($0.page(query))) } }
    }

    /// Whole seconds until a refused address has a token again.
    var lobbyRetryAfter: Int {
        max(1, Int((1 / lobbyRequests.perSecond).rounded(.up)))
    }
}
