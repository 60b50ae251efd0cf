import Rooms
import RoomsTestSupport
import Testing
import Transport
@testable import WordRoomsServer

/// The dashboard's history: bounded rings, per-second rates from cumulative counters, quantiles from histogram
/// deltas, close-code series that line up, and the rooms' move rates.
@Suite struct AdminTimelineTests {
    // MARK: Rings

    @Test func ringKeepsOrderBelowCapacity() {
        var ring = MetricsTimelineRing<Int>(capacity: 4)
        for value in 1...3 { ring.append(value) }
        #expect(ring.elements == [1, 2, 3])
        #expect(ring.count == 3)
        #expect(ring.last == 3)
    }

    @Test(arguments: [4, 5, 7, 8, 9, 1001])
    func ringWrapsDroppingTheOldest(appended: Int) {
        var ring = MetricsTimelineRing<Int>(capacity: 4)
        for value in 1...appended { ring.append(value) }
        #expect(ring.count == 4)
        #expect(ring.elements == Array((appended - 3)...appended))
        #expect(ring.last == appended)
    }

    @Test func ringOfOneHoldsTheNewest() {
        var ring = MetricsTimelineRing<String>(capacity: 1)
        #expect(ring.isEmpty && ring.last == nil && ring.elements.isEmpty)
        ring.append("a")
        ring.append("b")
        #expect(ring.elements == ["b"])
    }

    @Test func ringStartedLateIsPaddedButBounded() {
        #expect(MetricsTimelineRing(capacity: 3, repeating: 0, count: 2).elements == [0, 0])
        #expect(MetricsTimelineRing(capacity: 3, repeating: 0, count: 10).elements == [0, 0, 0])
    }

    @Test func timelineKeepsAtMostItsCapacity() {
        var timeline = MetricsTimeline(capacity: 900)
        for second in 0..<905 { timeline.append(Self.sample(time: Double(second), connections: second)) }
        #expect(timeline.count == 900)
        #expect(timeline.times.elements.first == 5)
        #expect(timeline.json["connections"]?.arrayValue?.count == 900)
        #expect(timeline.json["connections"]?[0]?.intValue == 5)
        #expect(timeline.json["rooms"]?["snowman"]?.arrayValue?.count == 900)
    }

    @Test func aCloseCodeSeenLateLinesUpWithTheTimes() {
        var timeline = MetricsTimeline(capacity: 10)
        timeline.append(Self.sample(time: 1))
        timeline.append(Self.sample(time: 2))
        timeline.append(Self.sample(time: 3, closes: [1006: 2]))
        timeline.append(Self.sample(time: 4))
        let series = timeline.json["closes"]?["1006"]?.arrayValue?.compactMap(\.doubleValue)
        #expect(series == [0, 0, 2, 0])
    }

    @Test func closeCodesBeyondTheSeriesLimitAreAddedUpAsOther() {
        var timeline = MetricsTimeline(capacity: 10)
        var closes: [UInt16: Double] = [:]
        for code in 0..<(MetricsTimeline.maxCloseSeries + 3) { closes[UInt16(4100 + code)] = 1 }
        timeline.append(Self.sample(time: 1, closes: closes))
        #expect(timeline.closes.count == MetricsTimeline.maxCloseSeries + 1)
        #expect(timeline.closes[0]?.elements == [3])
        let total = timeline.closes.values.reduce(0) { $0 + ($1.last ?? 0) }
        #expect(total == Double(closes.count))
    }

    // MARK: Rates from two readings

    @Test func ratesAreCounterDeltasOverTheInterval() {
        var before = Self.reading(at: 10)
        before.transport.messagesIn = 100
        before.transport.bytesOut = 5_000
        before.transport.handshakeFailures = 3
        before.transport.closesByCode = [1000: 4, 1006: 1]
        before.cpuSeconds = 1.0
        var after = Self.reading(at: 12)
        after.transport.messagesIn = 160
        after.transport.bytesOut = 9_000
        after.transport.handshakeFailures = 3
        after.transport.closesByCode = [1000: 10, 1006: 1, 4001: 2]
        after.transport.openConnections = 42
        after.cpuSeconds = 1.5
        after.moves = 30
        after.residentBytes = 1 << 20
        after.roomsByGame = [.snowman: 2]
        let sample = MetricsTimeline.Sample.between(before, after)
        #expect(sample.messagesIn == 30)
        #expect(sample.bytesOut == 2_000)
        #expect(sample.handshakeFailures == 0)
        #expect(sample.closes == [1000: 3, 4001: 1])
        #expect(sample.moves == 15)
        #expect(sample.cpuPercent == 25)
        #expect(sample.connections == 42)
        #expect(sample.residentBytes == 1 << 20)
        #expect(sample.rooms == [.snowman: 2])
        #expect(sample.time == after.wall)
    }

