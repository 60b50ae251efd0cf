import Foundation
import JSON
import Testing
import Transport
@testable import Bots

/// The report's timeline (`BotTimeline`): points as differences of running counts, merged over loops,
/// bounded, recorded on a clock the test drives, and written into `--json`.
@Suite struct BotReportHTMLTimelineTests {
    // MARK: Histograms over an interval

    @Test func subtractingAnEarlierCopyLeavesTheRecentValues() {
        var running = LogLinearHistogram()
        for value in 1...1000 { running.record(UInt64(value)) }
        let earlier = running
        for value in [5000, 6000, 7000, 250_000] { running.record(UInt64(value)) }
        let recent = running.subtracting(earlier)
        #expect(recent.count == 4)
        #expect(recent.sum == 268_000)
        #expect(recent.max == 250_000, "a max that grew is exact")
        // 4,096 to 8,191 µs are counted in buckets of 8.
        #expect(recent.value(atPercentile: 50) >= 6000 && recent.value(atPercentile: 50) < 6008)
        #expect(recent.min > 4992 - 1 && recent.min <= 5000, "the lowest recent bucket, not the run's min of 1")
    }

    @Test func aRecentMaxBelowTheRunsMaxIsKnownToItsBucket() {
        var running = LogLinearHistogram()
        running.record(90_000)
        let earlier = running
        for value in 100...200 { running.record(UInt64(value)) }
        let recent = running.subtracting(earlier)
        #expect(recent.count == 101)
        #expect(recent.max == 200, "below 1,024 µs every value has a bucket of its own")
        #expect(recent.min == 100)
        #expect(running.subtracting(running).count == 0, "nothing recent")
        #expect(running.subtracting(LogLinearHistogram()) == running, "everything is recent")
    }

    // MARK: Points

    @Test func aPointIsTheDifferenceOfTwoCopiesOfTheRunningCounts() throws {
        var previous = BotStats()
        previous.messagesIn = 10
        previous.bytesOut = 100
        previous.openConnections = 4
        previous.unexpectedCloses = [1006: 1]
        previous.moveToPatch.record(500)
        var current = previous
        current.messagesIn = 25
        current.bytesOut = 400
        current.openConnections = 6
        current.connectsOpened = 2
        current.unexpectedCloses = [1006: 2, 1009: 1]
        current.protocolErrors = ["seq-gap": 3]
        current.moves = 7
        current.moveToPatch.record(800)
        current.moveToPatch.record(900)
        let point = BotTimeline.Point(start: 4, length: 2, from: previous, to: current)
        #expect(point.messagesIn == 15)
        #expect(point.bytesOut == 300)
        #expect(point.openConnections == 6, "a gauge: its value at the end")
        #expect(point.connectsOpened == 2)
        #expect(point.unexpectedCloses == 2)
        #expect(point.protocolErrors == 3)
        #expect(point.moves == 7)
        #expect(point.rate(point.messagesIn) == 7.5)
        #expect(point.end == 6)
        let moves = try #require(point.latencies[.moveToPatch])
        #expect(moves.count == 2 && moves.max == 900 && moves.p50 == 800)
        #expect(point.latencies[.join] == nil, "nothing was joined in the interval")
    }

    @Test func mergingTheLoopsFirstGivesTheSumOfTheirPoints() {
        // Two loops' running counts at two moments; the driver merges each moment's copies, then subtracts.
        func loop(_ messages: Int, _ latencies: [UInt64]) -> BotStats {
            var stats = BotStats()
            stats.messagesIn = messages
            stats.openConnections = messages / 10
            for value in latencies { stats.patchDelivery.record(value) }
            return stats
        }
        let before = [loop(10, [100]), loop(20, [200])]
        let after = [loop(40, [100, 300]), loop(25, [200, 400, 500])]
        func merged(_ stats: [BotStats]) -> BotStats {
            var total = BotStats()
            for part in stats { total.merge(part) }
            return total
        }
        let point = BotTimeline.Point(start: 0, length: 1, from: merged(before), to: merged(after))
        let perLoop = zip(before, after).map { BotTimeline.Point(start: 0, length: 1, from: $0, to: $1) }
        #expect(point.messagesIn == perLoop.map(\.messagesIn).reduce(0, +))
        #expect(point.openConnections == 6)
        #expect(point.latencies[.delivery]?.count == 3)
        #expect(point.latencies[.delivery]?.max == 500)
        #expect(point.latencies[.delivery]?.p50 == 400)
    }

    // MARK: Bounds

    @Test(arguments: [(60.0, 1), (1800, 1), (1801, 2), (3600, 2), (86_400 + 608, 49)] as [(Double, Int)])
    func longRunsGetLongerIntervals(seconds: Double, interval: Int) {
        #expect(BotTimeline.intervalSeconds(forRunOf: seconds) == interval)
        #expect((seconds / Double(interval)).rounded(.up) <= Double(BotTimeline.maxPoints))
    }

