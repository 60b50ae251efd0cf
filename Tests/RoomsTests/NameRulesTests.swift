import Testing
@testable import Rooms

/// Names: every printable grapheme cluster is welcome; only what can hurt or fool is refused, with its reason.
@Suite struct NameRulesTests {
    @Test(arguments: ["Hal 👩‍💻", "🏳️‍🌈 Ro", "Zoë", "José", "李小龍", "Ωmega", "👨‍👩‍👧‍👦", "Nadia 🇫🇷", "ダニエル", "N\u{0303}o"])
    func acceptsPrintableNames(name: String) throws {
        #expect(try NameRules.check(name) == name)
    }

    @Test func countsGraphemeClustersNotCodePoints() throws {
        let twenty = String(repeating: "👩‍💻", count: 20)
        #expect(try NameRules.check(twenty) == twenty)
        #expect(throws: NameRules.Refusal.tooLong) { try NameRules.check(twenty + "a") }
        #expect(throws: NameRules.Refusal.tooLong) { try NameRules.check(String(repeating: "x", count: 21)) }
    }

    @Test func collapsesWhitespace() throws {
        #expect(try NameRules.check("  Ana   Lu  ") == "Ana Lu")
    }

    @Test(arguments: [
        ("", NameRules.Refusal.empty), ("    ", .empty),
        ("bad\u{7}name", .control), ("tab\tname", .control), ("line\nbreak", .control), ("c1\u{85}x", .control),
        ("x\u{2028}y", .control),
        ("evil\u{202E}txt", .bidirectional), ("a\u{202A}b", .bidirectional), ("iso\u{2066}late", .bidirectional),
        ("\u{2069}x", .bidirectional),
        ("un\u{0378}set", .unassigned), ("priv\u{E000}", .privateUse), ("plane\u{F0000}", .privateUse),
        ("\u{200B}\u{200D}", .invisible), ("\u{3164}", .invisible), ("\u{FE0F}", .invisible), ("\u{2800}\u{2800}", .invisible),
    ])
    func refusesWithTheReason(name: String, reason: NameRules.Refusal) {
        #expect(throws: reason) { try NameRules.check(name) }
    }

    @Test func errorMessagesNameTheReason() {
        #expect(NameRules.Refusal.bidirectional.error.message.contains("direction"))
        #expect(NameRules.Refusal.control.error.message.contains("control"))
        #expect(NameRules.Refusal.privateUse.error.message.contains("private-use"))
        #expect(NameRules.Refusal.invisible.error.message.contains("invisible"))
        #expect(NameRules.Refusal.tag.error.message.contains("tag"))
        #expect(NameRules.Refusal.tooManyMarks.error.message.contains("marks"))
        #expect(Set([NameRules.Refusal.empty, .tooLong, .control, .bidirectional, .unassigned, .privateUse, .invisible,
                     .tag, .tooManyMarks]
            .map(\.error.message)).count == 9)
        #expect([NameRules.Refusal.empty, .tooLong, .control].allSatisfy { $0.error.code == "bad-name" })
    }
}

/// Names compared as people read them, tags and mark towers refused, and chat lines under the same rules.
@Suite struct NameRulesUnicodeTests {
    /// Real names whose scripts write with combining marks (Arabic vowel marks, Devanagari vowel signs and
    /// viramas, Thai tone marks, Vietnamese stacked accents, Tibetan stacks, pointed Hebrew) pass as typed.
    @Test(arguments: [
        "مُحَمَّد", "عائشة", "प्रियंका", "क्षितिज", "สมชาย", "ณัฐวุฒิ", "Nguyễn Thị Ánh",
        "Nguye\u{0302}\u{0303}n", "བསྒྲུབས", "שָׁלוֹם", "Zoë 1️⃣", "ಕನ್ನಡ", "Đặng Việt",
    ])
    func acceptsNamesInScriptsWithMarks(name: String) throws {
        #expect(try NameRules.check(name) == name)
    }

