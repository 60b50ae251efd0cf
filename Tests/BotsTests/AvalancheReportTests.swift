import JSON
import Testing
@testable import Bots

@Suite struct AvalancheReportTests {
    private func report(_ adjust: (inout AvalancheFigures) -> Void, unanswered: Int = 0) -> AvalancheReport {
        var options = BotOptions()
        options.scenario = .avalanche
        options.rooms = 2
        options.players = 4
        var figures = AvalancheFigures()
        figures.bots = 8
        figures.seated = 8
        figures.lost = 8
        figures.back = 8
        for room in 0..<2 { figures.rooms.record(room: room, matched: true) }
        adjust(&figures)
        return AvalancheReport(options: options, fileLimit: 1024, startedAt: 0, figures: figures, stats: BotStats(),
                               firstLossSeconds: 5, stormSeconds: 1.5, checksUnanswered: unanswered)
    }

    @Test func resumeLatencyPercentilesComeFromEveryBot() {
        var figures = AvalancheFigures()
        // 100 bots back after 10, 20, ... 1000 ms.
        for bot in 1...100 { figures.resumeLatency.record(UInt64(bot) * 10_000) }
        let latency = figures.resumeLatency
        // The histogram keeps values to within 0.2%.
        func near(_ value: UInt64, _ expected: UInt64) -> Bool { abs(Double(value) - Double(expected)) <= Double(expected) * 0.002 }
        #expect(near(latency.value(atPercentile: 50), 500_000))
        #expect(near(latency.value(atPercentile: 95), 950_000))
        #expect(near(latency.value(atPercentile: 99), 990_000))
        #expect(latency.max == 1_000_000)
        let merged = {
            var other = AvalancheFigures()
            other.resumeLatency.record(5_000_000)
            other.merge(figures)
            return other
        }()
        #expect(merged.resumeLatency.max == 5_000_000)
        #expect(merged.resumeLatency.count == 101)
    }

    @Test func everyBotBackAndEveryRoomExactPasses() {
        let report = report { _ in }
        #expect(report.failures.isEmpty)
        #expect(report.exitStatus == 0)
        #expect(report.backShare == 1)
        #expect(report.summary.hasSuffix("Result: OK"))
        #expect(report.json["exit_status"]?.intValue == 0)
        #expect(report.json["rooms_mismatched"]?.intValue == 0)
    }

    @Test func aBotNotBackFails() {
        let report = report { $0.back = 7 }
        #expect(report.notBack == 1)
        #expect(report.exitStatus == 1)
        #expect(report.failures == ["1 bots not back in their seats"])
        #expect(report.json["not_back"]?.intValue == 1)
    }

    @Test func aRoomThatDiffersFails() {
        let report = report { $0.rooms.record(room: 1, matched: false) }
        #expect(report.exitStatus == 1)
        #expect(report.failures == ["1 rooms differ from the server's snapshot"])
        #expect(report.summary.contains("(rooms #1)"))
    }

    @Test func aStormThatNeverCameFails() {
        let report = report { $0.lost = 0; $0.back = 0 }
        #expect(report.failures == ["no connection was lost: the drop never came"])
    }

    @Test func unansweredChecksFail() {
        #expect(report({ _ in }, unanswered: 2).failures == ["2 final checks unanswered"])
    }

    @Test func resyncsCountWholeStateResumes() {
        let report = report { $0.resumedWithState = 3; $0.resumedWithPatches = 5 }
        #expect(report.resyncs == 3)
        #expect(report.json["resumed_with_state"]?.intValue == 3)
    }
}
