import Testing
import WebSocket
@testable import Transport

/// A server connection's compression state, negotiated as the event loop does it for an upgrade request
/// carrying `offer` on an endpoint using `mode`.
func negotiatedConnection(_ offer: String = "permessage-deflate; client_max_window_bits",
                          mode: WebSocketCompression = .sharedStreams(windowBits: 11),
                          sourceLocation: SourceLocation = #_sourceLocation) throws -> ConnectionCompression {
    let request = HTTPRequestHead(method: "GET", target: "/ws", headers: [("Sec-WebSocket-Extensions", offer)])
    let agreement = try #require(EventLoop.negotiateCompression(request, mode), sourceLocation: sourceLocation)
    return ConnectionCompression(server: agreement, mode: mode)
}

@Suite struct ConnectionCompressionTests {
    /// A room's stream as its `ConnectionAudience`'s group makes it: an 11-bit window.
    private func stream(windowBits: Int = 11) -> DeflateStream {
        DeflateStream(windowBits: windowBits, memoryLevel: 1)
    }

    /// The next message of `stream`, with a distinct text so its frames differ.
    private func next(_ stream: DeflateStream, _ number: Int) -> StreamFrame {
        stream.frame(text: Array(#"{"type":"patch","seq":\#(number),"ops":[]}"#.utf8))
    }

    /// zlib has no 8-bit raw deflate window: a client told `client_max_window_bits=8` sends uncompressed.
    @Test func aClientLimitedToAnEightBitWindowSendsPlain() throws {
        var agreed = PerMessageDeflate.Parameters()
        agreed.clientMaxWindowBits = .bits(8)
        let limited = ConnectionCompression(client: agreed, options: ClientCompression())
        #expect(limited.ownDeflater() == nil)
        agreed.clientMaxWindowBits = .bits(9)
        let nine = ConnectionCompression(client: agreed, options: ClientCompression())
        #expect(nine.ownDeflater() != nil)
        #expect(nine.ownWindowBits == 9)
    }

    @Test func aFreshStartIsTaken() throws {
        let connection = try negotiatedConnection()
        let frame = next(stream(), 0)
        #expect(frame.startsFresh)
        #expect(connection.takesCompressed(frame))
    }

    @Test func consecutiveMessagesOfTheStreamAreTaken() throws {
        let connection = try negotiatedConnection()
        let stream = stream()
        for number in 0..<5 {
            let frame = next(stream, number)
            #expect(frame.index == UInt64(number))
            #expect(connection.takesCompressed(frame), "message \(number)")
        }
    }

    @Test func aGapGoesPlainUntilTheNextFreshStart() throws {
        let connection = try negotiatedConnection()
        let stream = stream()
        #expect(connection.takesCompressed(next(stream, 0)))
        _ = next(stream, 1)  // missed by this connection
        #expect(!connection.takesCompressed(next(stream, 2)), "after the gap")
        #expect(!connection.takesCompressed(next(stream, 3)), "still out of step")
        stream.restart()
        let fresh = next(stream, 4)
        #expect(fresh.startsFresh)
        #expect(connection.takesCompressed(fresh))
        #expect(connection.takesCompressed(next(stream, 5)), "in step again")
    }

    @Test func anotherStreamsFrameGoesPlainUnlessItStartsFresh() throws {
        let connection = try negotiatedConnection()
        let ours = stream()
        let other = stream()
        _ = next(other, 0)
        #expect(connection.takesCompressed(next(ours, 0)))
        let theirs = next(other, 1)
        #expect(!theirs.startsFresh)
        #expect(!connection.takesCompressed(theirs))
        // A fresh start of the other stream is taken: from there the connection follows that one.
        other.restart()
        #expect(connection.takesCompressed(next(other, 2)))
        #expect(connection.takesCompressed(next(other, 3)))
        #expect(!connection.takesCompressed(next(ours, 1)), "the first stream's next message refers to its own past")
    }

    @Test func aStreamWindowLargerThanTheAgreedOneGoesPlain() throws {
        // The client limited the server's window to 10 bits (RFC 7692 §7.1.2.1): a stream of 11 cannot go to it.
        let limited = try negotiatedConnection("permessage-deflate; server_max_window_bits=10")
        let frame = next(stream(), 0)
        #expect(frame.startsFresh)
        #expect(!limited.takesCompressed(frame))
        #expect(!limited.takesSharedStreams)
        // A stream within the window is taken.
        #expect(limited.takesCompressed(next(stream(windowBits: 10), 0)))
        #expect(try negotiatedConnection("permessage-deflate; server_max_window_bits=11").takesSharedStreams)
    }

    @Test func perConnectionModeNeverTakesStreamFrames() throws {
        let echo = try negotiatedConnection(mode: .perConnection)
        let stream = stream()
        for number in 0..<3 {
            #expect(!echo.takesCompressed(next(stream, number)))
        }
        #expect(!echo.takesSharedStreams)
    }

    @Test func aPeerThatResetsItsWindowNeverTakesThem() throws {
        // server_no_context_takeover: the client's inflater forgets every message, a stream refers back.
        let resetting = try negotiatedConnection("permessage-deflate; server_no_context_takeover")
        let stream = stream()
        for number in 0..<3 {
            #expect(!resetting.takesCompressed(next(stream, number)))
        }
        #expect(!resetting.takesSharedStreams)
    }

    @Test func aStreamFrameThatWasNotCompressedGoesPlain() throws {
        let connection = try negotiatedConnection()
        let plain = StreamFrame(plain: [0x81, 0x00], compressed: [], streamID: 1, index: 0, startsFresh: true,
                                windowBits: 11, restartRequest: StreamRestartRequest())
        #expect(!connection.takesCompressed(plain))
        #expect(connection.wireForm(of: plain) == [0x81, 0x00])
    }

    @Test func theWireFormIsTheCompressedFrameInStepAndThePlainOneOtherwise() throws {
        let connection = try negotiatedConnection()
        let stream = stream()
        let first = next(stream, 0)
        #expect(connection.wireForm(of: first) == first.compressed)
        #expect(first.compressed[0] == 0xC1, "FIN, RSV1, text")
        _ = next(stream, 1)
        let afterGap = next(stream, 2)
        #expect(connection.wireForm(of: afterGap) == afterGap.plain)
        #expect(afterGap.plain[0] == 0x81, "FIN, text, RSV1 clear")
    }

    @Test func anOutOfStepFollowerMakesTheStreamStartAfresh() throws {
        let connection = try negotiatedConnection()
        let stream = stream()
        _ = next(stream, 0)
        let missed = next(stream, 1)
        #expect(!missed.startsFresh)
        #expect(connection.wireForm(of: missed) == missed.plain)
        let fresh = next(stream, 2)
        #expect(fresh.startsFresh, "the plain message raised the stream's restart request")
        #expect(connection.wireForm(of: fresh) == fresh.compressed)
        #expect(!next(stream, 3).startsFresh, "one request, one fresh start")
    }

    /// Connections that can never take the stream compressed must not ask it to restart: each of their plain
    /// messages would otherwise make the next message a fresh start, and the room's stream would lose its
    /// context at every message.
    @Test(arguments: [
        ("permessage-deflate; server_max_window_bits=10", WebSocketCompression.sharedStreams(windowBits: 11)),
        ("permessage-deflate; server_no_context_takeover", .sharedStreams(windowBits: 11)),
        ("permessage-deflate", .perConnection),
    ])
    func connectionsThatCannotFollowNeverRestartTheStream(_ offer: String, _ mode: WebSocketCompression) throws {
        let connection = try negotiatedConnection(offer, mode: mode)
        let stream = stream()
        _ = next(stream, 0)
        for number in 1..<4 {
            let frame = next(stream, number)
            #expect(!frame.startsFresh, "message \(number)")
            #expect(connection.wireForm(of: frame) == frame.plain)
        }
    }
}
