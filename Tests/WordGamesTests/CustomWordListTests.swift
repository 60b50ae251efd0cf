import Testing
import WordGames
import WordGamesTestSupport

@Suite struct CustomWordListTests {
    /// Ten different words, one a line.
    static let ten = ["igloo", "mitten", "scarf", "sledge", "snowball", "icicle", "frost", "blizzard", "skates",
                      "cocoa"]


    /// The entries `text` is refused for.
    private static func problems(_ text: String, sourceLocation: SourceLocation = #_sourceLocation)
        -> [CustomWordList.Problem] {
        do {
            _ = try CustomWordList.parse(text)
            Issue.record("accepted \(text.debugDescription)", sourceLocation: sourceLocation)
        } catch .invalidEntries(let problems) {
            return problems
        } catch {
            Issue.record("refused for another reason: \(error)", sourceLocation: sourceLocation)
        }
        return []
    }

    @Test func readsOneWordALineUppercaseInOrder() throws {
        let list = try #require(try CustomWordList.parse(Self.ten.joined(separator: "\n")))
        #expect(list.words == Self.ten.map { $0.uppercased() })
        #expect(list.count == 10)
        #expect(list.duplicates == 0)
    }

    @Test func acceptsCommasCRLFBlankLinesAndSurroundingSpace() throws {
        let text = "  Igloo, MITTEN ,scarf\r\n\r\n\tsledge\t\rsnowball,,icicle\n frost ,blizzard\n\nskates,\ncocoa\n"
        let list = try #require(try CustomWordList.parse(text))
        #expect(list.words == Self.ten.map { $0.uppercased() })
    }

    @Test func mergesRepeatsIgnoringCase() throws {
        let text = (Self.ten + ["IGLOO", "Mitten", "igloo"]).joined(separator: "\n")
        let list = try #require(try CustomWordList.parse(text))
        #expect(list.count == 10)
        #expect(list.duplicates == 3)
        #expect(list.words.first == "IGLOO")
    }

    @Test(arguments: ["", "   ", "\n\n", " , ,\n,", "\r\n\t\r\n"])
    func aTextWithoutWordsClearsTheList(text: String) throws {
        #expect(try CustomWordList.parse(text) == nil)
    }

    /// Line-number vectors: every invalid entry, with its line (commas do not start lines), text and reason.
    static let lineVectors: [(text: String, problems: [CustomWordList.Problem])] = [
        ("igloo\ncat\nmitten", [problem(2, "cat", .wrongLength(letters: 3))]),
        ("ice cream\n\n\nsnow-man", [problem(1, "ice cream", .notLetters), problem(4, "snow-man", .notLetters)]),
        ("igloo, ab, mitten\r\nsnowflakes1, c", [
            problem(1, "ab", .wrongLength(letters: 2)), problem(2, "snowflakes1", .notLetters),
            problem(2, "c", .wrongLength(letters: 1)),
        ]),
        ("extraordinary\ncaf\u{E9}\n  ok  ", [
            problem(1, "extraordinary", .wrongLength(letters: 13)), problem(2, "caf\u{E9}", .notLetters),
            problem(3, "ok", .wrongLength(letters: 2)),
        ]),
        // A no-break space is not trimmed: it is inside the entry, and not a letter.
        ("\r\rsnow\u{A0}ball", [problem(3, "snow\u{A0}ball", .notLetters)]),
    ]

    private static func problem(_ line: Int, _ text: String, _ reason: CustomWordList.Reason) -> CustomWordList.Problem {
        CustomWordList.Problem(line: line, text: text, reason: reason)
    }

    @Test(arguments: lineVectors)
    func namesEveryInvalidEntryByLine(text: String, expected: [CustomWordList.Problem]) {
        #expect(Self.problems(text) == expected)
    }

    @Test func invalidEntriesRefuseTheListEvenWithEnoughGoodWords() {
        let problems = Self.problems((Self.ten + ["ski"]).joined(separator: "\n"))
        #expect(problems == [CustomWordList.Problem(line: 11, text: "ski", reason: .wrongLength(letters: 3))])
    }

    @Test func theMessageNamesTheFirstTenProblemsThenCountsTheRest() throws {
        let text = (1...13).map { "x\($0)" }.joined(separator: "\n")
        let rejection = CustomWordList.Rejection.invalidEntries(Self.problems(text))
        #expect(rejection.code == "bad-words")
        #expect(rejection.message.hasPrefix(
            #"The word list has 13 invalid entries: line 1: "x1" has characters other than the letters A-Z; "#))
        #expect(rejection.message.contains(#"line 10: "x10""#))
        #expect(!rejection.message.contains(#"line 11:"#))
        #expect(rejection.message.hasSuffix(#"line 10: "x10" has characters other than the letters A-Z; and 3 more."#))
    }

    @Test func theMessageSaysWhyALengthIsWrongAndQuotesLongEntriesShort() {
        let single = CustomWordList.Rejection.invalidEntries(Self.problems("cat"))
        #expect(single.message == #"The word list has 1 invalid entry: line 1: "cat" has 3 letters (words need 4 to 10)."#)
        let long = String(repeating: "ab", count: 40)
        let quoted = CustomWordList.Rejection.invalidEntries(Self.problems(long)).message
        #expect(quoted.contains("\"\(long.prefix(24))…\" has 80 letters"))
        #expect(!quoted.contains(long.prefix(25)))
    }

    @Test func needsTenDifferentWords() throws {
        let nine = Array(Self.ten.prefix(9))
        #expect(throws: CustomWordList.Rejection.tooFew(9, duplicates: 0)) {
            try CustomWordList.parse(nine.joined(separator: ","))
        }
        let repeated = (nine + ["IGLOO"]).joined(separator: ",")
        #expect(throws: CustomWordList.Rejection.tooFew(9, duplicates: 1)) { try CustomWordList.parse(repeated) }
        #expect(CustomWordList.Rejection.tooFew(9, duplicates: 1).message
            == "The word list has 9 different words (1 repeated word merged); it needs at least 10.")
    }

    @Test func holdsAtMostFiveHundredWords() throws {
        let words = (0..<501).map(tenLetterWord)
        #expect(throws: CustomWordList.Rejection.tooMany(501)) {
            try CustomWordList.parse(words.joined(separator: "\n"))
        }
        let full = try #require(try CustomWordList.parse(words.dropLast().joined(separator: "\n")))
        #expect(full.count == 500)
        #expect(words.dropLast().joined(separator: ", ").utf8.count <= CustomWordList.maxBytes,
                "500 ten-letter words fit, even separated by a comma and a space")
    }

    @Test func refusesATextLongerThanTheLimitBeforeReadingIt() {
        let text = String(repeating: "snow\n", count: CustomWordList.maxBytes / 5 + 1)
        #expect(throws: CustomWordList.Rejection.tooLong(bytes: text.utf8.count)) { try CustomWordList.parse(text) }
    }

    @Test func savedListsComeBackCheckedAgain() throws {
        let list = try #require(try CustomWordList.parse(Self.ten.joined(separator: "\n")))
        #expect(try CustomWordList(saved: list.words) == list)
        #expect(throws: CustomWordList.Rejection.self) { try CustomWordList(saved: list.words + ["no way"]) }
        #expect(throws: CustomWordList.Rejection.tooFew(0, duplicates: 0)) { try CustomWordList(saved: []) }
    }

    @Test func everyRefusalIsBadWords() {
        let rejections: [CustomWordList.Rejection] = [
            .invalidEntries([]), .tooFew(1, duplicates: 0), .tooMany(501), .tooLong(bytes: 9000), .notText,
        ]
        for rejection in rejections {
            #expect(rejection.code == "bad-words")
            #expect(rejection.title == "Check the word list")
            #expect(!rejection.message.isEmpty)
        }
    }
}
