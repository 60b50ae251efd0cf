import Testing
import WordGames

@Suite struct WordListTests {
    @Test func parsesWordsSkippingBlankLinesAndComments() throws {
        let list = try WordList.parse(contents: """
            # Winter words
            snowman

              Scarf  \r
            mitten   # knitted
            \t
            """)
        #expect(list.words == ["SNOWMAN", "SCARF", "MITTEN"])
    }

    @Test(arguments: ["DON'T", "café", "abc1", "two words", "snow-man"])
    func rejectsLinesThatAreNotLettersAToZ(line: String) {
        #expect(throws: WordList.ParseError.invalidLines([WordList.Problem(line: 2, text: line, reason: .notLetters)])) {
            try WordList.parse(contents: "igloo\n\(line)\n")
        }
    }

    @Test(arguments: ["a", "cat", "snowflakes", "snowflakess", "extraordinary"].filter { !(4...10).contains($0.count) })
    func rejectsWrongLengths(word: String) {
        let problem = WordList.Problem(line: 1, text: word, reason: .wrongLength(allowed: 4...10))
        #expect(throws: WordList.ParseError.invalidLines([problem])) {
            try WordList.parse(contents: word)
        }
    }

    @Test func acceptsBothLengthLimits() throws {
        #expect(try WordList.parse(contents: "snow\nsnowflakes").words == ["SNOW", "SNOWFLAKES"])
    }

    @Test func rejectsDuplicatesIgnoringCase() {
        #expect(throws: WordList.ParseError.invalidLines([
            WordList.Problem(line: 3, text: "Snow", reason: .duplicate(firstLine: 1)),
        ])) {
            try WordList.parse(contents: "snow\nfrost\nSnow")
        }
    }

    @Test func reportsEveryInvalidLineWithItsNumber() throws {
        let contents = """
            # header
            winter
            ok
            sled
            sl3d
            winter

            averyverylongword
            """
        let error = try #require(throws: WordList.ParseError.self) { try WordList.parse(contents: contents) }
        #expect(error == .invalidLines([
            WordList.Problem(line: 3, text: "ok", reason: .wrongLength(allowed: 4...10)),
            WordList.Problem(line: 5, text: "sl3d", reason: .notLetters),
            WordList.Problem(line: 6, text: "winter", reason: .duplicate(firstLine: 2)),
            WordList.Problem(line: 8, text: "averyverylongword", reason: .wrongLength(allowed: 4...10)),
        ]))
        #expect(error.description == """
            The word list has 4 invalid lines:
              line 3: "ok" has 2 letters; words need 4 to 10
              line 5: "sl3d" must contain only letters A-Z
              line 6: "winter" repeats line 2
              line 8: "averyverylongword" has 17 letters; words need 4 to 10
            """)
    }

    @Test(arguments: ["", "\n\n", "# only a comment\n   \n"])
    func rejectsListsWithoutWords(contents: String) {
        #expect(throws: WordList.ParseError.noWords) { try WordList.parse(contents: contents) }
    }

    @Test func validatesWordsGivenInCode() throws {
        #expect(try WordList(["frost", "Thaw"]).words == ["FROST", "THAW"])
        #expect(throws: WordList.ParseError.invalidLines([
            WordList.Problem(line: 2, text: "#ice", reason: .notLetters),
            WordList.Problem(line: 3, text: "", reason: .wrongLength(allowed: 4...10)),
        ])) {
            try WordList(["frost", "#ice", ""])
        }
        #expect(throws: WordList.ParseError.noWords) { try WordList([]) }
    }

    @Test func randomWordIsReproducibleFromSeed() throws {
        let list = try WordList(["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"])
        var first = SplitMix64(seed: 5)
        var second = SplitMix64(seed: 5)
        let picks = (0..<20).map { _ in list.randomWord(using: &first) }
        #expect(picks == (0..<20).map { _ in list.randomWord(using: &second) })
        #expect(Set(picks).isSubset(of: list.words))
        #expect(Set(picks).count > 1)
    }
}
