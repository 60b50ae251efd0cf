import JSON
import Testing

@Suite struct JSONValueTests {
    @Test func buildsFromLiterals() {
        let value: JSONValue = ["type": "guess", "word": "owl", "count": 3, "ratio": 0.5, "ok": true, "none": nil,
                                "list": [1, "a"]]
        #expect(value["type"] == .string("guess"))
        #expect(value["count"] == .integer(3))
        #expect(value["ratio"] == .number(0.5))
        #expect(value["ok"] == .bool(true))
        #expect(value["none"] == .null)
        #expect(value["list"] == .array([.integer(1), .string("a")]))
    }

    @Test func readsThroughAccessors() {
        let message: JSONValue = ["type": "guess", "n": 42, "big": 3.0, "half": 2.5, "items": [1], "flag": false]
        #expect(message["type"]?.stringValue == "guess")
        #expect(message["n"]?.intValue == 42)
        #expect(message["big"]?.intValue == 3)  // integral double
        #expect(message["half"]?.intValue == nil)
        #expect(message["half"]?.doubleValue == 2.5)
        #expect(message["n"]?.doubleValue == 42)
        #expect(message["flag"]?.boolValue == false)
        #expect(message["items"]?.arrayValue == [1])
        #expect(message.objectValue?.count == 6)
        #expect(message["type"]?.intValue == nil)
        #expect(message["missing"] == nil)
        #expect(message[0] == nil)  // not an array
        #expect(JSONValue.null.isNull)
        #expect(JSONValue.number(1e300).int64Value == nil)
    }

    @Test func subscriptsArraysByIndex() {
        let list: JSONValue = ["a", "b"]
        #expect(list[0] == "a")
        #expect(list[1] == "b")
        #expect(list[2] == nil)
        #expect(list[-1] == nil)
        #expect(list["a"] == nil)  // not an object
    }

    @Test func setsMembersAndElementsInPlace() {
        var state: JSONValue = ["round": 1, "words": ["cat"]]
        state["round"] = 2
        state["phase"] = "playing"
        state["words"]?[0] = "dog"
        state["round"] = nil
        #expect(state == ["words": ["dog"], "phase": "playing"])
        #expect(Array(state.objectValue!.keys) == ["words", "phase"])
    }

    static let numericEqualities: [(JSONValue, JSONValue, Bool)] = [
        (.integer(1), .number(1.0), true),
        (.number(0.0), .number(-0.0), true),
        (.integer(0), .number(-0.0), true),
        (.integer(1), .number(1.5), false),
        (.integer(9_007_199_254_740_993), .number(9_007_199_254_740_992.0), false),  // no rounding through Double
        (.integer(.max), .number(9_223_372_036_854_775_808.0), false),  // 2^63 is out of Int64 range
        (.integer(1), .string("1"), false),
        (.bool(true), .integer(1), false),
        (.null, .bool(false), false),
    ]

    /// RFC 6902 §4.6: numbers are equal when their values are numerically equal.
    @Test(arguments: numericEqualities)
    func comparesNumbersByValue(_ lhs: JSONValue, _ rhs: JSONValue, _ equal: Bool) {
        #expect((lhs == rhs) == equal)
        #expect((rhs == lhs) == equal)
        if equal { #expect(lhs.hashValue == rhs.hashValue) }
    }

    @Test func comparesStringsByCodePoints() {
        // RFC 6902 §4.6: strings are equal when their code points are; no Unicode normalization.
        let precomposed = JSONValue.string("\u{E9}")
        let decomposed = JSONValue.string("e\u{301}")
        #expect(precomposed != decomposed)
        #expect(Set([precomposed, decomposed]).count == 2)
        #expect(precomposed == .string("\u{E9}"))
    }

    @Test func comparesObjectsIgnoringMemberOrder() {
        let forward: JSONValue = ["a": 1, "b": [1, 2], "c": ["d": nil]]
        let backward: JSONValue = ["c": ["d": nil], "b": [1, 2], "a": 1]
        #expect(forward == backward)
        #expect(forward.hashValue == backward.hashValue)
        #expect(forward != ["a": 1, "b": [2, 1], "c": ["d": nil]])  // array order matters
        #expect(forward != ["a": 1, "b": [1, 2]])
        #expect(forward != ["a": 1, "b": [1, 2], "x": ["d": nil]])
    }

    @Test func hashesConsistentlyWithEquality() {
        var random = RandomJSON(seed: 77)
        for _ in 0..<300 {
            let value = random.value(depth: 4)
            // Re-parsing may turn 1.0 into 1.0 again but must keep equality and the hash.
            let copy = try? JSONParser().parse(JSONWriter().serialize(value))
            #expect(copy == value)
            #expect(copy?.hashValue == value.hashValue)
        }
    }

    @Test func describesItselfAsCompactJSON() {
        let value: JSONValue = ["a": [1, "x"], "b": nil]
        #expect(value.description == #"{"a":[1,"x"],"b":null}"#)
        #expect("\(value)" == #"{"a":[1,"x"],"b":null}"#)
    }
}
