import Testing
@testable import WordGames

@Suite struct SleuthMarkTests {
    @Test(arguments: [
        ("crane", "crane", "rrrrr"), ("stare", "crane", "aarpr"), ("speed", "abide", "aapap"),
        ("geese", "erase", "aparr"), ("eerie", "erase", "rapar"), ("erase", "eerie", "rpaar"),
        ("llama", "hello", "ppaaa"), ("hello", "llama", "aappa"), ("world", "hello", "apara"),
    ])
    func marksRepeatedLettersOnlyAsOftenAsTheSecretHasThem(word: String, secret: String, pattern: String) {
        #expect(SleuthMark.pattern(of: word, against: secret) == pattern)
    }

    @Test func aSolvedPatternIsEveryLetterInItsPlace() {
        #expect(SleuthMark.solved(length: 5) == "rrrrr")
        #expect(SleuthMark.pattern(of: "plank", against: "ghost") == "aaaaa")
    }
}
