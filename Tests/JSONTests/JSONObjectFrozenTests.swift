import JSON
import Testing

/// A frozen object (kept as its text) must behave exactly as its plain form in every operation.
@Suite struct JSONObjectFrozenTests {
    private static let entry: JSONObject = [
        "id": 314, "player": "p2", "name": "Zoë \"the\" ⛄\n", "text": "hello \\ world", "at": 1796271901.606734,
        "none": nil, "flag": true, "list": [1, 2.5, "three", [:], []], "nested": ["deep": ["er": [-7]]],
    ]

    /// A chat line, as a log of them holds.
    private static func line(_ id: Int) -> JSONObject {
        ["id": JSONValue(id), "name": JSONValue("Bot \(id % 8)"), "text": JSONValue("line \(id)")]
    }

    private static func text(_ value: JSONValue) -> String {
        String(decoding: JSONWriter().serialize(value), as: UTF8.self)
    }

    @Test func writesTheSameBytesAsThePlainObject() {
        let frozen = Self.entry.frozen()
        #expect(frozen.isFrozen)
        #expect(!Self.entry.isFrozen)
        #expect(Self.text(.object(frozen)) == Self.text(.object(Self.entry)))
        // Inside other values too, and frozen twice is the same.
        let list: JSONValue = [.object(frozen), .object(frozen.frozen()), 3]
        #expect(Self.text(list) == Self.text([.object(Self.entry), .object(Self.entry), 3]))
        #expect(frozen.frozen().isFrozen)
    }

    @Test func equalsAndHashesAsThePlainObject() {
        let frozen = Self.entry.frozen()
        #expect(frozen == Self.entry)
        #expect(Self.entry == frozen)
        #expect(frozen.hashValue == Self.entry.hashValue)
        #expect(Set([JSONValue.object(frozen), .object(Self.entry)]).count == 1)
        var other = Self.entry
        other["id"] = 315
        #expect(frozen != other.frozen())
        #expect(frozen != other)
        // Different texts of equal objects (member order, 1 against 1.0) are still equal.
        let one: JSONObject = ["a": 1, "b": 2]
        let two: JSONObject = ["b": 2, "a": .number(1.0)]
        #expect(one.frozen() == two.frozen())
        #expect(one.frozen().hashValue == two.frozen().hashValue)
    }

    @Test func readsMembersAsThePlainObject() throws {
        let frozen = Self.entry.frozen()
        #expect(frozen.count == Self.entry.count)
        #expect(Array(frozen.keys) == Array(Self.entry.keys))
        #expect(Array(frozen.values) == Array(Self.entry.values))
        #expect(frozen["name"] == "Zoë \"the\" ⛄\n")
        #expect(frozen["none"] == .null)
        #expect(frozen["missing"] == nil)
        #expect(frozen.index(forKey: "at") == Self.entry.index(forKey: "at"))
        #expect(frozen[2].key == "name")
        var seen: [String] = []
        for (key, _) in frozen { seen.append(key) }
        #expect(seen == Array(Self.entry.keys))
        #expect(try JSONPointer("/nested/deep/er/0").resolve(in: .object(frozen)) == -7)
    }

    @Test func changesMakeItPlainAndLeaveCopiesAlone() {
        let frozen = Self.entry.frozen()
        var changed = frozen
        changed["text"] = "edited"
        #expect(!changed.isFrozen)
        #expect(changed["text"] == "edited")
        #expect(changed["id"] == 314)
        #expect(frozen.isFrozen)
        #expect(frozen["text"] == "hello \\ world")

        var removed = frozen
        #expect(removed.removeValue(forKey: "id") == 314)
        #expect(removed.count == Self.entry.count - 1)
        var edited = frozen
        edited.withValue(forKey: "list") { $0 = "gone" }
        #expect(edited["list"] == "gone")
        #expect(frozen == Self.entry)
    }

    @Test func diffsAsThePlainObjects() throws {
        let old: JSONValue = [.object(Self.entry.frozen()), .object(["word": "cat", "points": 3])]
        #expect(JSONPatch.diff(from: old, to: old).operations.isEmpty)
        // The same text frozen twice (two allocations) is unchanged too.
        let again: JSONValue = [.object(Self.entry.frozen()), .object(["word": "cat", "points": 3])]
        #expect(JSONPatch.diff(from: old, to: again).operations.isEmpty)

        var renamed = Self.entry
        renamed["name"] = "Zed"
        let new: JSONValue = [.object(renamed.frozen()), (["word": "cat", "points": 3] as JSONValue).frozen]
        let patch = JSONPatch.diff(from: old, to: new)
        let plainPatch = JSONPatch.diff(from: [.object(Self.entry), .object(["word": "cat", "points": 3])],
                                        to: [.object(renamed), .object(["word": "cat", "points": 3])])
        #expect(patch == plainPatch)
        #expect(patch.operations.count == 1)
        #expect(try patch.apply(to: old) == new)
    }

