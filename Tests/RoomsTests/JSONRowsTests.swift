import Testing
@testable import Rooms

/// `JSONRows` tells a list whose entries changed in place from one that grew or shrank.
@Suite struct JSONRowsTests {
    @Test func firstListIsWholeThenEntriesThenUnchanged() {
        var rows = JSONRows<Int>()
        #expect(rows.change(to: [1, 2, 3]) == .whole, "nothing built yet")
        rows.remember([1, 2, 3])
        #expect(rows.change(to: [1, 2, 3]) == .unchanged)
        #expect(rows.change(to: [1, 5, 3]) == .entries)
        rows.remember([1, 5, 3])
        #expect(rows.previous == [1, 5, 3])
    }

    @Test func aListThatGrowsOrShrinksIsRebuiltWhole() {
        var rows = JSONRows<Int>()
        rows.remember([1, 2])
        #expect(rows.change(to: [1, 2, 3]) == .whole)
        #expect(rows.change(to: [1]) == .whole)
        #expect(rows.change(to: []) == .whole)
    }

    @Test func anEmptyListIsKnownOnceRemembered() {
        var rows = JSONRows<Int>()
        #expect(rows.change(to: []) == .whole)
        rows.remember([])
        #expect(rows.change(to: []) == .unchanged)
    }
}
