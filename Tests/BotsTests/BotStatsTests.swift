import Testing
@testable import Bots

@Suite struct BotStatsTests {
    private func sample(moves: Int, latencies: [UInt64], errors: [String: Int], closes: [UInt16: Int]) -> BotStats {
        var stats = BotStats()
        stats.moves = moves
        stats.openConnections = moves * 2
        stats.protocolErrors = errors
        stats.unexpectedCloses = closes
        for latency in latencies { stats.moveToPatch.record(latency) }
        return stats
    }

    @Test func mergeAddsCountsGaugesKeyedCountsAndHistograms() {
        var total = sample(moves: 3, latencies: [100, 200], errors: ["seq-gap": 1], closes: [1006: 2])
        total.merge(sample(moves: 4, latencies: [300], errors: ["seq-gap": 2, "error:kicked": 1], closes: [1008: 1]))
        #expect(total.moves == 7)
        #expect(total.openConnections == 14)
        #expect(total.protocolErrors == ["seq-gap": 3, "error:kicked": 1])
        #expect(total.protocolErrorCount == 4)
        #expect(total.unexpectedCloses == [1006: 2, 1008: 1])
        #expect(total.unexpectedCloseCount == 3)
        #expect(total.moveToPatch.count == 3)
        #expect(total.moveToPatch.max == 300)
        #expect(total.moveToPatch.min == 100)
    }

    @Test func mergingIntoEmptyStatsCopiesThem() {
        let part = sample(moves: 5, latencies: [42], errors: [:], closes: [:])
        var total = BotStats()
        total.merge(part)
        #expect(total == part)
    }

    @Test func protocolErrorCountsByKind() {
        var stats = BotStats()
        stats.protocolError("bad-json")
        stats.protocolError("bad-json")
        stats.protocolError("seq-gap")
        #expect(stats.protocolErrors == ["bad-json": 2, "seq-gap": 1])
        #expect(stats.protocolErrorCount == 3)
    }

    @Test func mergeListsEveryFieldOnce() {
        // A counter added to the struct but not to a merge list would stay at the driver's own (zero) share.
        let fields = Mirror(reflecting: BotStats()).children.map { type(of: $0.value) }
        #expect(BotStats.counts.count == fields.filter { $0 == Int.self }.count)
        #expect(Set(BotStats.counts.map { $0 as WritableKeyPath }).count == BotStats.counts.count)
        #expect(BotStats.countsByName.count == fields.filter { $0 == [String: Int].self }.count)
        #expect(Set(BotStats.countsByName.map { $0 as WritableKeyPath }).count == BotStats.countsByName.count)
        #expect(BotStats.latencies.count == fields.filter { $0 == LogLinearHistogram.self }.count)
        #expect(Set(BotStats.latencies.map { $0 as WritableKeyPath }).count == BotStats.latencies.count)
        #expect(fields.filter { $0 == [UInt16: Int].self }.count == 1, "unexpectedCloses, merged on its own")
        #expect(fields.count == BotStats.counts.count + BotStats.countsByName.count + BotStats.latencies.count + 1)
    }

    @Test func mergeAddsEveryListedField() {
        var part = BotStats()
        for (index, field) in BotStats.counts.enumerated() { part[keyPath: field] = index + 1 }
        for field in BotStats.countsByName { part[keyPath: field] = ["kind": 2] }
        for field in BotStats.latencies { part[keyPath: field].record(50) }
        var total = part
        total.merge(part)
        for (index, field) in BotStats.counts.enumerated() { #expect(total[keyPath: field] == 2 * (index + 1)) }
        for field in BotStats.countsByName { #expect(total[keyPath: field] == ["kind": 4]) }
        for field in BotStats.latencies { #expect(total[keyPath: field].count == 2) }
    }
}
