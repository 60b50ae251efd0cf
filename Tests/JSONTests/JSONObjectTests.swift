import JSON
import Testing

@Suite struct JSONObjectTests {
    @Test func keepsInsertionOrder() {
        var object: JSONObject = ["z": 1, "a": 2]
        object["m"] = 3
        #expect(Array(object.keys) == ["z", "a", "m"])
        #expect(Array(object.values) == [1, 2, 3])
    }

    @Test func replacesValuesInPlace() {
        var object: JSONObject = ["z": 1, "a": 2, "m": 3]
        let previous = object.updateValue(20, forKey: "a")
        #expect(previous == 2)
        #expect(Array(object.keys) == ["z", "a", "m"])
        #expect(object["a"] == 20)
    }

    @Test func removesWithoutReordering() {
        var object: JSONObject = ["z": 1, "a": 2, "m": 3]
        #expect(object.removeValue(forKey: "a") == 2)
        #expect(object.removeValue(forKey: "a") == nil)
        object["a"] = 4
        #expect(Array(object.keys) == ["z", "m", "a"])
    }

    @Test func keepsTheLastOfRepeatedLiteralKeys() {
        let object: JSONObject = ["a": 1, "b": 2, "a": 3]
        #expect(object.count == 2)
        #expect(object["a"] == 3)
        #expect(Array(object.keys) == ["a", "b"])
    }

    @Test func findsMembersAcrossTheIndexThreshold() {
        // Grow past the size where a hash index is built, then shrink below it again.
        var object = JSONObject()
        for index in 0..<40 {
            object["key\(index)"] = .integer(Int64(index))
            for probe in 0...index {
                #expect(object.index(forKey: "key\(probe)") == probe)
            }
        }
        for index in stride(from: 39, through: 0, by: -3) {
            object.removeValue(forKey: "key\(index)")
        }
        object.removeValue(forKey: "key0")
        for (position, member) in object.enumerated() {
            #expect(object.index(forKey: member.key) == position)
            #expect(object[member.key] == member.value)
        }
        #expect(object["key39"] == nil)
        #expect(object.count == 26)
    }

    @Test func distinguishesKeysByBytes() {
        var object = JSONObject()
        object["\u{E9}"] = 1
        object["e\u{301}"] = 2
        #expect(object.count == 2)
        #expect(object["\u{E9}"] == 1)
        #expect(object["e\u{301}"] == 2)
    }

    @Test func equalsRegardlessOfOrderAtEverySize() {
        for size in [0, 1, 5, 13, 30] {
            let members = (0..<size).map { ("k\($0)", JSONValue.integer(Int64($0))) }
            let forward = JSONObject(members)
            let backward = JSONObject(members.reversed())
            #expect(forward == backward)
            #expect(forward.hashValue == backward.hashValue)
            if size > 0 {
                var changed = backward
                changed["k0"] = "different"
                #expect(forward != changed)
            }
        }
    }
}
