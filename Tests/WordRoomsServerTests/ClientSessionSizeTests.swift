#if canImport(Glibc)
import Glibc
#endif
import Rooms
import Testing
import WebSocket
import WordGames
@testable import Transport
@testable import WordRoomsServer

/// Every game connection has a `ClientSession`: it shares the endpoint's registry, limits and counters by one
/// reference instead of copying them (Tests/Bench/README.md, "Memory").
@Suite struct ClientSessionSizeTests {
    final class NoApplication: HTTPApplication {
        func webSocketEndpoint(for path: String) -> (any WebSocketEndpoint)? { nil }
        func respond(to request: HTTPRequestHead, from peer: SocketAddress) -> HTTPReply { .now(.text("", status: 404)) }
    }

    @Test func aSessionFitsA160ByteMallocChunk() throws {
        let registry = RoomRegistry(lists: try WordLists.bundled())
        let endpoint = RoomsEndpoint(registry: registry, limits: GameLimits(), maxMessageBytes: 16_384,
                                     perAddress: ConnectionsPerAddress(limit: 10), trustedProxies: AddressRanges(),
                                     failedJoins: AddressRateLimiter(perSecond: 1, burst: 1), compression: .off)
        let loop = try EventLoop(index: 0, listenFD: -1, application: NoApplication(),
                                 configuration: TransportConfiguration())
        let session = ClientSession(handle: ConnectionHandle(loop: loop, fd: -1, generation: 1), endpoint: endpoint,
                                    address: "192.168.100.200")
        let usable = usableSize(Unmanaged.passUnretained(session).toOpaque())
        // 152 bytes, served from a 160-byte chunk; with its own copy of the limits it took 232 (a 240-byte chunk).
        #expect(usable <= 152, "a ClientSession takes \(usable) usable bytes")
    }
}

/// glibc's `malloc_usable_size` (malloc.h, which the Glibc module leaves out): the bytes an allocation can hold.
@_silgen_name("malloc_usable_size")
private func usableSize(_ pointer: UnsafeMutableRawPointer?) -> Int
