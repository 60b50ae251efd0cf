import Testing
@testable import WordRoomsServer

/// The dashboard's token: what `--admin-token` accepts, how requests present it, and the comparison.
@Suite struct AdminTokenTests {
    @Test(arguments: [
        ("short", AdminToken.Refusal.tooShort),
        (String(repeating: "a", count: 257), .tooLong),
        ("has spaces in the token", .badCharacter),
        ("slash/is/not/allowed/here", .badCharacter),
        ("ümlauts-are-not-allowed", .badCharacter),
    ])
    func refusesTokensThatAreWeakOrNeedEscaping(text: String, refusal: AdminToken.Refusal) {
        #expect(throws: refusal) { try AdminToken(parsing: text) }
    }

    @Test func acceptsUnreservedCharacters() throws {
        let token = try AdminToken(parsing: "Ops-2026.token_~abc")
        #expect(token.value == "Ops-2026.token_~abc")
    }

    @Test func randomTokensAre48HexDigitsAndDiffer() throws {
        let first = AdminToken.random(), second = AdminToken.random()
        #expect(first.value.count == 48)
        #expect(first.value.allSatisfy { $0.isHexDigit })
        #expect(first != second)
        // A generated token passes the rules a given one must pass.
        #expect(try AdminToken(parsing: first.value) == first)
    }

    @Test func descriptionNeverShowsTheToken() throws {
        let token = try AdminToken(parsing: "secret-secret-secret")
        #expect(!String(describing: token).contains("secret"))
        var options = ServerOptions()
        options.adminToken = token
        #expect(!String(describing: options).contains("secret-secret"))
    }

    @Test(arguments: [
        ("secret-secret-secret", true),
        ("secret-secret-secreT", false),
        ("secret-secret-secre", false),
        ("secret-secret-secrets", false),
        ("", false),
        ("Xecret-secret-secret", false),
    ])
    func matchesOnlyTheExactToken(candidate: String, matches: Bool) throws {
        let token = try AdminToken(parsing: "secret-secret-secret")
        #expect(token.matches(candidate) == matches)
    }

    @Test func constantTimeComparisonLooksAtLengthAndEveryByte() {
        #expect(AdminToken.constantTimeEquals([1, 2, 3], [1, 2, 3]))
        #expect(!AdminToken.constantTimeEquals([1, 2, 3], [1, 2]))
        #expect(!AdminToken.constantTimeEquals([1, 2], [1, 2, 3]))
        #expect(!AdminToken.constantTimeEquals([1, 2, 3], [1, 2, 4]))
        #expect(!AdminToken.constantTimeEquals([0, 0], [0, 0, 0]))
        #expect(AdminToken.constantTimeEquals([], []))
    }

    @Test func presentedTokenComesFromTheBearerHeader() {
        #expect(AdminToken.presented(authorization: "Bearer abc", query: nil, allowingQuery: false) == "abc")
        #expect(AdminToken.presented(authorization: "bearer  abc", query: nil, allowingQuery: false) == "abc")
        #expect(AdminToken.presented(authorization: "Basic abc", query: nil, allowingQuery: false) == nil)
        #expect(AdminToken.presented(authorization: "Bearer", query: nil, allowingQuery: false) == nil)
    }

    @Test func queryTokenCountsOnlyWhereAllowed() {
        #expect(AdminToken.presented(authorization: nil, query: "a=1&token=xyz", allowingQuery: true) == "xyz")
        #expect(AdminToken.presented(authorization: nil, query: "token=xyz", allowingQuery: false) == nil)
        #expect(AdminToken.presented(authorization: nil, query: "notoken=xyz", allowingQuery: true) == nil)
        // The header wins when both are there.
        #expect(AdminToken.presented(authorization: "Bearer h", query: "token=q", allowingQuery: true) == "h")
    }

    @Test func commandLineTakesTheTokenAndNeverEchoesABadOne() throws {
        guard case .run(let options) = try ServerOptions.parse(["--admin-token", "a-long-enough-token"]) else {
            Issue.record("expected options")
            return
        }
        #expect(options.adminToken?.value == "a-long-enough-token")
        do {
            _ = try ServerOptions.parse(["--admin-token=tiny-secret"])
            Issue.record("a short token was accepted")
        } catch {
            #expect(error.description.contains("--admin-token"))
            #expect(error.description.contains("16"))
            #expect(!error.description.contains("tiny-secret"))
        }
    }
}