    @Test func aFullTimelineDropsAndCountsFurtherPoints() {
        var timeline = BotTimeline()
        for second in 0..<(BotTimeline.maxPoints + 5) {
            timeline.append(BotTimeline.Point(start: Double(second), length: 1))
        }
        #expect(timeline.points.count == BotTimeline.maxPoints)
        #expect(timeline.droppedPoints == 5)
        #expect(timeline.points.last?.start == Double(BotTimeline.maxPoints - 1))
    }

    // MARK: Recording

    @Test func theRecorderTakesAPointPerIntervalAndFoldsAShortLastStretchIn() throws {
        let second: UInt64 = 1_000_000_000
        let zero: UInt64 = 1000 * second
        let counts = RunningCounts()
        // The server is this test process, read from /proc: real memory and CPU figures.
        let sampler = ServerSampler(host: "127.0.0.1", port: 1, pid: Int(getpid()))
        let recorder = BotTimelineRecorder(startedAt: zero, plannedSeconds: 10, sampler: sampler,
                                           serverStart: sampler.sample(), cpuStart: ProcessUsage.cpuTime(),
                                           snapshot: { counts.next() })
        recorder.record(at: zero + second / 2)  // not due: no point
        #expect(counts.snapshots == 0)
        counts.stats.messagesIn = 100
        counts.stats.openConnections = 3
        recorder.record(at: zero + second)
        counts.stats.messagesIn = 150
        recorder.record(at: zero + 2 * second + second / 10)  // a late tick still makes one point
        recorder.record(at: zero + 2 * second + second / 2)  // not due
        #expect(counts.snapshots == 2)
        counts.stats.messagesIn = 160
        counts.stats.openConnections = 0
        let timeline = recorder.finish(at: zero + 2 * second + 3 * second / 10)
        try #require(timeline.points.count == 2, "the last 0.2 s joined the second point")
        let (first, last) = (timeline.points[0], timeline.points[1])
        #expect(first.start == 0 && first.length == 1)
        #expect(first.messagesIn == 100 && first.openConnections == 3)
        #expect(last.start == 1 && abs(last.length - 1.3) < 1e-9)
        #expect(last.messagesIn == 60 && last.openConnections == 0)
        #expect(first.wireBytesIn == 1000 && last.wireBytesIn == 2000, "each point takes the growth of the wire counts")
        #expect(last.serverResidentBytes ?? 0 > 0)
        #expect(first.serverResidentBytes ?? 0 > 0)
        #expect(first.botCPUPercent != nil)
    }

    // MARK: JSON

    @Test func theJSONReportCarriesTheTimelineAsColumns() throws {
        let report = BotReportHTMLTests.report(scenario: .play, points: 3)
        let timeline = try #require(report.json["timeline"])
        #expect(timeline["interval_s"]?.intValue == 1)
        #expect(timeline["points"]?.intValue == 3)
        for column in ["start_s", "length_s", "open_connections", "messages_in_per_s", "messages_out_per_s",
                       "payload_bytes_in_per_s", "wire_bytes_out_per_s", "unexpected_closes", "protocol_errors",
                       "connect_failures", "moves_per_s", "bots_cpu_percent"] {
            #expect(timeline[column]?.arrayValue?.count == 3, "\(column)")
        }
        #expect(timeline["messages_in_per_s"]?[1]?.doubleValue == report.timeline.points[1].rate(report.timeline.points[1].messagesIn))
        let moves = try #require(timeline["latency"]?["move_to_patch"])
        #expect(moves["p99_us"]?[0]?.intValue == Int(report.timeline.points[0].latencies[.moveToPatch]!.p99))
        #expect(moves["p50_us"]?[2]?.isNull == true, "an interval that timed nothing")
        #expect(moves["count"]?[2]?.intValue == 0)
        #expect(timeline["latency"]?["echo_round_trip"] == nil, "play times no echoes")
        #expect(timeline["server"]?["resident_bytes"]?[0]?.intValue == 40 << 20)
        #expect(timeline["server"]?["cpu_percent"]?[2]?.isNull == true, "not sampled")
        // What a CI job reads back: the file's bytes parse to the same value.
        let bytes = JSONWriter().serialize(report.json)
        let parsed = try JSONParser(limits: .init(maxBytes: 1 << 24)).parse(bytes)
        #expect(parsed["timeline"] == timeline)
    }

    @Test func eachScenarioTimesItsOwnLatencies() {
        #expect(BotTimeline.Latency.timed(in: .play).first == .moveToPatch)
        #expect(BotTimeline.Latency.timed(in: .churn).contains(.delivery))
        #expect(BotTimeline.Latency.timed(in: .echo) == [.echoRoundTrip, .connect])
        #expect(BotTimeline.Latency.timed(in: .fanout) == [.fanoutRoundTrip, .connect])
        #expect(BotTimeline.Latency.timed(in: .idle) == [.connect])
    }
}

/// The running counts a test sets, and wire byte counts that grow by 1,000 each way per snapshot.
private final class RunningCounts: @unchecked Sendable {
    var stats = BotStats()
    private(set) var snapshots = 0

    func next() -> (BotStats, BotTimelineRecorder.WireBytes) {
        snapshots += 1
        return (stats, .init(bytesIn: snapshots * 1000, bytesOut: snapshots * 1000))
    }
}
