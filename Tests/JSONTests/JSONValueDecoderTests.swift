import JSON
import Testing

@Suite struct JSONValueDecoderTests {
    let decoder = JSONValueDecoder()

    func parse(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
        try JSONParser().parse(text)
    }

    /// The error decoding `text` as `T` throws; records an issue if it decodes.
    func error<T: Decodable>(
        _ type: T.Type, _ text: String, using decoder: JSONValueDecoder = JSONValueDecoder(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> DecodingError? {
        let json = try parse(text)
        do {
            let value = try decoder.decode(type, from: json)
            Issue.record("decoded \(value) from \(text)", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    @Test func decodesAStructFromParsedText() throws {
        let players = (0..<8).map { #"{"name":"p\#($0)","points":\#($0 * 10)}"# }.joined(separator: ",")
        let text = #"{"players":[\#(players)],"title":"Room \"A\"","round":3,"ratio":0.5,"open":true,"#
            + #""letters":["a","é"],"scores":[1,-2]}"#
        #expect(try decoder.decode(BoardView.self, from: parse(text)) == BoardView.sample)
    }

    @Test func readsAbsentAndNullOptionalsAsNil() throws {
        #expect(try decoder.decode(Optionals.self, from: parse(#"{"written":null}"#))
            == Optionals(skipped: nil, written: nil))
        #expect(try decoder.decode(Optionals.self, from: parse(#"{"skipped":null,"written":2}"#))
            == Optionals(skipped: nil, written: 2))
        #expect(try decoder.decode(Optionals.self, from: parse(#"{"skipped":1,"written":2}"#))
            == Optionals(skipped: 1, written: 2))
        // decodeIfPresent still checks the type of a value that is there.
        let mismatch = try #require(try error(Optionals.self, #"{"skipped":"1","written":2}"#))
        guard case .typeMismatch(let type, let context) = mismatch else {
            Issue.record("unexpected \(mismatch)")
            return
        }
        #expect(type is Int.Type)
        #expect(pathText(context.codingPath) == "skipped")
        // decode(Int?.self) needs the key: absent is keyNotFound, not nil.
        guard case .keyNotFound(let key, _)? = try error(Optionals.self, "{}") else {
            Issue.record("absent non-optional key decoded")
            return
        }
        #expect(key.stringValue == "written")
    }

    @Test func reportsAMissingKeyAtItsObjectsPath() throws {
        let failure = try #require(try error([BoardView].self, #"[{"title":"t"}]"#))
        guard case .keyNotFound(let key, let context) = failure else {
            Issue.record("unexpected \(failure)")
            return
        }
        #expect(key.stringValue == "round")
        #expect(pathText(context.codingPath) == "[0]")
    }

    @Test func reportsATypeMismatchAtTheValuesPath() throws {
        let failure = try #require(try error(
            Move.self, #"{"nested":{"_0":{"guess":{"letter":7}}}}"#))
        guard case .typeMismatch(let type, let context) = failure else {
            Issue.record("unexpected \(failure)")
            return
        }
        #expect(type is String.Type)
        #expect(pathText(context.codingPath) == "nested._0.guess.letter")
        #expect(context.debugDescription.contains("a number"))

        let inArray = try #require(try error([[String]].self, #"[["a"],["b",false]]"#))
        guard case .typeMismatch(_, let arrayContext) = inArray else {
            Issue.record("unexpected \(inArray)")
            return
        }
        #expect(pathText(arrayContext.codingPath) == "[1].[1]")
        #expect(arrayContext.codingPath.last?.stringValue == "Index 1")

        guard case .typeMismatch(_, let objectContext)? = try error(PlayerView.self, "[1]") else {
            Issue.record("an array decoded as an object")
            return
        }
        #expect(objectContext.codingPath.isEmpty)
    }

    @Test func reportsNullWhereAValueIsNeededAsValueNotFound() throws {
        guard case .valueNotFound(let type, let context)? = try error(
            [PlayerView].self, #"[{"name":"a","points":1},{"name":null,"points":2}]"#)
        else {
            Issue.record("null decoded as a String")
            return
        }
        #expect(type is String.Type)
        #expect(pathText(context.codingPath) == "[1].name")
        guard case .valueNotFound(_, let rootContext)? = try error(PlayerView.self, "null") else {
            Issue.record("null decoded as an object")
            return
        }
        #expect(rootContext.codingPath.isEmpty)
    }

    @Test func reportsReadingPastTheEndOfAnArrayAsValueNotFound() throws {
        struct Pair: Decodable {
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                #expect(container.count == 1)
                _ = try container.decode(Int.self)
                #expect(container.isAtEnd)
                _ = try container.decode(Int.self)
            }
        }
        guard case .valueNotFound(let type, let context)? = try error([String: Pair].self, #"{"p":[1]}"#) else {
            Issue.record("read past the end")
            return
        }
        #expect(type is Int.Type)
        #expect(pathText(context.codingPath) == "p.[1]")
    }

    @Test(arguments: ["2.5", "1e30", "-1e30", "9223372036854775808"])
    func refusesNumbersThatAreNotExactIntegersAsDataCorrupted(number: String) throws {
        let failure = try #require(try error(PlayerView.self, #"{"name":"a","points":\#(number)}"#))
        guard case .dataCorrupted(let context) = failure else {
            Issue.record("unexpected \(failure)")
            return
        }
        #expect(pathText(context.codingPath) == "points")
    }

    @Test func refusesIntegersOutOfTheirTypesRange() throws {
        guard case .dataCorrupted(let context)? = try error([Int8].self, "[1,300]") else {
            Issue.record("300 decoded as Int8")
            return
        }
        #expect(pathText(context.codingPath) == "[1]")
        #expect(throws: DecodingError.self) { try decoder.decode(UInt.self, from: -1) }
        #expect(throws: DecodingError.self) { try decoder.decode(Float.self, from: 1e300) }
    }

    @Test func acceptsIntegralDoublesAsIntegersAndIntegersAsDoubles() throws {
        #expect(try decoder.decode(Int.self, from: parse("3.0")) == 3)
        #expect(try decoder.decode(Int.self, from: parse("1e3")) == 1000)
        #expect(try decoder.decode(Int8.self, from: parse("-128")) == -128)
        #expect(try decoder.decode(Double.self, from: parse("3")) == 3)
        #expect(try decoder.decode(Float.self, from: parse("0.5")) == 0.5)
        #expect(try decoder.decode([Double].self, from: parse("[1,2.5]")) == [1, 2.5])
    }

    @Test func decodesLargeInt64AndUInt64Exactly() throws {
        #expect(try decoder.decode(Int64.self, from: parse("9223372036854775807")) == .max)
        #expect(try decoder.decode(Int64.self, from: parse("-9223372036854775808")) == .min)
        // Above Int64.max the parser gives a double; UInt64 takes it when it is an exact integer.
        #expect(try decoder.decode(UInt64.self, from: parse("9223372036854775808")) == 1 << 63)
        #expect(throws: DecodingError.self) { try decoder.decode(UInt64.self, from: parse("18446744073709551616")) }
    }

    @Test func listsKeysContainsAndDecodeNil() throws {
        struct Probe: Decodable {
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingPathKeyForTests.self)
                #expect(container.allKeys.map(\.stringValue) == ["b", "a", "n"])
                #expect(container.contains(CodingPathKeyForTests(stringValue: "a")))
                #expect(!container.contains(CodingPathKeyForTests(stringValue: "z")))
                #expect(try container.decodeNil(forKey: CodingPathKeyForTests(stringValue: "n")))
                #expect(try !container.decodeNil(forKey: CodingPathKeyForTests(stringValue: "a")))
                #expect(throws: DecodingError.self) {
                    try container.decodeNil(forKey: CodingPathKeyForTests(stringValue: "z"))
                }
            }
        }
        _ = try decoder.decode(Probe.self, from: parse(#"{"b":1,"a":2,"n":null}"#))
    }

    @Test func decodesNestedAndSuperContainers() throws {
        let text = #"{"id":1,"position":{"x":2,"y":3},"tags":["t"],"super":{"name":"b","points":4},"last":false}"#
        #expect(try decoder.decode(Layered.self, from: parse(text))
            == Layered(id: 1, x: 2, y: 3, tags: ["t"], base: PlayerView(name: "b", points: 4), last: false))
        guard case .typeMismatch(_, let context)? = try error(
            Layered.self, #"{"id":1,"position":{"x":2,"y":"3"},"tags":[],"super":{"name":"b","points":4},"last":false}"#)
        else {
            Issue.record("a string decoded as y")
            return
        }
        #expect(pathText(context.codingPath) == "position.y")
        #expect(try decoder.decode(Row.self, from: parse(#"[[null,2],{"p0":["x"]}]"#))
            == Row(cells: [nil, 2], pairs: [["x"]]))
    }

    @Test func decodesDictionariesWithStringAndIntKeys() throws {
        #expect(try decoder.decode([String: Int].self, from: parse(#"{"a":1,"b":2}"#)) == ["a": 1, "b": 2])
        #expect(try decoder.decode([Int: String].self, from: parse(#"{"7":"x","-1":"y"}"#)) == [7: "x", -1: "y"])
        #expect(throws: DecodingError.self) { try decoder.decode([Int: String].self, from: parse(#"{"q":"x"}"#)) }
    }

    @Test func reportsTheTopLevelKeysNeverRead() throws {
        var unread: [String] = ["stale"]
        let json = try parse(#"{"zeta":0,"name":"a","extra":{"deep":1},"points":1,"alpha":true}"#)
        let player = try decoder.decode(PlayerView.self, from: json, unreadKeys: &unread)
        #expect(player == PlayerView(name: "a", points: 1))
        #expect(unread == ["zeta", "extra", "alpha"])
        // Keys of nested objects are not tracked; an optional member absent or read counts as read.
        _ = try decoder.decode(Optionals.self, from: parse(#"{"written":1,"skipped":null}"#), unreadKeys: &unread)
        #expect(unread.isEmpty)
        _ = try decoder.decode(Move.self, from: parse(#"{"guess":{"letter":"a","x":1}}"#), unreadKeys: &unread)
        #expect(unread.isEmpty)
        _ = try decoder.decode([Int].self, from: parse("[1]"), unreadKeys: &unread)
        #expect(unread.isEmpty)
        // A JSONValue takes every member; a super decoder reads "super".
        _ = try decoder.decode(JSONValue.self, from: parse(#"{"a":1,"b":2}"#), unreadKeys: &unread)
        #expect(unread.isEmpty)
        let layered = #"{"id":1,"position":{"x":2,"y":3},"tags":[],"super":{"name":"b","points":4},"last":true,"q":0}"#
        _ = try decoder.decode(Layered.self, from: parse(layered), unreadKeys: &unread)
        #expect(unread == ["q"])
    }

    @Test func tracksReadsThroughAWrapperDecodingItselfAsOneValue() throws {
        struct Wrapper: Decodable {
            var player: PlayerView
            init(from decoder: any Decoder) throws {
                player = try decoder.singleValueContainer().decode(PlayerView.self)
            }
        }
        var unread: [String] = []
        _ = try decoder.decode(Wrapper.self, from: parse(#"{"name":"a","points":1,"x":2}"#), unreadKeys: &unread)
        #expect(unread == ["x"])
    }

    @Test func refusesUnreadKeysWhenAsked() throws {
        var strict = JSONValueDecoder()
        strict.rejectsUnreadKeys = true
        #expect(try strict.decode(PlayerView.self, from: parse(#"{"name":"a","points":1}"#))
            == PlayerView(name: "a", points: 1))
        let failure = try #require(try error(PlayerView.self, #"{"name":"a","rounds":9,"points":1,"z":0}"#, using: strict))
        guard case .dataCorrupted(let context) = failure else {
            Issue.record("unexpected \(failure)")
            return
        }
        #expect(pathText(context.codingPath) == "rounds")
        #expect(context.debugDescription.contains("rounds"))
        // Without the option the same object decodes.
        #expect(try decoder.decode(PlayerView.self, from: parse(#"{"name":"a","rounds":9,"points":1}"#)).points == 1)
    }

    @Test func decodesJSONValuesAsTheyAre() throws {
        let json = try parse(#"{"b":[1,2.5,null],"a":{"c":"d"}}"#)
        #expect(try decoder.decode(JSONValue.self, from: json) == json)
        #expect(try decoder.decode([String: JSONValue].self, from: json)["a"] == ["c": "d"])
    }

    @Test func wrapsOtherErrorsAsDataCorrupted() throws {
        guard case .dataCorrupted(let context)? = try error(Refusing.self, "1") else {
            Issue.record("no error")
            return
        }
        #expect(context.underlyingError is Refusing.Refusal)
    }

    @Test func decodesAnotherValueFromInsideInitFrom() throws {
        struct Outer: Decodable {
            var inner: PlayerView
            var after: Int
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingPathKeyForTests.self)
                let raw = try container.decode(JSONValue.self, forKey: CodingPathKeyForTests(stringValue: "inner"))
                inner = try JSONValueDecoder().decode(PlayerView.self, from: raw)
                after = try container.decode(Int.self, forKey: CodingPathKeyForTests(stringValue: "after"))
            }
        }
        let outer = try decoder.decode([Outer].self, from: parse(#"[{"inner":{"name":"a","points":1},"after":2}]"#))
        #expect(outer.first?.inner == PlayerView(name: "a", points: 1))
        #expect(outer.first?.after == 2)
    }
}
