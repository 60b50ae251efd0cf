import Testing
@testable import WebSocket

@Suite struct PerMessageDeflateTests {
    typealias Parameters = PerMessageDeflate.Parameters

    private func offers(_ header: String) throws -> [ExtensionOffer] {
        try ExtensionOffer.parse([header])
    }

    @Test func chromiumsOfferIsAcceptedAskingTheClientToResetItsContext() throws {
        let agreement = try #require(PerMessageDeflate.accept(
            try offers("permessage-deflate; client_max_window_bits"), resetClientContext: true))
        #expect(agreement.response.headerValue == "permessage-deflate; client_no_context_takeover")
        #expect(agreement.serverWindowBits == 15)
        #expect(agreement.clientWindowBits == 15)
    }

    @Test func aServerWindowLimitIsEchoedAndKept() throws {
        let agreement = try #require(PerMessageDeflate.accept(
            try offers("permessage-deflate; server_max_window_bits=10; server_no_context_takeover"),
            resetClientContext: false))
        #expect(agreement.response.headerValue == "permessage-deflate; server_no_context_takeover; server_max_window_bits=10")
        #expect(agreement.serverWindowBits == 10)
    }

    @Test func aClientWindowOfEightIsInflatedWithNine() throws {
        let agreement = try #require(PerMessageDeflate.accept(
            try offers("permessage-deflate; client_max_window_bits=8"), resetClientContext: true))
        #expect(agreement.response.clientMaxWindowBits == .bits(8))
        #expect(agreement.clientWindowBits == 9)
    }

    /// RFC 7692 §7.1: each of these declines its offer, and the next acceptable one is taken.
    @Test(arguments: [
        "permessage-deflate; unknown_parameter",
        "permessage-deflate; server_no_context_takeover; server_no_context_takeover",
        "permessage-deflate; server_no_context_takeover=1",
        "permessage-deflate; client_no_context_takeover=yes",
        "permessage-deflate; server_max_window_bits",
        "permessage-deflate; server_max_window_bits=16",
        "permessage-deflate; server_max_window_bits=7",
        "permessage-deflate; server_max_window_bits=010",
        "permessage-deflate; server_max_window_bits=\"1a\"",
        "permessage-deflate; client_max_window_bits=0",
        // A window of 8 for the server's own compression: zlib cannot produce it.
        "permessage-deflate; server_max_window_bits=8",
    ])
    func badOffersAreDeclinedForTheNextAlternative(first: String) throws {
        let agreement = try #require(PerMessageDeflate.accept(try offers(first + ", permessage-deflate; server_max_window_bits=11"),
                                                              resetClientContext: true))
        #expect(agreement.serverWindowBits == 11, "the second offer was taken")
        #expect(PerMessageDeflate.accept(try offers(first), resetClientContext: true) == nil, "alone it is declined")
    }

    @Test func quotedWindowBitsAreTokensAfterUnquoting() throws {
        let agreement = try #require(PerMessageDeflate.accept(try offers(#"permessage-deflate; server_max_window_bits="12""#),
                                                              resetClientContext: false))
        #expect(agreement.serverWindowBits == 12)
    }

    @Test func otherExtensionsArePassedOver() throws {
        #expect(PerMessageDeflate.accept(try offers("x-webkit-deflate-frame"), resetClientContext: true) == nil)
        #expect(PerMessageDeflate.accept([], resetClientContext: true) == nil)
    }

    // MARK: A server window of its own (`serverWindowBits`, §7.1.2.1)

    @Test func aPreferredServerWindowIsStatedWhenTheOfferSetsNoLimit() throws {
        let agreement = try #require(PerMessageDeflate.accept(
            try offers("permessage-deflate; client_max_window_bits"), resetClientContext: true, serverWindowBits: 11))
        #expect(agreement.response.headerValue
            == "permessage-deflate; client_no_context_takeover; server_max_window_bits=11")
        #expect(agreement.serverWindowBits == 11)
        // The client that made the offer accepts the answer (§7.1.2.1 lets the server state a limit unasked).
        var offered = Parameters()
        offered.clientMaxWindowBits = .supported
        #expect(try PerMessageDeflate.check(try offers(agreement.response.headerValue), offered: offered)
            == agreement.response)
    }

    @Test(arguments: [(9, 9), (10, 10), (11, 11), (12, 11), (15, 11)])
    func anOfferedServerLimitKeepsTheSmallerWindow(offeredLimit: Int, agreed: Int) throws {
        let agreement = try #require(PerMessageDeflate.accept(
            try offers("permessage-deflate; server_max_window_bits=\(offeredLimit)"), resetClientContext: true,
            serverWindowBits: 11))
        #expect(agreement.serverWindowBits == agreed)
        #expect(agreement.response.serverMaxWindowBits == .bits(agreed))
    }

    @Test func anOfferLimitingTheServerToEightBitsIsDeclinedWhateverItPrefers() throws {
        #expect(PerMessageDeflate.accept(try offers("permessage-deflate; server_max_window_bits=8"),
                                         resetClientContext: true, serverWindowBits: 11) == nil)
        let agreement = try #require(PerMessageDeflate.accept(
            try offers("permessage-deflate; server_max_window_bits=8, permessage-deflate"), resetClientContext: true,
            serverWindowBits: 11))
        #expect(agreement.serverWindowBits == 11, "the next offer was taken")
    }

    // MARK: The client's side

    @Test func aClientTakesAResponseThatFitsItsOffer() throws {
        var offered = Parameters()
        offered.clientMaxWindowBits = .supported
        let agreed = try PerMessageDeflate.check(try offers("permessage-deflate; client_no_context_takeover; client_max_window_bits=12"),
                                                 offered: offered)
        #expect(agreed?.clientNoContextTakeover == true)
        #expect(agreed?.clientMaxWindowBits == .bits(12))
        #expect(try PerMessageDeflate.check([], offered: offered) == nil, "no header: no extension")
    }

    /// RFC 7692 §5.1: a client fails the connection on each of these.
    @Test(arguments: [
        ("x-other", Parameters.Refusal.unexpectedExtension("x-other")),
        ("permessage-deflate, permessage-deflate", .unexpectedExtension("permessage-deflate")),
        ("permessage-deflate, x-other", .unexpectedExtension("x-other")),
        ("permessage-deflate; client_max_window_bits", .invalidValue("client_max_window_bits")),
        ("permessage-deflate; client_max_window_bits=10", .invalidValue("client_max_window_bits")),
        ("permessage-deflate; server_max_window_bits=15", .invalidValue("server_max_window_bits")),
        ("permessage-deflate; mystery", .unknownParameter("mystery")),
    ])
    func aClientRefusesAResponseBeyondItsOffer(header: String, refusal: Parameters.Refusal) throws {
        var offered = Parameters()
        offered.serverMaxWindowBits = header.contains("server_max_window_bits") ? .bits(12) : .unspecified
        #expect(throws: refusal) { try PerMessageDeflate.check(try self.offers(header), offered: offered) }
    }

    @Test func headerValuesRoundTrip() throws {
        var parameters = Parameters()
        parameters.serverNoContextTakeover = true
        parameters.clientNoContextTakeover = true
        parameters.serverMaxWindowBits = .bits(9)
        parameters.clientMaxWindowBits = .supported
        let reread = try offers(parameters.headerValue)
        #expect(try Parameters(reread[0].parameters, forOffer: true) == parameters)
    }
}
