import Testing
import WebSocket
@testable import Transport

/// Idle connections share their loop's terms until they need state of their own.
@Suite struct SharedConnectionCompressionTests {
    /// A game socket's agreement: `permessage-deflate; client_no_context_takeover; server_max_window_bits=11`.
    static let gameAgreement: PerMessageDeflate.Agreement = {
        let offers = [ExtensionOffer(name: "permessage-deflate", parameters: [])]
        return PerMessageDeflate.accept(offers, resetClientContext: true, serverWindowBits: 11)!
    }()

    static func frame(index: UInt64, startsFresh: Bool, windowBits: Int = 11) -> StreamFrame {
        // A plain and a "compressed" text frame: the bytes do not matter to the rule, only the position.
        StreamFrame(plain: [0x81, 0x00], compressed: [0xC1, 0x01, 0x00], streamID: 7, index: index,
                    startsFresh: startsFresh, windowBits: windowBits, restartRequest: StreamRestartRequest())
    }

    @Test func aLoopSharesOneInstancePerAgreement() throws {
        let group = try EventLoopGroup(clientThreads: 1)
        defer { group.shutdown() }
        let loop = group.loops[0]
        let first = loop.sharedCompression(Self.gameAgreement, mode: .sharedStreams(windowBits: 11))
        let second = loop.sharedCompression(Self.gameAgreement, mode: .sharedStreams(windowBits: 11))
        #expect(first === second, "idle connections with the same terms hold one object between them")
        #expect(first.isShared)
        let echo = loop.sharedCompression(Self.gameAgreement, mode: .perConnection)
        #expect(echo !== first, "another mode, another instance")
    }

    @Test func unsharingGivesAFreshStateWithTheSameTerms() {
        let shared = ConnectionCompression(server: Self.gameAgreement, mode: .sharedStreams(windowBits: 11),
                                           isShared: true)
        let own = shared.unshared()
        #expect(own !== shared)
        #expect(!own.isShared)
        #expect(own.unshared() === own, "a connection's own state is its own")
        #expect(own.mode == shared.mode && own.ownWindowBits == 11 && own.peerResets && !own.ownResets)
        #expect(own.canFollow(Self.frame(index: 0, startsFresh: true)))
        #expect(own.takesCompressed(Self.frame(index: 0, startsFresh: true)))
        #expect(own.takesCompressed(Self.frame(index: 1, startsFresh: false)))
        #expect(!own.takesCompressed(Self.frame(index: 3, startsFresh: false)), "a gap puts it out of step")
        #expect(shared.canFollow(Self.frame(index: 4, startsFresh: false)), "the shared one only reads its terms")
    }

    @Test func whatNeedsStateOfItsOwn() {
        let game = ConnectionCompression(server: Self.gameAgreement, mode: .sharedStreams(windowBits: 11))
        #expect(!game.compressesOwnMessages, "game sockets send only streams compressed")
        #expect(!game.inflatesWithOwnWindow, "clients of game sockets reset their context: the loop's inflater")
        #expect(!game.canFollow(Self.frame(index: 0, startsFresh: true, windowBits: 12)), "a larger window than agreed")
        let echo = ConnectionCompression(mode: .perConnection, ownWindowBits: 15, ownResets: false,
                                         peerWindowBits: 15, peerResets: false)
        #expect(echo.compressesOwnMessages)
        #expect(echo.inflatesWithOwnWindow)
        #expect(!echo.canFollow(Self.frame(index: 0, startsFresh: true)), "streams are for game sockets")
    }
}
