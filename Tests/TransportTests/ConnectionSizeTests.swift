#if canImport(Glibc)
import Glibc
#endif
import Testing
import WebSocket
@testable import Transport

/// What an idle connection costs the server is mostly its `Connection` object (the kernel holds the socket):
/// these keep it inside one 256-byte malloc chunk, the figure behind the benchmarks' idle memory per
/// connection (Tests/Bench/README.md, "Memory").
@Suite struct ConnectionSizeTests {
    /// Answers nothing: the loop below only exists for the connection to point to.
    final class NoApplication: HTTPApplication {
        func webSocketEndpoint(for path: String) -> (any WebSocketEndpoint)? { nil }
        func respond(to request: HTTPRequestHead, from peer: SocketAddress) -> HTTPReply { .now(.text("", status: 404)) }
    }

    final class Endpoint: WebSocketEndpoint {
        let maxMessageBytes = 1_024
        func didOpen(_ connection: Connection, request: HTTPRequestHead) {}
        func didReceiveText(_ text: UnsafeRawBufferPointer, on connection: Connection) {}
        func didReceiveBinary(_ data: UnsafeRawBufferPointer, on connection: Connection) {}
        func didClose(_ connection: Connection, code: CloseCode?) {}
    }

    @Test func anOpenWebSocketConnectionFitsA256ByteMallocChunk() throws {
        let loop = try EventLoop(index: 0, listenFD: -1, application: NoApplication(),
                                 configuration: TransportConfiguration())
        let machine = ConnectionMachine(acceptedAt: 0, timeouts: ConnectionMachine.Timeouts(TransportConfiguration()),
                                        outboundLimit: 1 << 20)
        let connection = Connection(fd: -1, generation: 1, loop: loop, peer: SocketAddress(sockaddr_storage()),
                                    machine: machine)
        connection.session = WebSocketSession(role: .server, maxMessageBytes: 1_024)
        connection.endpoint = Endpoint()
        let usable = usableSize(Unmanaged.passUnretained(connection).toOpaque())
        // glibc serves a request of up to 248 bytes from a 256-byte chunk; 280 bytes (the layout before the
        // endpoint became a class reference and the small fields moved) took 288.
        #expect(usable <= 248, "a Connection takes \(usable) usable bytes")
    }

    @Test func anEndpointCostsTheConnectionOneReferenceAndAWitnessTable() {
        #expect(MemoryLayout<(any WebSocketEndpoint)?>.size == 16)
    }
}

/// glibc's `malloc_usable_size` (malloc.h, which the Glibc module leaves out): the bytes an allocation can hold.
@_silgen_name("malloc_usable_size")
private func usableSize(_ pointer: UnsafeMutableRawPointer?) -> Int
