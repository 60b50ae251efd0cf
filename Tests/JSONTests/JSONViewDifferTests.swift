import JSON
import Testing

@Suite struct JSONViewDifferTests {
    struct Line: Codable, Equatable {
        var player: String
        var score: Int
        /// Not shown: a change of it alone changes no JSON.
        var hasTurn = false

        private enum CodingKeys: String, CodingKey { case player, score }
    }

    struct Settings: Codable, Equatable {
        var rounds: Int
        var timer: Int?
    }

    struct View: Encodable, Equatable {
        var number = 1
        var status = "playing"
        var word: String?
        var lines: [Line] = []
        var found: [String] = []
        var settings = Settings(rounds: 3, timer: nil)
        var deadline: Double?

        private enum CodingKeys: String, CodingKey { case number, status, word, lines, found, settings, deadline }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(number, forKey: .number)
            try container.encode(status, forKey: .status)
            try container.encodeIfPresent(word, forKey: .word)
            try container.encode(lines, forKey: .lines)
            try container.encode(found, forKey: .found)
            try container.encode(settings, forKey: .settings)
            try container.encode(deadline, forKey: .deadline)
        }
    }

    /// Each update's operations, applied to the previous JSON, give the new view's JSON.
    private static func check(_ views: [View]) throws -> [[JSONPatch.Operation]] {
        var differ = JSONViewDiffer<View>()
        var all: [[JSONPatch.Operation]] = []
        var shown = try differ.json(of: views[0])
        #expect(try differ.update(to: views[0], at: ["game"]).isEmpty, "the first update only records")
        for view in views.dropFirst() {
            let operations = try differ.update(to: view, at: ["game"])
            var document: JSONValue = ["game": shown]
            try JSONPatch(operations).apply(to: &document)
            shown = try differ.json(of: view)
            #expect(document == ["game": shown], "the operations do not give \(view)")
            all.append(operations)
        }
        return all
    }

    @Test func anUnchangedViewGivesNoOperations() throws {
        let view = View(lines: [Line(player: "p1", score: 2)], found: ["toast"])
        let operations = try Self.check([view, view, view])
        #expect(operations.allSatisfy { $0.isEmpty })
    }

    @Test func absentOptionalsAreNullAndAValueComingIsAReplace() throws {
        var differ = JSONViewDiffer<View>()
        let first = View()
        #expect(try differ.json(of: first)["word"] == .null)
        _ = try differ.update(to: first, at: [])
        var second = first
        second.word = "SNOW"
        #expect(try differ.update(to: second, at: ["g"]) == [.replace(path: JSONPointer(tokens: ["g", "word"]),
                                                                       value: "SNOW")])
    }

    @Test func anAppendedElementIsOneAdd() throws {
        var view = View(lines: [Line(player: "p1", score: 0)])
        var next = view
        next.lines.append(Line(player: "p2", score: 0))
        let operations = try Self.check([view, next])
        #expect(operations == [[.add(path: JSONPointer(tokens: ["game", "lines", "1"]),
                                      value: ["player": "p2", "score": 0])]])
        view = next
    }

    @Test func aPrependedElementIsOneAddAtTheFront() throws {
        let view = View(found: ["toast", "oats"])
        var next = view
        next.found.insert("stoat", at: 0)
        let operations = try Self.check([view, next])
        #expect(operations == [[.add(path: JSONPointer(tokens: ["game", "found", "0"]), value: "stoat")]])
    }

    @Test func anElementChangedInPlaceIsReplacedByItself() throws {
        let view = View(lines: [Line(player: "p1", score: 1), Line(player: "p2", score: 4), Line(player: "p3", score: 0)])
        var next = view
        next.lines[1].score = 6
        let operations = try Self.check([view, next])
        #expect(operations == [[.replace(path: JSONPointer(tokens: ["game", "lines", "1"]),
                                          value: ["player": "p2", "score": 6])]])
    }

    @Test func aChangeTheJSONDoesNotShowStillGivesTheSameState() throws {
        let view = View(lines: [Line(player: "p1", score: 1, hasTurn: true), Line(player: "p2", score: 4)])
        var next = view
        next.lines[0].hasTurn = false
        next.lines[1].hasTurn = true
        // The lines compare unequal, so they are replaced, with what they already were.
        _ = try Self.check([view, next])
    }

    @Test func removedElementsAreRemovedFromTheBack() throws {
        let view = View(found: ["a", "b", "c", "d"])
        var next = view
        next.found.removeSubrange(1...2)
        let operations = try Self.check([view, next])
        #expect(operations == [[.remove(path: JSONPointer(tokens: ["game", "found", "2"])),
                                 .remove(path: JSONPointer(tokens: ["game", "found", "1"]))]])
    }

    @Test func aNestedValueIsDiffedMemberByMember() throws {
        let view = View()
        var next = view
        next.settings.timer = 30
        let operations = try Self.check([view, next])
        #expect(operations == [[.replace(path: JSONPointer(tokens: ["game", "settings", "timer"]), value: 30)]])
    }

    @Test func manyChangesAtOnceStillGiveTheNewState() throws {
        var random = SystemRandomNumberGenerator()
        var views = [View()]
        for step in 0..<300 {
            var view = views[views.count - 1]
            switch Int.random(in: 0..<9, using: &random) {
            case 0: view.number += 1
            case 1: view.word = Bool.random(using: &random) ? nil : "W\(step)"
            case 2: view.lines.append(Line(player: "p\(step)", score: 0))
            case 3: if !view.lines.isEmpty { view.lines[Int.random(in: 0..<view.lines.count, using: &random)].score += 1 }
            case 4: if !view.lines.isEmpty { view.lines.remove(at: Int.random(in: 0..<view.lines.count, using: &random)) }
            case 5: view.found.insert("w\(step)", at: 0)
            case 6: view.found = view.found.shuffled(using: &random)
            case 7: view.settings = Settings(rounds: Int.random(in: 1...9, using: &random), timer: nil)
            default: view.deadline = Double(step) + 0.5
            }
            views.append(view)
        }
        _ = try Self.check(views)
    }
}

@Suite struct JSONValueEncoderNilMembersTests {
    struct Settings: Encodable {
        var rounds: Int
        var timer: Int?
    }

    @Test func nilMembersAreLeftOutUnlessAskedToBeNull() throws {
        let settings = Settings(rounds: 3, timer: nil)
        #expect(try JSONValueEncoder().encode(settings) == ["rounds": 3])
        #expect(try JSONValueEncoder(writesNilMembers: true).encode(settings) == ["rounds": 3, "timer": .null])
        #expect(try JSONValueEncoder(writesNilMembers: true).encode([settings])
            == [["rounds": 3, "timer": .null]], "nested values write them too")
    }
}
