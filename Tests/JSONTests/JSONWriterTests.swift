import JSON
import Testing

@Suite struct JSONWriterTests {
    static let serializations: [(JSONValue, String)] = [
        (nil, "null"),
        (true, "true"),
        (false, "false"),
        (0, "0"),
        (-7, "-7"),
        (.integer(.max), "9223372036854775807"),
        (.integer(.min), "-9223372036854775808"),
        (1.5, "1.5"),
        (1.0, "1.0"),
        (-0.0, "-0.0"),
        (0.1, "0.1"),
        (1e-7, "1e-07"),
        (1e300, "1e+300"),
        (.number(.infinity), "null"),  // RFC 8259 §6: no Infinity or NaN in JSON
        (.number(-.infinity), "null"),
        (.number(.nan), "null"),
        ("", #""""#),
        ("plain", #""plain""#),
        ("say \"hi\"", #""say \"hi\"""#),
        ("back\\slash", #""back\\slash""#),
        ("a/b", #""a/b""#),  // solidus needs no escape
        ("\u{08}\u{0C}\n\r\t", #""\b\f\n\r\t""#),
        ("\u{0}\u{1}\u{1F}\u{7F}", #""\u0000\u0001\u001f"# + "\u{7F}\""),  // DEL is not a control character in JSON
        ("caf\u{E9} \u{20AC} \u{1F600}", "\"caf\u{E9} \u{20AC} \u{1F600}\""),  // non-ASCII stays UTF-8
        ([], "[]"),
        ([:], "{}"),
        ([1, "two", [3.5, nil]], #"[1,"two",[3.5,null]]"#),
        (["z": 1, "a": ["n\"ested": true]], #"{"z":1,"a":{"n\"ested":true}}"#),
    ]

    @Test(arguments: serializations)
    func serializesCompactly(_ value: JSONValue, _ expected: String) {
        #expect(JSONWriter().serialize(value) == Array(expected.utf8))
        #expect(value.description == expected)
    }

    @Test func appendsAfterReservedHeaderSpace() {
        // Room for the largest server-to-client WebSocket header, filled in after the payload length is known.
        let reservedHeader: [UInt8] = Array(repeating: 0, count: 10)
        var buffer = reservedHeader
        JSONWriter().write(["type": "patch", "seq": 3], into: &buffer)
        #expect(buffer.prefix(10).elementsEqual(reservedHeader))
        #expect(String(decoding: buffer.dropFirst(10), as: UTF8.self) == #"{"type":"patch","seq":3}"#)
    }

    @Test func identicalValuesGiveIdenticalBytes() {
        let build = { () -> JSONValue in
            var players = JSONObject()
            for index in 0..<40 { players["player\(index)"] = ["score": .integer(Int64(index))] }
            return ["round": 2, "players": .object(players)]
        }
        #expect(JSONWriter().serialize(build()) == JSONWriter().serialize(build()))
    }

    @Test func roundTripsRandomValues() throws {
        for seed in UInt64(0)..<1000 {
            var random = RandomJSON(seed: seed)
            let value = random.value(depth: 5)
            let bytes = JSONWriter().serialize(value)
            let parsed = try JSONParser().parse(bytes)
            #expect(parsed == value, "seed \(seed)")
            #expect(JSONWriter().serialize(parsed) == bytes, "seed \(seed): bytes differ after a round trip")
        }
    }

    @Test func writesAPatchAsItsJSONDocumentWouldBeWritten() throws {
        // Tokens that need RFC 6901 escaping (~ and /) and JSON escaping (quote, backslash, control characters).
        let odd = JSONPointer(tokens: ["a~b", "c/d", "q\"u\\o\u{1}te", "é", "0"])
        let patch = JSONPatch([
            .add(path: JSONPointer(tokens: ["chat", "3"]), value: ["id": 4, "text": "hi \"there\""]),
            .remove(path: JSONPointer(tokens: ["chat", "0"])),
            .replace(path: odd, value: [1, 2.5, nil, true]),
            .move(from: odd, path: JSONPointer(tokens: [])),
            .copy(from: JSONPointer(tokens: ["x"]), path: JSONPointer(tokens: ["y", ""])),
            .test(path: JSONPointer(tokens: ["turn"]), value: "p1"),
        ])
        var direct: [UInt8] = [9]
        JSONWriter().write(patch, into: &direct)
        #expect(direct == [9] + JSONWriter().serialize(patch.json))
        #expect(try JSONPatch(json: JSONParser().parse(Array(direct.dropFirst()))).json == patch.json)
        var empty: [UInt8] = []
        JSONWriter().write(JSONPatch([]), into: &empty)
        #expect(String(decoding: empty, as: UTF8.self) == "[]")
    }

    @Test func roundTripsDoublesBitForBit() throws {
        var random = SeededGenerator(seed: 0xD0B1E)
        var samples: [Double] = [.leastNonzeroMagnitude, .greatestFiniteMagnitude, .ulpOfOne, 0.1 + 0.2, 1e21, 1e-7]
        while samples.count < 5000 {
            let double = Double(bitPattern: random.next())
            if double.isFinite { samples.append(double) }
        }
        for double in samples {
            let parsed = try JSONParser().parse(JSONWriter().serialize(.number(double)))
            guard case .number(let back) = parsed else {
                Issue.record("\(double) came back as \(parsed)")
                continue
            }
            #expect(back.bitPattern == double.bitPattern, "\(double)")
        }
    }

    @Test func roundTripsIntegerExtremes() throws {
        for integer: Int64 in [.min, .min + 1, -1, 0, 1, 9_007_199_254_740_993, .max - 1, .max] {
            #expect(try JSONParser().parse(JSONWriter().serialize(.integer(integer))) == .integer(integer))
        }
    }

    /// Prints the serialize speed of a typical room state; never asserts on timing.
    @Test func benchmarkSerializingARoomState() {
        let state = Self.typicalRoomState()
        let writer = JSONWriter()
        var buffer: [UInt8] = []
        writer.write(state, into: &buffer)
        let size = buffer.count
        #if DEBUG
        let iterations = 200
        let build = "debug build; swift test -c release for real numbers"
        #else
        let iterations = 5000
        let build = "release build"
        #endif
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for _ in 0..<iterations {
                buffer.removeAll(keepingCapacity: true)
                writer.write(state, into: &buffer)
            }
        }
        let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
        let perState = nanoseconds / Double(iterations)
        let megabytesPerSecond = Double(size) / perState * 1e9 / 1_048_576
        print("JSONWriter: room state of \(size) bytes in \(Int(perState)) ns "
            + "(\(Int(megabytesPerSecond)) MiB/s, \(build))")
    }

    /// Eight players, a 5x5 board, 100 found words newest first, and round settings.
    static func typicalRoomState() -> JSONValue {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXY").map { JSONValue.string(String($0)) }
        let board = (0..<5).map { row in JSONValue.array(Array(letters[row * 5..<row * 5 + 5])) }
        let players = (0..<8).map { index -> JSONValue in
            ["id": .string("p\(index)-7f3a9c"), "name": .string("Player \(index)"),
             "score": .integer(Int64(index * 37)), "connected": .bool(index != 3), "color": "#3fa7d6"]
        }
        let words = (0..<100).map { index -> JSONValue in
            ["word": .string("word\(index)"), "by": .string("p\(index % 8)-7f3a9c"),
             "points": .integer(Int64(index % 11))]
        }
        return ["type": "state", "room": "ABCD", "phase": "playing", "round": 3, "endsAt": 1_764_430_000_000,
                "board": .array(board), "players": .array(players), "words": .array(words),
                "settings": ["minLength": 3, "seconds": 120, "language": "en", "ratio": 0.75]]
    }
}
