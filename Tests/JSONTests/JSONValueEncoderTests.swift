import JSON
import Testing

@Suite struct JSONValueEncoderTests {
    let encoder = JSONValueEncoder()
    let decoder = JSONValueDecoder()

    /// The context of the `invalidValue` error that encoding `value` throws; records an issue if it encodes or
    /// fails otherwise.
    func invalidValueContext(encoding value: some Encodable,
                             sourceLocation: SourceLocation = #_sourceLocation) -> EncodingError.Context? {
        do {
            _ = try encoder.encode(value)
            Issue.record("\(value) encoded", sourceLocation: sourceLocation)
        } catch {
            guard case .invalidValue(_, let context) = error else {
                Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
                return nil
            }
            return context
        }
        return nil
    }

    /// The text `JSONWriter` makes of the encoded value.
    func text<T: Encodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        String(decoding: JSONWriter().serialize(try encoder.encode(value)), as: UTF8.self)
    }

    /// Encodes, decodes back and expects the same value.
    func expectRoundTrip<T: Codable & Equatable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let json = try encoder.encode(value)
        #expect(try decoder.decode(T.self, from: json) == value, "through \(json)", sourceLocation: sourceLocation)
    }

    @Test func writesAStructByteForByteInCodingKeysOrder() throws {
        let bytes = JSONWriter().serialize(try encoder.encode(BoardView.sample))
        let players = (0..<8).map { #"{"name":"p\#($0)","points":\#($0 * 10)}"# }.joined(separator: ",")
        // host is nil: encodeIfPresent leaves it out. ratio is a Double: written with its fraction.
        let expected = #"{"title":"Room \"A\"","round":3,"ratio":0.5,"open":true,"letters":["a","é"],"#
            + #""scores":[1,-2],"players":[\#(players)]}"#
        #expect(bytes == Array(expected.utf8))
    }

    @Test func keepsMemberOrderAsEncoded() throws {
        let json = try encoder.encode(BoardView.sample)
        let keys = try #require(json.objectValue).keys.map { $0 }
        #expect(keys == ["title", "round", "ratio", "open", "letters", "scores", "players"])
    }

    @Test func keepsIntegersAndDoublesApart() throws {
        let json = try encoder.encode(Numbers(int8: -8, uint16: 65535, int64: .max, uint64: 7, float: 0.5, double: 2))
        // `==` compares numbers by value, so the cases are checked one by one.
        guard case .integer(-8) = json["int8"], case .integer(65535) = json["uint16"],
              case .integer(.max) = json["int64"], case .integer(7) = json["uint64"],
              case .number(0.5) = json["float"], case .number(2.0) = json["double"] else {
            Issue.record("wrong number kinds: \(json)")
            return
        }
        #expect(try text(2.0) == "2.0")
        #expect(try text(2) == "2")
    }

    @Test func encodesLargeIntegersExactly() throws {
        #expect(try text(Int64.max) == "9223372036854775807")
        #expect(try text(Int64.min) == "-9223372036854775808")
        // Above Int64.max an unsigned value is a double when one holds it exactly, and refused otherwise.
        #expect(try encoder.encode(UInt64(1) << 63) == .number(9_223_372_036_854_775_808))
        #expect(throws: EncodingError.self) { try encoder.encode(UInt64.max) }
        try expectRoundTrip(Numbers(int8: .min, uint16: .max, int64: .min, uint64: 1 << 63, float: 1.5, double: -0.25))
    }

    @Test func refusesNonFiniteDoublesWithTheirPath() throws {
        var view = BoardView.sample
        view.ratio = .nan
        if let context = invalidValueContext(encoding: view) {
            #expect(pathText(context.codingPath) == "ratio")
        }
        #expect(throws: EncodingError.self) { try encoder.encode([1.0, .infinity]) }
    }

    @Test func leavesOutNilWithEncodeIfPresentAndWritesNullWithEncode() throws {
        #expect(try text(Optionals(skipped: nil, written: nil)) == #"{"written":null}"#)
        #expect(try text(Optionals(skipped: 1, written: 2)) == #"{"skipped":1,"written":2}"#)
        #expect(try text([1, nil, 3] as [Int?]) == "[1,null,3]")
        #expect(try text(Int?.none) == "null")
    }

    @Test func encodesEnumsWithAssociatedValuesAsSwiftSynthesizesThem() throws {
        #expect(try text(Move.guess(letter: "e")) == #"{"guess":{"letter":"e"}}"#)
        #expect(try text(Move.place(2, 3)) == #"{"place":{"_0":2,"_1":3}}"#)
        #expect(try text(Move.pass) == #"{"pass":{}}"#)
        #expect(try text(Move.nested(.nested(nil))) == #"{"nested":{"_0":{"nested":{}}}}"#)
        for move in [Move.guess(letter: "e"), .place(2, 3), .pass, .nested(.pass), .nested(nil)] {
            try expectRoundTrip(move)
        }
    }

    @Test func encodesArraysOfArrays() throws {
        #expect(try text([[1, 2], [], [3]]) == "[[1,2],[],[3]]")
        #expect(try text([[["a"]], [["b", "c"]]]) == #"[[["a"]],[["b","c"]]]"#)
        try expectRoundTrip([[PlayerView(name: "a", points: 1)], []])
        try expectRoundTrip([[1.5, 2], [-3]])
    }

    @Test func encodesDictionariesAsObjects() throws {
        let byName: [String: Int] = ["ann": 1, "bo": 2]
        #expect(try encoder.encode(byName) == ["ann": 1, "bo": 2])
        // Swift writes Int keys as their decimal text.
        let byID: [Int: String] = [7: "ann", -1: "bo"]
        #expect(try encoder.encode(byID) == ["7": "ann", "-1": "bo"])
        try expectRoundTrip(byName)
        try expectRoundTrip(byID)
        try expectRoundTrip(["a": [PlayerView(name: "x", points: 0)]])
    }

    @Test func fillsNestedContainersAndSuperEncodersInTheirPlaces() throws {
        let value = Layered(id: 1, x: 2, y: 3, tags: ["t", "u"], base: PlayerView(name: "b", points: 4), last: true)
        #expect(try text(value)
            == #"{"id":1,"position":{"x":2,"y":3},"tags":["t","u"],"super":{"name":"b","points":4},"last":true}"#)
        try expectRoundTrip(value)
    }

    @Test func fillsNestedContainersOfUnkeyedContainers() throws {
        let row = Row(cells: [1, nil, 3], pairs: [["a", "b"], []])
        #expect(try text(row) == #"[[1,null,3],{"p0":["a","b"],"p1":[]}]"#)
        try expectRoundTrip(row)
    }

    @Test func takesJSONValuesAsTheyAre() throws {
        struct Carrier: Codable, Equatable {
            var raw: JSONValue
            var list: [JSONValue]
        }
        let raw: JSONValue = ["b": 1, "a": [true, nil, 2.5, "s"]]
        let carrier = Carrier(raw: raw, list: [.integer(1), .number(1)])
        #expect(try text(carrier) == #"{"raw":{"b":1,"a":[true,null,2.5,"s"]},"list":[1,1.0]}"#)
        try expectRoundTrip(carrier)
        #expect(try encoder.encode(raw) == raw)
    }

    @Test func encodesTopLevelScalars() throws {
        #expect(try encoder.encode("hi") == "hi")
        #expect(try encoder.encode(true) == true)
        #expect(try encoder.encode(-3) == -3)
        #expect(try encoder.encode(Float(0.25)) == 0.25)
        #expect(try text(["x", "y"]) == #"["x","y"]"#)
    }

    @Test func wrapsOtherErrorsAsInvalidValue() throws {
        if let context = invalidValueContext(encoding: [Refusing()]) {
            #expect(context.underlyingError is Refusing.Refusal)
        }
    }

    @Test func encodesNestedValuesAfterAFailedOne() throws {
        // The reusable child encoder must not keep what a throwing encode left in it.
        struct Half: Encodable {
            var fail: Bool
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingPathKeyForTests.self)
                try container.encode(1, forKey: CodingPathKeyForTests(stringValue: "a"))
                if fail { try container.encode(Double.nan, forKey: CodingPathKeyForTests(stringValue: "b")) }
            }
        }
        struct Recovering: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.unkeyedContainer()
                #expect(throws: EncodingError.self) { try container.encode(Half(fail: true)) }
                try container.encode(Half(fail: false))
            }
        }
        #expect(try text(Recovering()) == #"[{"a":1}]"#)
    }

    @Test func encodesAnotherValueFromInsideEncodeTo() throws {
        // The thread's root encoder is in use: the inner call must get its own.
        struct Outer: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingPathKeyForTests.self)
                let inner = try JSONValueEncoder().encode(BoardView.sample.players)
                try container.encode(inner, forKey: CodingPathKeyForTests(stringValue: "inner"))
                try container.encode(1, forKey: CodingPathKeyForTests(stringValue: "after"))
            }
        }
        let json = try encoder.encode([Outer()])
        #expect(json[0]?["inner"] == (try encoder.encode(BoardView.sample.players)))
        #expect(json[0]?["after"] == 1)
    }

    @Test func encodesTheSameOnManyThreadsAtOnce() async throws {
        let expected = try encoder.encode(BoardView.sample)
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var same = true
                    for _ in 0..<50 {
                        let json = try JSONValueEncoder().encode(BoardView.sample)
                        same = same && json == expected
                    }
                    return same
                }
            }
            for try await same in group {
                #expect(same)
            }
        }
    }
}
