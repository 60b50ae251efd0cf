import Testing
@testable import WordGames

@Suite struct LineCollectorTests {
    @Test func numbersLinesFromOneAcrossBlankAndCommentLines() {
        var collector = LineCollector(lengths: 3...8)
        collector.addLines(of: "# header\r\n\r\nRob\r\n  m0b # typo\r\nprobe")
        #expect(collector.words == ["rob", "probe"])
        #expect(collector.problems == [WordList.Problem(line: 4, text: "m0b", reason: .notLetters)])
    }

    @Test func storesWordsInTheRequestedCase() {
        var upper = LineCollector(lengths: 1...10, letterCase: .upper)
        upper.addLines(of: "Snow\nice")
        #expect(upper.words == ["SNOW", "ICE"])
        var lower = LineCollector(lengths: 1...10)
        lower.addLines(of: "Snow\nICE")
        #expect(lower.words == ["snow", "ice"])
    }

    @Test func handlesFilesWithAndWithoutATrailingNewline() {
        var with = LineCollector(lengths: 1...10)
        with.addLines(of: "a\nb\n")
        var without = LineCollector(lengths: 1...10)
        without.addLines(of: "a\nb")
        #expect(with.words == ["a", "b"])
        #expect(without.words == with.words)
    }

    @Test func takesWordsGivenInCodeAsTheyAre() {
        var collector = LineCollector(lengths: 1...10)
        collector.add(" ice", line: 1)
        collector.add("a#b", line: 2)
        #expect(collector.words.isEmpty)
        #expect(collector.problems.map(\.reason) == [.notLetters, .notLetters])
    }
}