    @Test func aShiftedLogOfFrozenEntriesDiffsAsItsPlainForm() throws {
        // A chat log at its cap of 30: the five oldest lines go, five new ones come.
        let old = JSONValue.array((0..<30).map { .object(Self.line($0).frozen()) })
        let new = JSONValue.array((5..<35).map { .object(Self.line($0).frozen()) })
        let patch = JSONPatch.diff(from: old, to: new)
        let plain = JSONPatch.diff(from: .array((0..<30).map { .object(Self.line($0)) }),
                                   to: .array((5..<35).map { .object(Self.line($0)) }))
        #expect(patch == plain)
        #expect(patch.operations.count == 10)
        #expect(try patch.apply(to: old) == new)
    }

    @Test func aLogMovedFurtherThanAnAlignmentFollowsStillPatchesRight() throws {
        // Twenty new lines in a log of thirty: more edits than the alignment looks for, so entries pair by
        // position, and frozen ones are replaced whole without diffing their members.
        var oldLines = (0..<30).map { JSONValue.object(Self.line($0).frozen()) }
        var newLines = (20..<50).map { JSONValue.object(Self.line($0).frozen()) }
        oldLines[15] = .object(Self.line(99).frozen())
        newLines[15] = .object(Self.line(99).frozen())
        let old = JSONValue.array(oldLines), new = JSONValue.array(newLines)
        let patch = JSONPatch.diff(from: old, to: new)
        #expect(try patch.apply(to: old) == new)
        #expect(try JSONPatch.diff(from: new, to: old).apply(to: new) == old)
    }

    @Test func frozenEntriesEqualInAnotherOrderStillPatchRight() throws {
        // Equal objects whose texts differ (members in another order): the diff may replace one with the other,
        // and the result must still equal the new document.
        let forward: JSONObject = ["a": 1, "b": 2]
        let backward: JSONObject = ["b": 2, "a": 1]
        #expect(forward.frozen() == backward.frozen())
        let old: JSONValue = [.object(forward.frozen()), "x", .object(["c": 3] as JSONObject).frozen]
        let new: JSONValue = ["y", .object(backward.frozen()), "x", .object(["c": 3] as JSONObject).frozen]
        let patch = JSONPatch.diff(from: old, to: new)
        #expect(try patch.apply(to: old) == new)
    }

    @Test func patchesReachIntoAFrozenEntry() throws {
        let document: JSONValue = ["found": [.object(Self.entry.frozen())]]
        let patch = JSONPatch([.replace(path: try JSONPointer("/found/0/id"), value: 1),
                               .add(path: try JSONPointer("/found/0/nested/deep/more"), value: true)])
        let result = try patch.apply(to: document)
        var expected = Self.entry
        expected["id"] = 1
        expected.withValue(forKey: "nested") { nested in
            _ = nested.withObject { $0.withValue(forKey: "deep") { $0.withObject { $0["more"] = true } } }
        }
        #expect(result == ["found": [.object(expected)]])
        #expect(document == ["found": [.object(Self.entry)]])
    }

    @Test func aLargeObjectKeepsItsIndexThroughFreezingAndCopies() {
        var large = JSONObject()
        for number in 0..<40 { large["k\(number)"] = JSONValue(number) }
        let frozen = large.frozen()
        #expect(frozen["k37"] == 37)
        var thawed = frozen
        thawed["k40"] = 40
        #expect(thawed["k40"] == 40)
        #expect(thawed["k0"] == 0)
        // A copy sharing the index is not changed by appends to the other.
        var copy = large
        copy["k41"] = 41
        #expect(large["k41"] == nil)
        #expect(copy["k41"] == 41)
        #expect(copy["k39"] == 39)
        copy.removeValue(forKey: "k0")
        #expect(copy["k1"] == 1)
        #expect(large["k0"] == 0)
        #expect(large.frozen() == large)
    }

    @Test func anEmptyObjectStaysPlain() {
        let empty = JSONObject().frozen()
        #expect(!empty.isFrozen)
        #expect(Self.text(.object(empty)) == "{}")
        #expect(JSONValue.string("x").frozen == "x")
    }

    @Test func nestingDeeperThanTheParsersDefaultLimitThaws() {
        var value: JSONValue = 1
        for _ in 0..<100 { value = ["a": value] }
        guard case .object(let object) = value else { Issue.record("not an object"); return }
        let frozen = object.frozen()
        #expect(frozen == object)
        #expect(frozen["a"] == object["a"])
    }

    @Test func takesNoMoreRoomInAValue() {
        #expect(MemoryLayout<JSONObject>.size == 2 * MemoryLayout<Int>.size)
        #expect(MemoryLayout<JSONValue>.size <= MemoryLayout<String>.size + 1)
    }
}
