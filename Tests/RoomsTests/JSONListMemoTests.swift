import JSON
import Testing
@testable import Rooms

/// The list memo must always return the JSON a full rebuild would give, while building only the new elements.
@Suite struct JSONListMemoTests {
    private struct Counter {
        var builds = 0
        mutating func build(_ value: Int) -> JSONValue {
            builds += 1
            return ["n": JSONValue(value)]
        }
    }

    private func full(_ list: [Int]) -> JSONValue {
        .array(list.map { ["n": JSONValue($0)] })
    }

    @Test func buildsOnlyWhatIsNew() {
        var memo = JSONListMemo<Int>()
        var counter = Counter()
        let steps: [([Int], Int)] = [
            ([1, 2, 3], 3),          // first build: everything
            ([1, 2, 3], 0),          // unchanged
            ([1, 2, 3, 4], 1),       // appended (guesses, chat)
            ([0, 1, 2, 3, 4], 1),    // put in front (found words)
            ([2, 3, 4, 5], 1),       // oldest dropped, one appended (a bounded chat)
            ([4, 5, 6, 7], 2),       // two dropped, two appended
            ([4, 9, 6, 7], 1),       // one changed in the middle
            ([], 0),                 // cleared (a new round)
            ([8], 1),
        ]
        for (list, builds) in steps {
            counter.builds = 0
            let json = memo.value(for: list) { counter.build($0) }
            #expect(json == full(list), "\(list)")
            #expect(counter.builds == builds, "\(list)")
        }
    }

    @Test func randomEditsAlwaysMatchAFullBuild() {
        var memo = JSONListMemo<Int>()
        var generator = SystemRandomNumberGenerator()
        var list: [Int] = []
        var next = 0
        for _ in 0..<2_000 {
            switch Int.random(in: 0..<6, using: &generator) {
            case 0: next += 1; list.append(next)
            case 1: next += 1; list.insert(next, at: 0)
            case 2: if !list.isEmpty { list.removeFirst(Int.random(in: 1...list.count, using: &generator)) }
            case 3: if !list.isEmpty { list[Int.random(in: 0..<list.count, using: &generator)] = -next }
            case 4: if list.count > 30 { list.removeFirst(); next += 1; list.append(next) }
            default: if Int.random(in: 0..<20, using: &generator) == 0 { list = [] }
            }
            #expect(memo.value(for: list) { ["n": JSONValue($0)] } == full(list))
        }
    }
}
