import Synchronization
import Rooms
import Transport
import WebSocket

/// `/ws`: the game socket. Each connection gets a `ClientSession`; rooms do the rest.
///
/// One instance serves every connection (each keeps a reference, not a copy: as a struct of this size, each
/// connection's copy took a heap box of its own).
final class RoomsEndpoint: WebSocketEndpoint {
    let registry: RoomRegistry
    let limits: GameLimits
    let maxMessageBytes: Int
    let perAddress: ConnectionsPerAddress
    let trustedProxies: AddressRanges
    let failedJoins: AddressRateLimiter
    /// Rooms created per client address (`--room-creations-per-minute`), whatever connection creates them.
    let roomCreations: AddressRateLimiter
    /// Turns a client address into the key every per-address limit counts (`--ipv6-prefix`).
    let buckets: AddressBuckets
    /// permessage-deflate with one context per room (`--no-compression` turns it off).
    let compression: WebSocketCompression
    /// Set by `WordRoomsServer.shutdown` before it saves the rooms: from then on no message reaches a room (each
    /// gets `server-stopping`), so that what the clients see played is what the save holds.
    let stopping = Atomic<Bool>(false)

    init(registry: RoomRegistry, limits: GameLimits, maxMessageBytes: Int, perAddress: ConnectionsPerAddress,
         trustedProxies: AddressRanges, failedJoins: AddressRateLimiter, buckets: AddressBuckets = AddressBuckets(),
         compression: WebSocketCompression) {
        self.buckets = buckets
        roomCreations = AddressRateLimiter(perSecond: limits.roomCreationsPerAddressPerMinute / 60,
                                           burst: limits.roomCreationsPerAddressPerMinute)
        self.registry = registry
        self.limits = limits
        self.maxMessageBytes = maxMessageBytes
        self.perAddress = perAddress
        self.trustedProxies = trustedProxies
        self.failedJoins = failedJoins
        self.compression = compression
    }

    func didOpen(_ connection: Connection, request: HTTPRequestHead) {
        // An unreadable X-Forwarded-For was refused before the upgrade (`refuseUpgrade`).
        let address = buckets.key(of: ClientAddress.resolve(peer: connection.peer, request: request,
                                                            trustedProxies: trustedProxies) ?? connection.peer.host)
        guard perAddress.admit(address) else {
            connection.close(.tooManyConnections)
            return
        }
        connection.context = ClientSession(handle: connection.handle, endpoint: self, address: address,
                                           followsBroadcastStreams: connection.takesSharedStreams)
    }

    func didReceiveText(_ text: UnsafeRawBufferPointer, on connection: Connection) {
        (connection.context as? ClientSession)?.received(text: text, on: connection)
    }

    func didReceiveBinary(_ data: UnsafeRawBufferPointer, on connection: Connection) {
        connection.send(.error(RoomError(.binaryMessage)))
    }

    func didClose(_ connection: Connection, code: CloseCode?) {
        guard let session = connection.context as? ClientSession else { return }
        session.closed()
        perAddress.release(session.address)
    }
}