    @Test func refusesTowersOfCombiningMarks() {
        let five = "a" + String(repeating: "\u{0301}", count: 5)
        #expect(throws: NameRules.Refusal.tooManyMarks) { try NameRules.check(five) }
        // 500 marks on one letter count as one character: without the limit this name is 1 long.
        let tower = "a" + String(repeating: "\u{0336}", count: 500)
        #expect(throws: NameRules.Refusal.tooManyMarks) { try NameRules.check(tower) }
        // An invisible joiner between marks does not start a new character.
        let hidden = "a\u{0301}\u{0301}\u{0301}\u{200D}\u{0301}\u{0301}"
        #expect(throws: NameRules.Refusal.tooManyMarks) { try NameRules.check(hidden) }
        let four = "a" + String(repeating: "\u{0301}", count: 4)
        #expect((try? NameRules.check(four)) != nil)
    }

    @Test(arguments: ["Ana\u{E0041}", "\u{E0001}en Bo", "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"])
    func refusesTagCharacters(name: String) {
        #expect(throws: NameRules.Refusal.tag) { try NameRules.check(name) }
    }

    @Test func returnsTheCanonicalComposition() throws {
        let name = try NameRules.check("Jose\u{0301}")
        #expect(Array(name.unicodeScalars) == Array("Jos\u{E9}".unicodeScalars))
    }

    /// "Ana" with a zero-width space, a soft hyphen, a word joiner, in full-width letters or in capitals is not
    /// a second Ana: the room tells them apart with a number.
    @Test(arguments: ["Ana\u{200B}", "A\u{00AD}na", "\u{2060}Ana", "Ａｎａ", "ANA", "Ana\u{FE0F}"])
    func lookalikeNamesAreNotSecondNames(name: String) {
        #expect(NameRules.comparisonKey(name) == NameRules.comparisonKey("Ana"))
        #expect(NameRules.distinct(name, among: ["Ana"]) == name + " (2)")
    }

    @Test func differentNamesStayDifferent() {
        #expect(NameRules.distinct("Anna", among: ["Ana"]) == "Anna")
        #expect(NameRules.distinct("Ána", among: ["Ana"]) == "Ána")
        #expect(NameRules.distinct("Ana B", among: ["AnaB"]) == "Ana B")
        #expect(NameRules.distinct("Ana", among: ["Ana\u{200B}", "Ana (2)"]) == "Ana (3)")
    }

    @Test(arguments: [
        ("evil\u{202E}txt", NameRules.Refusal.bidirectional), ("a\u{2067}b", .bidirectional),
        ("bell\u{7}", .control), ("two\nlines", .control), ("tab\tbed", .control), ("x\u{2029}y", .control),
        ("smuggled\u{E0068}\u{E0069}", .tag), ("z" + String(repeating: "\u{0489}", count: 30), .tooManyMarks),
        ("\u{200B}\u{200B}", .invisible), ("\u{2800} \u{3164}", .invisible), ("\u{0301}\u{0301}", .invisible),
    ])
    func refusesChatLinesWithTheReason(line: String, reason: NameRules.Refusal) {
        #expect(throws: reason) { try NameRules.checkChat(line) }
    }

    @Test func chatKeepsWhatPeopleWrite() throws {
        #expect(try NameRules.checkChat("  hello   there ") == "hello there")
        #expect(try NameRules.checkChat("   ") == nil)
        #expect(try NameRules.checkChat("مرحبا بِكُم 👋🏽 xin chào ทุกคน") == "مرحبا بِكُم 👋🏽 xin chào ทุกคน")
        // Newer emoji than this server's tables, and private-use symbols, are not refused in chat.
        #expect(try NameRules.checkChat("look \u{E000}") == "look \u{E000}")
    }

    @Test func chatRefusalsNameWhy() {
        let error = RoomError(.badChat(.bidirectional), move: "chat")
        #expect(error.code == "bad-chat")
        #expect(error.message.contains("direction"))
        #expect(RoomError(.badChat(.control)).message.contains("control"))
        #expect(RoomError(.badChat(.invisible)).message.contains("invisible"))
    }
}

private extension NameRules.Refusal {
    /// The reply this refusal becomes.
    var error: RoomError.Reason { .badName(self) }
}
