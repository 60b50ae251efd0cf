import JSON
import Testing

@Suite struct JSONParserTests {
    typealias Reason = JSONParser.Error.Reason

    // MARK: - Valid documents (RFC 8259)

    static let validDocuments: [(String, JSONValue)] = [
        ("0", 0),
        ("-1", -1),
        ("123", 123),
        ("1.5", 1.5),
        ("-1.5e3", -1500.0),
        ("1E2", 100.0),
        ("1e+2", 100.0),
        ("1e-2", 0.01),
        ("0.0", 0.0),
        ("1e-400", 0.0),  // underflows to zero: representable, so accepted
        ("9223372036854775807", .integer(.max)),
        ("-9223372036854775808", .integer(.min)),
        ("9223372036854775808", .number(9_223_372_036_854_775_808.0)),  // one past Int64.max becomes a double
        ("true", true),
        ("false", false),
        ("null", nil),
        (#""""#, ""),
        (#""abc""#, "abc"),
        ("[]", []),
        ("{}", [:]),
        ("[1,2]", [1, 2]),
        (" \t\n\r[ 1 , { \"a\" : [ ] } ]\r\n ", [1, ["a": []]]),
        (#"{"a":1,"b":[true,false,null]}"#, ["a": 1, "b": [true, false, nil]]),
        (#"{"a":{"b":{"c":"d"}}}"#, ["a": ["b": ["c": "d"]]]),
        (#"["\"\\\/\b\f\n\r\t"]"#, ["\"\\/\u{08}\u{0C}\n\r\t"]),
        (#""\u0041\u00e9\u20AC""#, "A\u{E9}\u{20AC}"),
        (#""\uD83D\uDE00""#, "\u{1F600}"),  // surrogate pair for U+1F600
        (#""\u0000""#, "\u{0}"),
        ("\"\u{E9}\u{20AC}\u{1F600}\"", "\u{E9}\u{20AC}\u{1F600}"),  // raw 2-, 3- and 4-byte UTF-8
        (#"{"":0," ":1}"#, ["": 0, " ": 1]),
    ]

    @Test(arguments: validDocuments)
    func parsesValidDocument(_ text: String, _ expected: JSONValue) throws {
        let value = try JSONParser().parse(text)
        #expect(value == expected)
    }

    @Test func keepsIntegersExactAndDoublesAsDoubles() throws {
        #expect(try JSONParser().parse("9007199254740993") == .integer(9_007_199_254_740_993))
        guard case .number(let double) = try JSONParser().parse("2.5") else {
            Issue.record("2.5 should be a double")
            return
        }
        #expect(double == 2.5)
        guard case .number(let negativeZero) = try JSONParser().parse("-0") else {
            Issue.record("-0 should keep its sign as a double")
            return
        }
        #expect(negativeZero.sign == .minus)
    }

    @Test func keepsMemberOrder() throws {
        let value = try JSONParser().parse(#"{"z":1,"a":2,"m":3}"#)
        let object = try #require(value.objectValue)
        #expect(Array(object.keys) == ["z", "a", "m"])
    }

    @Test func parsesFromByteBuffersAndSlices() throws {
        // The payload of a WebSocket frame after a 2-byte header.
        let frame: [UInt8] = [0x81, 0x09] + Array(#"{"a":[1]}"#.utf8)
        #expect(try JSONParser().parse(frame[2...]) == ["a": [1]])
        let raw = try frame.withUnsafeBytes { try JSONParser().parse(UnsafeRawBufferPointer(rebasing: $0[2...])) }
        #expect(raw == ["a": [1]])
    }

    @Test func keepsBytewiseDistinctKeys() throws {
        // "é" precomposed and decomposed: equal as Swift Strings, distinct JSON member names.
        let value = try JSONParser().parse("{\"\u{E9}\":1,\"e\u{301}\":2}")
        #expect(value["\u{E9}"] == 1)
        #expect(value["e\u{301}"] == 2)
    }

    // MARK: - Invalid documents

    static let invalidDocuments: [(String, Reason, Int)] = [
        ("", .unexpectedEnd(expected: .value), 0),
        ("   ", .unexpectedEnd(expected: .value), 3),
        ("[1,]", .unexpectedByte(UInt8(ascii: "]"), expected: .value), 3),
        (#"{"a":1,}"#, .unexpectedByte(UInt8(ascii: "}"), expected: .memberName), 7),
        ("[,1]", .unexpectedByte(UInt8(ascii: ","), expected: .value), 1),
        ("01", .leadingZero, 0),
        ("-01", .leadingZero, 0),
        ("-", .unexpectedEnd(expected: .digit), 1),
        ("-a", .unexpectedByte(UInt8(ascii: "a"), expected: .digit), 1),
        ("1.", .unexpectedEnd(expected: .digit), 2),
        ("1.e3", .unexpectedByte(UInt8(ascii: "e"), expected: .digit), 2),
        ("1e", .unexpectedEnd(expected: .digit), 2),
        ("1e+", .unexpectedEnd(expected: .digit), 3),
        (".5", .unexpectedByte(UInt8(ascii: "."), expected: .value), 0),
        ("+1", .unexpectedByte(UInt8(ascii: "+"), expected: .value), 0),
        ("0x10", .unexpectedByte(UInt8(ascii: "x"), expected: .endOfInput), 1),
        ("1e400", .numberOutOfRange, 0),
        ("-1e400", .numberOutOfRange, 0),
        ("NaN", .unexpectedByte(UInt8(ascii: "N"), expected: .value), 0),
        ("Infinity", .unexpectedByte(UInt8(ascii: "I"), expected: .value), 0),
        ("-Infinity", .unexpectedByte(UInt8(ascii: "I"), expected: .digit), 1),
        ("tru", .unexpectedEnd(expected: .literal("true")), 3),
        ("trUe", .unexpectedByte(UInt8(ascii: "U"), expected: .literal("true")), 2),
        ("nul", .unexpectedEnd(expected: .literal("null")), 3),
        ("falsey", .unexpectedByte(UInt8(ascii: "y"), expected: .endOfInput), 5),
        ("True", .unexpectedByte(UInt8(ascii: "T"), expected: .value), 0),
        ("[1 2]", .unexpectedByte(UInt8(ascii: "2"), expected: .commaOrCloseBracket), 3),
        (#"{"a" 1}"#, .unexpectedByte(UInt8(ascii: "1"), expected: .colon), 5),
        ("{a:1}", .unexpectedByte(UInt8(ascii: "a"), expected: .memberName), 1),
        ("{'a':1}", .unexpectedByte(UInt8(ascii: "'"), expected: .memberName), 1),
        (#"{"a":1 "b":2}"#, .unexpectedByte(UInt8(ascii: "\""), expected: .commaOrCloseBrace), 7),
        (#"{"a":1,"a":2}"#, .duplicateKey("a"), 7),
        ("// comment\n1", .unexpectedByte(UInt8(ascii: "/"), expected: .value), 0),
        ("/* c */ 1", .unexpectedByte(UInt8(ascii: "/"), expected: .value), 0),
        ("[1] x", .unexpectedByte(UInt8(ascii: "x"), expected: .endOfInput), 4),
        ("1 2", .unexpectedByte(UInt8(ascii: "2"), expected: .endOfInput), 2),
        ("[", .unexpectedEnd(expected: .value), 1),
        ("[1", .unexpectedEnd(expected: .commaOrCloseBracket), 2),
        ("{", .unexpectedEnd(expected: .memberName), 1),
        (#"{"a""#, .unexpectedEnd(expected: .colon), 4),
        (#"{"a":"#, .unexpectedEnd(expected: .value), 5),
        (#"{"a":1"#, .unexpectedEnd(expected: .commaOrCloseBrace), 6),
        (#""abc"#, .unexpectedEnd(expected: .closingQuote), 4),
        (#""a\"#, .unexpectedEnd(expected: .closingQuote), 3),
        (#""\x""#, .invalidEscape(UInt8(ascii: "x")), 1),
        (#""\'""#, .invalidEscape(UInt8(ascii: "'")), 1),
        (#""\u12""#, .unexpectedByte(UInt8(ascii: "\""), expected: .hexDigit), 5),
        (#""\u12G4""#, .unexpectedByte(UInt8(ascii: "G"), expected: .hexDigit), 5),
        (#""\u12"#, .unexpectedEnd(expected: .hexDigit), 5),
        (#""\uD800""#, .loneSurrogate(0xD800), 1),
        (#""\uDBFFx""#, .loneSurrogate(0xDBFF), 1),
        (#""\uDC00""#, .loneSurrogate(0xDC00), 1),
        (#""\uD800\u0041""#, .loneSurrogate(0xD800), 1),
        (#""\uD800\uD800""#, .loneSurrogate(0xD800), 1),
        (#""ab\uDE00\uD83D""#, .loneSurrogate(0xDE00), 3),
        ("\"a\u{1}\"", .unescapedControlCharacter(0x01), 2),
        ("\"tab\there\"", .unescapedControlCharacter(0x09), 4),
        ("\"line\nbreak\"", .unescapedControlCharacter(0x0A), 5),
        ("\u{FEFF}1", .unexpectedByte(0xEF, expected: .value), 0),  // RFC 8259 §8.1: no byte order mark
        ("[\"a\",\n]", .unexpectedByte(UInt8(ascii: "]"), expected: .value), 6),
    ]

    @Test(arguments: invalidDocuments)
    func rejectsInvalidDocument(_ text: String, _ reason: Reason, _ offset: Int) {
        expectError(text, reason, at: offset)
    }

    @Test func rejectsTrailingComma() {
        expectError("[1,2,]", .unexpectedByte(UInt8(ascii: "]"), expected: .value), at: 5)
        expectError(#"{"a":1,"b":2,}"#, .unexpectedByte(UInt8(ascii: "}"), expected: .memberName), at: 13)
    }

    @Test func errorMessageNamesTheByteAndWhatWasExpected() {
        let error = parseError(#"{"a":[1,2,3],"b":}"#)
        #expect(error?.description == "unexpected '}' at byte 17, expected a value")
        #expect(parseError("[1 2]")?.description == "unexpected '2' at byte 3, expected ',' or ']'")
        #expect(parseError("[1")?.description == "unexpected end of input at byte 2, expected ',' or ']'")
        #expect(parseError("\"a\u{1}\"")?.description
            == "unescaped control character 0x01 in string at byte 2, expected an escape")
        #expect(parseError(#""\uDC00""#)?.description
            == #"lone surrogate \uDC00 at byte 1, expected a high surrogate followed by a low one"#)
        #expect(parseError("[\u{7}]")?.description == "unexpected 0x07 at byte 1, expected a value")
    }

    /// Invalid UTF-8 inside strings (Unicode §3.9 table 3-7), given as raw bytes.
    static let invalidUTF8Strings: [([UInt8], Int)] = [
        ([0x22, 0xC0, 0xAF, 0x22], 1),  // overlong encoding of "/"
        ([0x22, 0xE0, 0x80, 0xAF, 0x22], 1),  // overlong 3-byte encoding of "/"
        ([0x22, 0xED, 0xA0, 0x80, 0x22], 1),  // U+D800 encoded directly: a surrogate
        ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1),  // U+110000: above the last scalar
        ([0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], 1),  // lead byte that never occurs
        ([0x22, 0xE2, 0x82, 0x22], 1),  // "€" cut short before the closing quote
        ([0x22, 0x61, 0xFF, 0x22], 2),  // 0xFF never occurs
        ([0x22, 0x80, 0x22], 1),  // continuation byte with no lead
        ([0x22, 0x5C, 0x6E, 0xC3, 0x22], 3),  // "\n" escape, then a lead byte with no continuation
        ([0x22, 0xF0, 0x9F, 0x98], 1),  // "😀" truncated by the end of input
    ]

    @Test(arguments: invalidUTF8Strings)
    func rejectsInvalidUTF8(_ bytes: [UInt8], _ offset: Int) {
        #expect(throws: JSONParser.Error(.invalidUTF8, offset: offset)) {
            try JSONParser().parse(bytes)
        }
    }

    @Test func rejectsBytesOutsideStringsThatAreNotASCII() {
        // "é" as a bare token.
        #expect(throws: JSONParser.Error(.unexpectedByte(0xC3, expected: .value), offset: 1)) {
            try JSONParser().parse([UInt8(ascii: "["), 0xC3, 0xA9, UInt8(ascii: "]")])
        }
    }

    // MARK: - Input validated by the caller

    /// Parses `bytes` with `parse(validatedUTF8:)`.
    private func parseValidated(_ bytes: [UInt8]) throws(JSONParser.Error) -> JSONValue {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONParser.Error) in try JSONParser().parse(validatedUTF8: raw) }
        }
        return try result.get()
    }

    @Test(arguments: validDocuments)
    func validatedInputParsesAlike(_ text: String, _ expected: JSONValue) throws {
        #expect(try parseValidated(Array(text.utf8)) == expected)
    }

    @Test(arguments: invalidDocuments)
    func validatedInputKeepsEveryOtherCheck(_ text: String, _ reason: Reason, _ offset: Int) {
        #expect(throws: JSONParser.Error(reason, offset: offset)) { try parseValidated(Array(text.utf8)) }
    }

    @Test func validatedInputIsNotCheckedForUTF8Again() throws {
        // 0xFF never occurs in UTF-8: `parse(_:)` refuses it; told the input was validated, the parser does not
        // look, and the string decoder shows the broken byte as U+FFFD (memory-safe, not an error).
        let broken: [UInt8] = [0x22, 0x61, 0xFF, 0x22]
        #expect(throws: JSONParser.Error(.invalidUTF8, offset: 2)) { try JSONParser().parse(broken) }
        #expect(try parseValidated(broken) == "a\u{FFFD}")
        // The same through the escape path.
        #expect(try parseValidated([0x22, 0x5C, 0x6E, 0xFF, 0x22]) == "\n\u{FFFD}")
    }

    @Test func validatedInputStillRefusesNonASCIIOutsideStrings() {
        #expect(throws: JSONParser.Error(.unexpectedByte(0xC3, expected: .value), offset: 1)) {
            try parseValidated([UInt8(ascii: "["), 0xC3, 0xA9, UInt8(ascii: "]")])
        }
    }

    @Test func validatedInputKeepsTheSizeLimit() {
        let parser = JSONParser(limits: JSONParser.Limits(maxBytes: 4))
        #expect(throws: JSONParser.Error(.inputTooLarge(limit: 4), offset: 4)) {
            try Array("[1,2]".utf8).withUnsafeBytes { try parser.parse(validatedUTF8: $0) }
        }
    }

    // MARK: - Limits

    @Test func acceptsNestingUpToTheDepthLimit() throws {
        let limit = JSONParser.Limits.default.maxDepth
        let arrays = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        _ = try JSONParser().parse(arrays)
        let objects = String(repeating: #"{"a":"#, count: limit) + "1" + String(repeating: "}", count: limit)
        _ = try JSONParser().parse(objects)
    }

    @Test func rejectsNestingBeyondTheDepthLimit() {
        let limit = JSONParser.Limits.default.maxDepth
        let arrays = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        expectError(arrays, .depthLimitExceeded(limit: limit), at: limit)
        let objects = String(repeating: #"{"a":"#, count: limit + 1) + "1" + String(repeating: "}", count: limit + 1)
        expectError(objects, .depthLimitExceeded(limit: limit), at: limit * 5)
        // An empty container still counts as a level.
        expectError("[[{}]]", .depthLimitExceeded(limit: 2), at: 2, limits: .init(maxDepth: 2))
    }

    @Test func refusesHostilelyDeepInputWithoutRecursing() {
        // A million open brackets: must fail at the limit, not overflow the stack.
        let hostile = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
        let limits = JSONParser.Limits(maxDepth: 32, maxBytes: 2_000_000)
        #expect(throws: JSONParser.Error(.depthLimitExceeded(limit: 32), offset: 32)) {
            try JSONParser(limits: limits).parse(hostile)
        }
    }

    @Test func rejectsInputLargerThanTheByteLimit() throws {
        let limits = JSONParser.Limits(maxBytes: 10)
        #expect(try JSONParser(limits: limits).parse("[1,2,3,45]") == [1, 2, 3, 45])
        #expect(throws: JSONParser.Error(.inputTooLarge(limit: 10), offset: 10)) {
            try JSONParser(limits: limits).parse("[1,2,3,456]")
        }
    }

    @Test func rejectsStringsLongerThanTheStringLimit() throws {
        let limits = JSONParser.Limits(maxStringLength: 4)
        #expect(try JSONParser(limits: limits).parse(#"["abcd"]"#) == ["abcd"])
        expectError(#"["abcde"]"#, .stringTooLong(limit: 4), at: 1, limits: limits)
        // Member names count too.
        expectError(#"{"abcde":1}"#, .stringTooLong(limit: 4), at: 1, limits: limits)
        // Counted after unescaping: six escapes of two bytes decode to six bytes.
        expectError(#"["\n\n\n\n\n\n"]"#, .stringTooLong(limit: 4), at: 1, limits: limits)
        // "é" escaped is 6 bytes of input but 2 of string; two of them fit in 4.
        #expect(try JSONParser(limits: limits).parse(#""\u00e9\u00e9""#) == "\u{E9}\u{E9}")
        expectError(#""\u00e9\u00e9a""#, .stringTooLong(limit: 4), at: 0, limits: limits)
        // Multi-byte characters count in bytes.
        expectError("\"\u{1F600}\u{1F600}\"", .stringTooLong(limit: 4), at: 0, limits: limits)
    }

    @Test func rejectsMoreElementsThanTheElementLimit() throws {
        let limits = JSONParser.Limits(maxElements: 3)
        _ = try JSONParser(limits: limits).parse("[1,2,3]")
        expectError("[1,2,3,4]", .tooManyElements(limit: 3), at: 7, limits: limits)
        // Counted over the whole document: 2 members + 2 elements.
        expectError(#"{"a":[1,2],"b":0}"#, .tooManyElements(limit: 3), at: 15, limits: limits)
    }

    // MARK: - Robustness

    @Test func everyStrictPrefixOfAContainerNeedsMoreInput() throws {
        let document = #"{"words":["cat","d\"og"],"n":[1.5e3,-2,true,false,null],"e":{}}"#
        let bytes = Array(document.utf8)
        _ = try JSONParser().parse(bytes)
        for length in 0..<bytes.count {
            guard let error = parseError(bytes[..<length]) else {
                Issue.record("prefix of \(length) bytes parsed")
                continue
            }
            guard case .unexpectedEnd = error.reason else {
                Issue.record("prefix of \(length) bytes: \(error)")
                continue
            }
            #expect(error.offset == length)
        }
    }

    @Test func neverTrapsOnCorruptedInput() {
        let seeds: [String] = [
            #"{"type":"guess","word":"caf\u00e9","n":[1,2.5e-3,-0]}"#,
            #"[["\ud83d\ude00"],{"a":{"b":[]}},"\\\"",true,null]"#,
        ]
        var random = SeededGenerator(seed: 0x5EED)
        var accepted = 0
        for seed in seeds {
            let original = Array(seed.utf8)
            for _ in 0..<3000 {
                var bytes = original
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let position = Int.random(in: 0..<bytes.count, using: &random)
                    switch Int.random(in: 0...2, using: &random) {
                    case 0: bytes[position] = UInt8.random(in: 0...255, using: &random)
                    case 1: bytes.remove(at: position)
                    default: bytes.insert(UInt8.random(in: 0...255, using: &random), at: position)
                    }
                    if bytes.isEmpty { break }
                }
                if (try? JSONParser().parse(bytes)) != nil { accepted += 1 }
            }
        }
        // Reaching here without a trap is the test; some mutations stay valid.
        #expect(accepted < 6000)
    }

    // MARK: - Helpers

    private func parseError<Bytes: Collection<UInt8>>(
        _ bytes: Bytes, limits: JSONParser.Limits = .default
    ) -> JSONParser.Error? {
        do {
            _ = try JSONParser(limits: limits).parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    private func parseError(_ text: String, limits: JSONParser.Limits = .default) -> JSONParser.Error? {
        parseError(text.utf8, limits: limits)
    }

    private func expectError(
        _ text: String, _ reason: Reason, at offset: Int, limits: JSONParser.Limits = .default,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let error = parseError(text, limits: limits) else {
            Issue.record("\(text.debugDescription) parsed, expected \(reason)", sourceLocation: sourceLocation)
            return
        }
        #expect(error.reason == reason, "\(text.debugDescription): \(error)", sourceLocation: sourceLocation)
        #expect(error.offset == offset, "\(text.debugDescription): \(error)", sourceLocation: sourceLocation)
    }
}
