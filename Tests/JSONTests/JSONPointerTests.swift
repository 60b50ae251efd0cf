import JSON
import Testing

@Suite struct JSONPointerTests {
    /// The example document of RFC 6901 §5.
    static let rfcDocument: JSONValue = [
        "foo": ["bar", "baz"],
        "": 0,
        "a/b": 1,
        "c%d": 2,
        "e^f": 3,
        "g|h": 4,
        "i\\j": 5,
        "k\"l": 6,
        " ": 7,
        "m~n": 8,
    ]

    /// Every pointer of RFC 6901 §5 in its JSON string form, with the value it evaluates to.
    static let rfcPointers: [(String, JSONValue)] = [
        ("", rfcDocument),
        ("/foo", ["bar", "baz"]),
        ("/foo/0", "bar"),
        ("/", 0),
        ("/a~1b", 1),
        ("/c%d", 2),
        ("/e^f", 3),
        ("/g|h", 4),
        ("/i\\j", 5),
        ("/k\"l", 6),
        ("/ ", 7),
        ("/m~0n", 8),
    ]

    @Test(arguments: rfcPointers)
    func resolvesRFC6901Examples(_ text: String, _ expected: JSONValue) throws {
        let pointer = try JSONPointer(text)
        #expect(pointer.resolve(in: Self.rfcDocument) == expected)
        #expect(pointer.description == text)
    }

    @Test func resolvesTheExampleDocumentParsedFromItsRFCText() throws {
        // RFC 6901 §5 as it appears in the RFC, escapes included.
        let text = #"{"foo":["bar","baz"],"":0,"a/b":1,"c%d":2,"e^f":3,"g|h":4,"i\\j":5,"k\"l":6," ":7,"m~n":8}"#
        #expect(try JSONParser().parse(text) == Self.rfcDocument)
    }

    @Test func unescapesTildeBeforeSlash() throws {
        // RFC 6901 §4: "~01" is "~1", not "/".
        #expect(try JSONPointer("/~01").tokens == ["~1"])
        #expect(try JSONPointer("/a~1b/m~0n/~0~1").tokens == ["a/b", "m~n", "~/"])
        #expect(JSONPointer(tokens: ["a/b", "m~n", "~1"]).description == "/a~1b/m~0n/~01")
    }

    @Test func splitsEmptyTokens() throws {
        #expect(try JSONPointer("").tokens == [])
        #expect(try JSONPointer("/").tokens == [""])
        #expect(try JSONPointer("//").tokens == ["", ""])
        #expect(try JSONPointer("/a/").tokens == ["a", ""])
    }

    static let malformedPointers: [(String, JSONPointer.Error.Reason, Int)] = [
        ("a", .missingLeadingSlash, 0),
        ("foo/bar", .missingLeadingSlash, 0),
        ("/~", .invalidEscape, 1),
        ("/~2", .invalidEscape, 1),
        ("/ab/c~x", .invalidEscape, 5),
    ]

    @Test(arguments: malformedPointers)
    func rejectsMalformedPointer(_ text: String, _ reason: JSONPointer.Error.Reason, _ offset: Int) {
        #expect(throws: JSONPointer.Error.self) { try JSONPointer(text) }
        do {
            _ = try JSONPointer(text)
        } catch {
            #expect(error.reason == reason)
            #expect(error.offset == offset)
        }
    }

    @Test func namesTheProblemInItsMessage() {
        do {
            _ = try JSONPointer("/a~2")
            Issue.record("should not parse")
        } catch {
            #expect(error.description == #"invalid JSON Pointer "/a~2": '~' at byte 2 must be followed by '0' or '1'"#)
        }
    }

    static let arrayIndexTokens: [(String, Int?)] = [
        ("0", 0), ("7", 7), ("10", 10), ("123456", 123_456),
        ("01", nil), ("00", nil), ("-", nil), ("-1", nil), ("+1", nil), ("1a", nil), ("", nil), (" 1", nil),
        ("99999999999999999999", nil),
    ]

    @Test(arguments: arrayIndexTokens)
    func parsesArrayIndicesPerSection4(_ token: String, _ expected: Int?) {
        #expect(JSONPointer.arrayIndex(token) == expected)
    }

    @Test func doesNotResolveMissingOrInvalidLocations() throws {
        for text in ["/foo/2", "/foo/-", "/foo/01", "/foo/bar", "/a~1b/x", "/missing", "/m~1n"] {
            #expect(try JSONPointer(text).resolve(in: Self.rfcDocument) == nil, "\(text)")
        }
    }

    @Test func comparesTokensByBytes() {
        #expect(JSONPointer(tokens: ["\u{E9}"]) != JSONPointer(tokens: ["e\u{301}"]))
        #expect(Set([JSONPointer(tokens: ["\u{E9}"]), JSONPointer(tokens: ["e\u{301}"])]).count == 2)
    }

    @Test func buildsAndRelatesPointers() throws {
        let words = try JSONPointer("/words")
        #expect(JSONPointer(tokens: ["words", "a/b"]).description == "/words/a~1b")
        #expect(words.isProperPrefix(of: try JSONPointer("/words/3")))
        #expect(!words.isProperPrefix(of: words))
        #expect(!(try JSONPointer("/word")).isProperPrefix(of: words))
        #expect(JSONPointer.root.isProperPrefix(of: words))
    }
}
