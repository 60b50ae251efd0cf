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
        #expect(Set([NameRules.Refusal.empty, .tooLong, .control, .bidirectional, .unassigned, .privateUse, .invisible]
            .map(\.error.message)).count == 7)
        #expect([NameRules.Refusal.empty, .tooLong, .control].allSatisfy { $0.error.code == "bad-name" })
    }
}

private extension NameRules.Refusal {
    /// The reply this refusal becomes.
    var error: RoomError.Reason { .badName(self) }
}