    @Test func countersThatWentBackwardsCountAsZero() {
        var before = Self.reading(at: 0)
        before.transport.messagesOut = 50
        before.cpuSeconds = 2
        let after = Self.reading(at: 1)
        let sample = MetricsTimeline.Sample.between(before, after)
        #expect(sample.messagesOut == 0)
        #expect(sample.cpuPercent == 0)
    }

    @Test func latencyComesFromTheIntervalsBucketsOnly() {
        var before = Self.reading(at: 0)
        // Earlier observations, all slow: they must not show in this second's quantiles.
        before.fanout.buckets[12] = 50
        var after = Self.reading(at: 1)
        after.fanout.buckets[12] = 50
        // Ten observations in the bucket (0.5 ms, 1 ms]: index 4 of the bounds.
        after.fanout.buckets[4] = 10
        let sample = MetricsTimeline.Sample.between(before, after)
        #expect(sample.fanoutP50 == 0.75)
        #expect(sample.fanoutP99 == 0.995)
        #expect(sample.fanoutMax == 1)
    }

    @Test func noObservationsMeansNoLatency() {
        let sample = MetricsTimeline.Sample.between(Self.reading(at: 0), Self.reading(at: 1))
        #expect(sample.fanoutP50 == nil && sample.fanoutP99 == nil && sample.fanoutMax == nil)
        #expect(sample.json["fanoutP99"] == .null)
    }

    @Test func quantilesSpanBucketsAndTheOverflow() {
        var buckets = Array(repeating: 0, count: LatencyHistogram.bounds.count + 1)
        buckets[0] = 50  // (0, 50 µs]
        buckets[LatencyHistogram.bounds.count] = 50  // above 1 s
        let latency = MetricsTimeline.Latency(buckets: buckets)
        #expect(latency.milliseconds(atQuantile: 0.5) == 0.05)
        #expect(latency.milliseconds(atQuantile: 0.99) == 1000)
        #expect(latency.maxMilliseconds == 1000)
    }

    // MARK: Moves per room

    @Test func roomRatesCountMovesSinceTheLastSecond() {
        var rates = AdminRoomRates()
        let a = RoomCode("AAAA")!, b = RoomCode("BBBB")!
        // The first call only sets the baseline: moves played before the monitor started are not this second's.
        #expect(rates.update([Self.entry(a, moves: 100)]) == 0)
        #expect(rates.update([Self.entry(a, moves: 107)]) == 7)
        // A room new since the last second played all of its moves in it; a room that is gone drops out.
        #expect(rates.update([Self.entry(b, moves: 4)]) == 4)
        #expect(rates.update([Self.entry(a, moves: 3), Self.entry(b, moves: 6)]) == 5)
    }

    @Test func movesPerMinuteSpansTheLastMinute() {
        var rates = AdminRoomRates()
        let code = RoomCode("CCCC")!
        for second in 0...90 { _ = rates.update([Self.entry(code, moves: second * 2)]) }
        // Two moves a second throughout: 120 a minute, whatever the marks' spacing.
        #expect(rates.movesPerMinute(code) == 120)
        #expect(rates.movesPerMinute(RoomCode("DDDD")!) == 0)
    }

    // MARK: Helpers

    static func reading(at seconds: Double) -> MetricsTimeline.Reading {
        MetricsTimeline.Reading(monotonic: seconds, wall: 1_800_000_000 + seconds, transport: TransportCounters(),
                                fanout: LatencyHistogram().snapshot, cpuSeconds: 0, residentBytes: 0, roomsByGame: [:],
                                moves: 0)
    }

    static func sample(time: Double, connections: Int = 0, closes: [UInt16: Double] = [:]) -> MetricsTimeline.Sample {
        MetricsTimeline.Sample(time: time, connections: connections, rooms: [.snowman: 1], moves: 0, messagesIn: 0,
                               messagesOut: 0, bytesIn: 0, bytesOut: 0, fanoutP50: nil, fanoutP99: nil, fanoutMax: nil,
                               handshakeFailures: 0, closes: closes, cpuPercent: 0, residentBytes: 0)
    }

    static func entry(_ code: RoomCode, moves: Int) -> RoomRegistry.AdminEntry {
        RoomRegistry.AdminEntry(code: code, game: .snowman, players: 1, spectators: 0, connected: 1, status: "playing",
                                isPublic: true, locked: false, moves: moves, openedAt: 0)
    }
}
