import JSON
import Testing

@Suite struct JSONPatchDiffTests {
    // MARK: - Minimal patches for the common cases

    static let words: [JSONValue] = (0..<100).map { .string("word\($0)") }
    static let longText: JSONValue = .string(String(repeating: "long unchanged text ", count: 5))

    @Test func equalValuesGiveAnEmptyPatch() {
        let state: JSONValue = ["words": .array(Self.words), "round": 1, "o": ["a": 1, "b": 2]]
        #expect(JSONPatch.diff(from: state, to: state).isEmpty)
        // Equal though built differently: reordered members, 1 as a double.
        let rebuilt: JSONValue = ["o": ["b": 2, "a": 1], "round": 1.0, "words": .array(Self.words)]
        #expect(JSONPatch.diff(from: state, to: rebuilt).isEmpty)
    }

    @Test func prependingToALongListGivesOneAdd() throws {
        let old: JSONValue = ["words": .array(Self.words)]
        let new: JSONValue = ["words": .array(["newest"] + Self.words)]
        #expect(JSONPatch.diff(from: old, to: new).operations
            == [.add(path: try JSONPointer("/words/0"), value: "newest")])
    }

    @Test func appendingToAListGivesOneAdd() throws {
        let old: JSONValue = ["words": .array(Self.words)]
        let new: JSONValue = ["words": .array(Self.words + ["last"])]
        #expect(JSONPatch.diff(from: old, to: new).operations
            == [.add(path: try JSONPointer("/words/100"), value: "last")])
    }

    @Test(arguments: [0, 37, 99])
    func removingOneItemGivesOneRemove(_ index: Int) throws {
        var fewer = Self.words
        fewer.remove(at: index)
        let patch = JSONPatch.diff(from: ["words": .array(Self.words)], to: ["words": .array(fewer)])
        #expect(patch.operations == [.remove(path: try JSONPointer("/words/\(index)"))])
    }

    @Test func insertingInTheMiddleGivesOneAdd() throws {
        var more = Self.words
        more.insert("middle", at: 50)
        let patch = JSONPatch.diff(from: .array(Self.words), to: .array(more))
        #expect(patch.operations == [.add(path: try JSONPointer("/50"), value: "middle")])
    }

    @Test func changingOneItemInPlaceGivesOneReplace() throws {
        var changed = Self.words
        changed[5] = "changed"
        let patch = JSONPatch.diff(from: ["words": .array(Self.words)], to: ["words": .array(changed)])
        #expect(patch.operations == [.replace(path: try JSONPointer("/words/5"), value: "changed")])
    }

    @Test func changingOneNestedFieldGivesOneReplace() throws {
        let old = JSONWriterTests.typicalRoomState()
        var new = old
        new["players"]?[2]?["score"] = 999
        #expect(JSONPatch.diff(from: old, to: new).operations
            == [.replace(path: try JSONPointer("/players/2/score"), value: 999)])
    }

    @Test func boundedNewestFirstListGivesAddAndRemove() throws {
        // Prepend the newest word and drop the oldest, keeping 100.
        let new = ["newest"] + Self.words.dropLast()
        let patch = JSONPatch.diff(from: .array(Self.words), to: .array(new))
        #expect(patch.operations == [
            .add(path: try JSONPointer("/0"), value: "newest"),
            .remove(path: try JSONPointer("/100")),
        ])
    }

    @Test func shiftingAQueueGivesRemoveAndAdd() throws {
        let new = Array(Self.words.dropFirst()) + ["next"]
        let patch = JSONPatch.diff(from: .array(Self.words), to: .array(new))
        #expect(patch.operations == [
            .remove(path: try JSONPointer("/0")),
            .add(path: try JSONPointer("/99"), value: "next"),
        ])
    }

    @Test func addsAndRemovesObjectMembers() throws {
        // Long unchanged members keep a single replace from being the smaller patch.
        let old: JSONValue = ["a": Self.longText, "gone": true, "c": ["x": Self.longText]]
        let new: JSONValue = ["a": Self.longText, "c": ["x": Self.longText, "y": 2], "new": "here"]
        #expect(JSONPatch.diff(from: old, to: new).operations == [
            .remove(path: try JSONPointer("/gone")),
            .add(path: try JSONPointer("/c/y"), value: 2),
            .add(path: try JSONPointer("/new"), value: "here"),
        ])
    }

    @Test func escapesMemberNamesInPaths() throws {
        let patch = JSONPatch.diff(from: ["a/b": ["m~n": 1]], to: ["a/b": ["m~n": 2]])
        #expect(patch.operations.map(\.path.description) == ["/a~1b/m~0n"])
    }

    @Test func treatsCanonicallyEquivalentKeysAsDifferent() throws {
        let patch = JSONPatch.diff(from: ["\u{E9}": 1, "text": Self.longText],
                                   to: ["text": Self.longText, "e\u{301}": 1])
        #expect(patch.operations == [
            .remove(path: JSONPointer(tokens: ["\u{E9}"])),
            .add(path: JSONPointer(tokens: ["e\u{301}"]), value: 1),
        ])
    }

    @Test func replacesValuesOfAnotherType() throws {
        #expect(JSONPatch.diff(from: ["a": [1]], to: ["a": ["x": 1]]).operations
            == [.replace(path: try JSONPointer("/a"), value: ["x": 1])])
        #expect(JSONPatch.diff(from: 1, to: "1").operations == [.replace(path: .root, value: "1")])
        #expect(JSONPatch.diff(from: [1], to: nil).operations == [.replace(path: .root, value: nil)])
    }

    @Test func replacesAClearedListInsteadOfRemovingEachItem() throws {
        let patch = JSONPatch.diff(from: ["words": .array(Self.words)], to: ["words": []])
        #expect(patch.operations == [.replace(path: try JSONPointer("/words"), value: [])])
    }

    @Test func replacesAnUnrelatedArrayWhole() throws {
        let board: JSONValue = .array((0..<5).map { row in .array((0..<5).map { .string("\(row)\($0)") }) })
        let nextBoard: JSONValue = .array((0..<5).map { row in .array((0..<5).map { .string("\($0)\(row)x") }) })
        let patch = JSONPatch.diff(from: ["board": board], to: ["board": nextBoard])
        #expect(patch.operations == [.replace(path: try JSONPointer("/board"), value: nextBoard)])
    }

    @Test func replacesAnObjectWhoseMembersAllChanged() throws {
        let patch = JSONPatch.diff(from: ["s": ["a": 1, "b": 2, "c": 3]], to: ["s": ["a": 4, "b": 5, "c": 6]])
        #expect(patch.operations == [.replace(path: try JSONPointer("/s"), value: ["a": 4, "b": 5, "c": 6])])
    }

    @Test func findsEditsAtBothEndsOfALongList() throws {
        let long: [JSONValue] = (0..<10_000).map { .integer(Int64($0)) }
        let patch = JSONPatch.diff(from: .array(long), to: .array(["first"] + long + ["last"]))
        #expect(patch.operations == [
            .add(path: try JSONPointer("/0"), value: "first"),
            .add(path: try JSONPointer("/10001"), value: "last"),
        ])
    }

    @Test func replacesALongListThatChangedEverywhere() throws {
        let long: [JSONValue] = (0..<10_000).map { .integer(Int64($0)) }
        let shuffled: [JSONValue] = (0..<10_000).map { .integer(Int64(($0 * 7_919) % 10_000)) }
        let patch = JSONPatch.diff(from: ["list": .array(long)], to: ["list": .array(shuffled)])
        #expect(patch.operations == [.replace(path: try JSONPointer("/list"), value: .array(shuffled))])
    }

    // MARK: - Properties

    /// apply(diff(a, b), a) == b for thousands of random pairs: unrelated values, and values after many random
    /// edits deep inside (inserts, deletions, moves, reorders, replacements). Each case's seed is in its message.
    @Test func applyingTheDiffAlwaysGivesTheTarget() throws {
        for seed in UInt64(0)..<3000 {
            var random = RandomJSON(seed: seed)
            let old = random.value(depth: 5)
            let new = seed % 4 == 0 ? random.value(depth: 5) : random.mutated(old, edits: random.int(1...8))
            try expectDiffReproduces(old, new, seed: seed)
        }
    }

    /// A single insert, removal or scalar replacement anywhere gives at most one operation.
    @Test func oneEditGivesAtMostOneOperation() throws {
        for seed in UInt64(10_000)..<12_000 {
            var random = RandomJSON(seed: seed)
            let old = random.value(depth: 5)
            let new = random.mutated(old, edits: 1, singleOperation: true)
            let patch = try expectDiffReproduces(old, new, seed: seed)
            #expect(patch.operations.count <= 1, "seed \(seed): \(patch.json)")
        }
    }

    /// Lists of a few repeated words after k insertions and deletions need at most k operations.
    @Test func listEditsNeedNoMoreOperationsThanEdits() throws {
        let vocabulary: [JSONValue] = ["a", "b", "c", "d"]
        for seed in UInt64(20_000)..<21_000 {
            var random = RandomJSON(seed: seed)
            let old = (0..<random.int(0...40)).map { _ in vocabulary[random.int(0...3)] }
            var new = old
            let edits = random.int(1...12)
            for _ in 0..<edits {
                if !new.isEmpty, random.chance(0.5) {
                    new.remove(at: random.int(0...new.count - 1))
                } else {
                    new.insert(vocabulary[random.int(0...3)], at: random.int(0...new.count))
                }
            }
            let patch = try expectDiffReproduces(.array(old), .array(new), seed: seed)
            #expect(patch.operations.count <= edits, "seed \(seed): \(patch.json)")
        }
    }

    /// The patch is never much larger than replacing the whole document.
    @Test func patchesAreNoLargerThanAReplacement() throws {
        for seed in UInt64(30_000)..<31_000 {
            var random = RandomJSON(seed: seed)
            let old = random.value(depth: 4)
            let new = random.mutated(old, edits: random.int(1...20))
            let patch = try expectDiffReproduces(old, new, seed: seed)
            let patchSize = JSONWriter().serialize(patch.json).count
            let replacementSize = JSONWriter().serialize(JSONPatch([.replace(path: .root, value: new)]).json).count
            #expect(patchSize <= replacementSize * 2 + 64, "seed \(seed): \(patchSize) vs \(replacementSize)")
        }
    }

    // MARK: - Helpers

    /// Checks that the diff, applied directly and after a trip through JSON text, turns `old` into `new`.
    @discardableResult
    private func expectDiffReproduces(
        _ old: JSONValue, _ new: JSONValue, seed: UInt64, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> JSONPatch {
        let patch = JSONPatch.diff(from: old, to: new)
        let result = try patch.apply(to: old)
        #expect(result == new, "seed \(seed): \(old) -> \(new) via \(patch.json) gave \(result)",
                sourceLocation: sourceLocation)
        let wire = try JSONPatch(json: try JSONParser().parse(JSONWriter().serialize(patch.json)))
        #expect(wire == patch, "seed \(seed): patch changed on the wire", sourceLocation: sourceLocation)
        return patch
    }
}
