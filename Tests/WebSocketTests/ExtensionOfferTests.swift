import Testing
@testable import WebSocket

@Suite struct ExtensionOfferTests {
    @Test func readsSeveralOffersWithParametersInOrder() throws {
        // What Chromium sends, then an alternative with a window limit, across two header lines.
        let offers = try ExtensionOffer.parse([
            "permessage-deflate; client_max_window_bits",
            "Permessage-Deflate; Server_Max_Window_Bits=10 ; client_no_context_takeover, x-other",
        ])
        #expect(offers == [
            ExtensionOffer(name: "permessage-deflate", parameters: [("client_max_window_bits", nil)]),
            ExtensionOffer(name: "permessage-deflate", parameters: [("server_max_window_bits", "10"),
                                                                    ("client_no_context_takeover", nil)]),
            ExtensionOffer(name: "x-other"),
        ])
    }

    @Test func quotedValuesAreUnquotedAndMayHoldCommasAndEscapes() throws {
        let offers = try ExtensionOffer.parse([#"permessage-deflate; server_max_window_bits="12", x; a="b,\"c""#])
        #expect(offers.count == 2)
        #expect(offers[0].parameters.first?.value == "12")
        #expect(offers[1].parameters.first?.value == #"b,"c"#)
    }

    @Test func emptyElementsAreIgnored() throws {
        #expect(try ExtensionOffer.parse([" , permessage-deflate ,, "]) == [ExtensionOffer(name: "permessage-deflate")])
        #expect(try ExtensionOffer.parse([""]).isEmpty)
    }

    @Test(arguments: [
        ("permessage-deflate; ", ExtensionOffer.ParseError.expectedToken(at: 20)),
        ("permessage-deflate; a=", .expectedToken(at: 22)),
        ("permessage-deflate a", .expectedToken(at: 19)),
        ("per(message)", .expectedToken(at: 3)),
        (#"permessage-deflate; a="b"#, .unterminatedQuote),
        (#"permessage-deflate; a="b\"#, .unterminatedQuote),
    ])
    func malformedHeadersAreRefused(header: String, error: ExtensionOffer.ParseError) {
        #expect(throws: error) { try ExtensionOffer.parse([header]) }
    }
}
