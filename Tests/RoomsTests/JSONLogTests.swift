import JSON
import Testing
@testable import Rooms

/// How a list that changes at its ends is classified: the builder turns edits into entry operations and
/// anything it cannot explain into a replace of the whole list.
@Suite struct JSONLogTests {
    private func build(_ value: Int) -> JSONValue { JSONValue(value) }

    @Test func backLogWithOrdinals() {
        var log = JSONLog<Int>(newestAt: .back)
        _ = log.reset([1, 2, 3], generation: 0, ordinal: { $0 }, build)
        #expect(log.edit(to: [1, 2, 3], generation: 0, ordinal: { $0 }) == .unchanged)
        #expect(log.edit(to: [1, 2, 3, 4], generation: 0, ordinal: { $0 }) == .edit(dropped: 0, added: 1))
        #expect(log.edit(to: [3, 4, 5], generation: 0, ordinal: { $0 }) == .edit(dropped: 2, added: 1))
        #expect(log.edit(to: [4, 5], generation: 0, ordinal: { $0 }) == .edit(dropped: 1, added: 0))
        #expect(log.edit(to: [4, 5], generation: 1, ordinal: { $0 }) == .reset, "a new generation")
    }

    @Test func frontLogWithoutOrdinals() {
        var log = JSONLog<Int>(newestAt: .front)
        _ = log.reset([30, 20, 10], generation: 5, ordinal: nil, build)
        #expect(log.edit(to: [40, 30, 20, 10], generation: 5, ordinal: nil) == .edit(dropped: 0, added: 1))
        #expect(log.edit(to: [60, 50, 40, 30, 20, 10], generation: 5, ordinal: nil) == .edit(dropped: 0, added: 2))
        #expect(log.edit(to: [50, 40], generation: 5, ordinal: nil) == .reset, "shrank without ordinals")
    }

    @Test func movedNewestEntryIsAReset() {
        var log = JSONLog<Int>(newestAt: .back)
        _ = log.reset([1, 2, 3], generation: 0, ordinal: nil, build)
        // Same growth, but the old newest entry is not where an append would leave it.
        #expect(log.edit(to: [1, 2, 7, 8], generation: 0, ordinal: nil) == .reset)
    }

    @Test func largeEditsAreAReset() {
        var log = JSONLog<Int>(newestAt: .back)
        _ = log.reset([1], generation: 0, ordinal: { $0 }, build)
        let many = Array(1...(2 + JSONLog<Int>.maxEntryOperations))
        #expect(log.edit(to: many, generation: 0, ordinal: { $0 }) == .reset)
    }
}
