import Foundation
import JSON
import Testing
import Runtime
import Transport
import WordRoomsServer
@testable import Bots

/// The `--html` report: a well-formed self-contained page with every chart (or why not), every string
/// escaped, the summary's figures, and a real run against the real server drawing non-empty series.
@Suite(.serialized) struct BotReportHTMLTests {
    // MARK: The page

    @Test func thePageIsWellFormedAndSelfContained() throws {
        let report = Self.report(scenario: .play, points: 5)
        let html = report.html
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(try Self.unbalancedTags(in: html).isEmpty)
        for outside in ["<script", "<link", " src=", " href=", "url(", "@import"] {
            #expect(!html.contains(outside), "\(outside): the page must need no other file")
        }
        #expect(html.contains("prefers-color-scheme: dark"))
        #expect(html.contains("<meta name=\"viewport\""))
    }

    @Test func everyChartIsThereAndEverySVGIsBalanced() throws {
        let report = Self.report(scenario: .play, points: 5)
        let html = report.html
        let ids = ["latency-move-to-patch", "latency-patch-delivery", "latency-join-latency", "latency-move-to-error",
                   "latency-connect-latency", "messages-in", "messages-out", "bytes-in", "bytes-out", "connections",
                   "errors", "cpu", "memory"]
        #expect(report.charts.map(\.id) == ids)
        var expectedSVGs = 0
        for chart in report.charts {
            let section = try #require(Self.section(chart.id, of: html), "chart \(chart.id)")
            if chart.hasData {
                let svgs = Self.elements("svg", in: section)
                #expect(svgs.count == (chart.compact ? 1 : 2), "\(chart.id)")
                for svg in svgs {
                    #expect(try Self.unbalancedTags(in: svg).isEmpty, "\(chart.id)")
                    #expect(svg.contains("<path class=\"line s") || svg.contains("<circle class=\"dot s"),
                            "\(chart.id) draws its series")
                }
                expectedSVGs += svgs.count
            } else {
                #expect(section.contains("class=\"empty\"") && !section.contains("<svg"), "\(chart.id)")
            }
        }
        #expect(Self.elements("svg", in: html).count == expectedSVGs)
        // Fixture: no errors in any interval, so the errors chart says so; the others have data.
        #expect(report.charts.filter { !$0.hasData }.map(\.id) == ["errors"])
        // Axes, ticks, legend and units.
        let moves = try #require(Self.section("latency-move-to-patch", of: html))
        #expect(moves.contains("class=\"tick\"") && moves.contains(" ms<") && moves.contains("class=\"legend\""))
        #expect(moves.contains("seconds since the start"))
        #expect(try #require(Self.section("memory", of: html)).contains(" MiB<"))
        #expect(try #require(Self.section("cpu", of: html)).contains("%<"))
    }

    @Test func theTitleSaysScenarioDateBotsRoomsAndDuration() {
        let report = Self.report(scenario: .play, points: 2)
        let html = report.html
        #expect(html.contains("<title>WordRooms load test: play, 2026-12-01 22:40:00 UTC</title>"))
        #expect(html.contains("2026-12-01 22:40:00 UTC · 24 bots · 6 rooms · 20 s · 2 threads"))
        #expect(html.contains("Result: OK"))
    }

    @Test func everyStringIsEscaped() throws {
        var report = Self.report(scenario: .play, points: 3, serverSource: "unavailable: <script>alert(\"x&y\")</script>")
        var stats = report.stats
        stats.protocolErrors["<img src=x onerror='1'>"] = 2
        report = Self.report(scenario: .play, points: 3, stats: stats,
                             serverSource: "unavailable: <script>alert(\"x&y\")</script>")
        let html = report.html
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img"))
        #expect(html.contains("&lt;script&gt;alert(&quot;x&amp;y&quot;)&lt;/script&gt;"))
        #expect(html.contains("&lt;img src=x onerror=&#39;1&#39;&gt; 2"))
        #expect(html.contains("Result: FAILED"), "protocol errors fail the run")
        #expect(try Self.unbalancedTags(in: html).isEmpty)
        #expect(htmlEscaped("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&#39;")
    }

    @Test func chartsWithoutDataSaySoInsteadOfDrawingEmptyAxes() throws {
        let empty = Self.report(scenario: .echo, points: 0, serverResident: nil,
                                serverSource: "unavailable: connect: Connection refused")
        let html = empty.html
        #expect(!html.contains("<svg"))
        for chart in empty.charts {
            let section = try #require(Self.section(chart.id, of: html))
            #expect(section.contains("class=\"empty\""), "\(chart.id)")
        }
        #expect(html.contains("The server&#39;s memory could not be read (unavailable: connect: Connection refused)."))
        // Intervals without any timed echo: the latency chart says so, the others draw.
        let untimed = Self.report(scenario: .echo, points: 4, latencies: false)
        #expect(untimed.charts.first { $0.id == "latency-echo-round-trip" }?.hasData == false)
        #expect(untimed.html.contains("Nothing was timed in this run."))
        #expect(untimed.charts.first { $0.id == "messages-in" }?.hasData == true)
    }

    @Test func aFullTimelineMakesABoundedPage() throws {
        let report = Self.report(scenario: .play, points: BotTimeline.maxPoints)
        let html = report.html
        #expect(try Self.unbalancedTags(in: html).isEmpty)
        #expect(html.utf8.count < 2 << 20, "\(html.utf8.count) bytes")
        let json = JSONWriter().serialize(report.json)
        #expect(json.count < 1 << 20, "\(json.count) bytes")
    }

    @Test func htmlTakesAFileAndIsInTheHelp() throws {
        guard case .run(let options) = try BotOptions.parse(["echo", "--html", "out/report.html", "--json", "r.json"]) else {
            Issue.record("no options")
            return
        }
        #expect(options.htmlPath == "out/report.html")
        #expect(options.jsonPath == "r.json")
        #expect(BotOptions.usage.contains("--html FILE"))
        #expect(throws: BotOptions.ParseError.self) { try BotOptions.parse(["--html"]) }
        // The storm has no page: refused before the run rather than after it.
        #expect(throws: BotOptions.ParseError.self) { try BotOptions.parse(["avalanche", "--html", "r.html"]) }
    }

    // MARK: The summary

    @Test func theTablesHoldEveryFigureOfTheTextSummary() {
        let report = Self.report(scenario: .play, points: 3)
        let html = report.html
        let lines = report.summary.split(separator: "\n").dropFirst()  // the start line is the page's header
        for line in lines where !line.hasPrefix("Result:") {
            for word in line.split(separator: " ") {
                #expect(html.contains(htmlEscaped(String(word))), "'\(word)' of '\(line)'")
            }
        }
    }

    @Test func theSummaryIsReadBackSectionBySection() throws {
        let report = Self.report(scenario: .play, points: 3)
        let sections = BotReport.summarySections(report.summary)
        #expect(sections.first?.title == "Run")
        #expect(sections.map(\.title).contains("Connections"))
        let messages = try #require(sections.first { $0.title == "Messages" })
        #expect(messages.columns == ["in", "out"])
        #expect(messages.items.first == .row(label: "count", cells: ["\(report.stats.messagesIn)", "\(report.stats.messagesOut)"]))
        let connections = try #require(sections.first { $0.title == "Connections" })
        #expect(connections.items.first == .row(label: "opened", cells: ["24 of 24 attempted"]))
        let rooms = try #require(sections.first { $0.title == "Rooms and moves" })
        #expect(rooms.items.contains { if case .note(let text) = $0 { text.hasPrefix("(move -> patch: from queuing") && text.hasSuffix("threads.)") } else { false } },
                "a note's lines are joined")
    }

    // MARK: Real runs

    @Test func aRealPlayRunWritesAReportWithNonEmptySeries() async throws {
        let report = try await runAgainstServer(["play", "--rooms", "3", "--players", "3", "--game", "mixed",
                                                      "--rate", "4", "--duration", "3", "--seed", "3"])
        #expect(report.exitStatus == 0)
        let points = report.timeline.points
        #expect(points.count >= 3)
        #expect(points.map(\.openConnections).max() == 9)
        #expect(points.last?.openConnections == 0, "the last point is after the close")
        #expect(points.map(\.connectsOpened).reduce(0, +) == 9)
        #expect(points.map(\.messagesIn).reduce(0, +) == report.stats.messagesIn, "every message is in some interval")
        #expect(points.map(\.moves).reduce(0, +) == report.stats.moves)
        #expect(points.contains { $0.wireBytesIn > 0 })
        #expect(points.contains { $0.serverResidentBytes != nil }, "the server was sampled over /metrics")
        #expect(points.contains { $0.serverCPUPercent != nil })
        let timedMoves = points.compactMap { $0.latencies[.moveToPatch]?.count }.reduce(0, +)
        #expect(timedMoves == report.stats.moveToPatch.count, "every timed move is in some interval")

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wordrooms-report-\(getpid()).html")
        defer { try? FileManager.default.removeItem(at: path) }
        try report.html.write(to: path, atomically: true, encoding: .utf8)
        let html = try String(contentsOf: path, encoding: .utf8)
        #expect(try Self.unbalancedTags(in: html).isEmpty)
        for id in ["latency-move-to-patch", "latency-patch-delivery", "messages-in", "bytes-out", "connections", "cpu", "memory"] {
            let section = try #require(Self.section(id, of: html), "\(id)")
            #expect(section.contains("<path class=\"line s"), "\(id) has a line")
        }
        let json = report.json["timeline"]
        #expect(json?["latency"]?["move_to_patch"]?["p50_us"]?.arrayValue?.contains { !$0.isNull } == true)
        #expect(json?["points"]?.intValue == points.count)
    }

    @Test func aRealEchoRunChartsItsRoundTrips() async throws {
        let report = try await runAgainstServer(["echo", "--connections", "4", "--depth", "2", "--duration", "2"])
        #expect(report.exitStatus == 0)
        let chart = try #require(report.charts.first { $0.id == "latency-echo-round-trip" })
        #expect(chart.hasData)
        #expect(report.timeline.points.map(\.echoesReturned).reduce(0, +) == report.stats.echoReceived)
        #expect(report.json["timeline"]?["echoes_per_s"]?.arrayValue?.count == report.timeline.points.count)
    }

    // MARK: Helpers

    /// A report of `scenario` with `points` one-second intervals: messages, connections, move latencies in all
    /// but the last interval (unless `latencies` is false), the server at 40 MiB.
    static func report(scenario: BotOptions.Scenario, points count: Int, latencies: Bool = true,
                       stats given: BotStats? = nil, serverResident: Int? = 40 << 20,
                       serverSource: String = "/metrics") -> BotReport {
        var options = BotOptions()
        options.scenario = scenario
        options.rooms = 6
        options.players = 4
        options.connections = 24
        options.duration = 20
        options.threads = 2
        var stats = BotStats()
        stats.connectAttempts = 24
        stats.connectsOpened = 24
        stats.expectedCloses = 24
        stats.messagesIn = 5000
        stats.messagesOut = 900
        stats.bytesIn = 400_000
        stats.bytesOut = 30_000
        stats.moves = 880
        for value in [800, 900, 1500, 22_000] as [UInt64] {
            stats.moveToPatch.record(value)
            stats.joinLatency.record(value * 10)
        }
        // Five shapes of interval, a p50 that moves from one to the next.
        let summaries = (0..<5).map { shape in
            var histogram = LogLinearHistogram()
            for value in [700 + 100 * shape, 1200, 9000] { histogram.record(UInt64(value)) }
            return histogram.summary
        }
        var timeline = BotTimeline()
        for index in 0..<count {
            var point = BotTimeline.Point(start: Double(index), length: 1)
            point.messagesIn = 1000 + 10 * index
            point.messagesOut = 180
            point.bytesIn = 80_000
            point.bytesOut = 6000
            point.wireBytesIn = 82_000
            point.wireBytesOut = 7000
            point.openConnections = index == count - 1 ? 0 : 24
            point.connectsOpened = index == 0 ? 24 : 0
            point.moves = 176
            point.echoesReturned = 176
            point.botCPUPercent = 8
            point.serverResidentBytes = serverResident
            if index < count - 1 {
                point.serverCPUPercent = serverResident == nil ? nil : 12.5
                if latencies {
                    let summary = summaries[index % summaries.count]
                    for kind in BotTimeline.Latency.allCases { point.latencies[kind] = summary }
                }
            }
            timeline.append(point)
        }
        let now = MonotonicClock.nanoseconds()
        var report = BotReport(
            options: options, fileLimit: 1024, startedAt: 1_796_164_800, runSeconds: Double(count),
            drainSeconds: 0.1, stats: given ?? stats, transport: TransportCounters(),
            serverStart: ServerSample(residentBytes: serverResident, cpuSeconds: 1, takenAt: now, source: serverSource),
            serverEnd: ServerSample(residentBytes: serverResident.map { $0 + 1 << 20 }, cpuSeconds: 2,
                                    takenAt: now + 10_000_000_000, source: serverSource),
            botCPU: CPUTime(user: 1, system: 0.5), botCPUWallSeconds: 20)
        report.timeline = timeline
        return report
    }

    /// The tags that do not close in order, or an error for a tag without its `>`: the page's own check of
    /// well-formedness (void elements and `/>` close themselves; `<!` declarations are skipped).
    static func unbalancedTags(in html: String) throws -> [String] {
        struct Unterminated: Error {}
        let voids: Set<String> = ["meta", "br", "hr", "img", "input", "link", "area", "base", "col", "wbr", "source"]
        var open: [String] = []
        var problems: [String] = []
        var rest = html[...]
        while let start = rest.firstIndex(of: "<") {
            guard let end = rest[start...].firstIndex(of: ">") else { throw Unterminated() }
            let tag = rest[rest.index(after: start)..<end]
            rest = rest[rest.index(after: end)...]
            if tag.hasPrefix("!") { continue }
            let closing = tag.hasPrefix("/")
            let name = String((closing ? tag.dropFirst() : tag).prefix { $0.isLetter || $0.isNumber || $0 == "-" })
                .lowercased()
            if closing {
                if open.last == name { open.removeLast() } else { problems.append("</\(name)> closes \(open.last ?? "nothing")") }
            } else if !tag.hasSuffix("/") && !voids.contains(name) {
                open.append(name)
            }
        }
        return problems + open.map { "<\($0)> never closed" }
    }

    /// The `<section>` of chart `id`.
    static func section(_ id: String, of html: String) -> String? {
        guard let start = html.range(of: "<section class=\"chart\" id=\"\(id)\">"),
              let end = html[start.upperBound...].range(of: "</section>") else { return nil }
        return String(html[start.lowerBound..<end.upperBound])
    }

    /// Every `<name ...>...</name>` element of `html` (not nested in one another).
    static func elements(_ name: String, in html: String) -> [String] {
        var found: [String] = []
        var rest = html[...]
        while let start = rest.range(of: "<\(name) "), let end = rest[start.upperBound...].range(of: "</\(name)>") {
            found.append(String(rest[start.lowerBound..<end.upperBound]))
            rest = rest[end.upperBound...]
        }
        return found
    }
}
