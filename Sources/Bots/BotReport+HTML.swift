#if canImport(Glibc)
import Glibc
#endif

extension BotReport {
    /// The report as one self-contained HTML page (`--html FILE`): the run's title line, charts of the timeline
    /// (latency percentiles, throughput each way, connections, errors, the server's CPU and memory) and the
    /// end-of-run summary as tables. Inline CSS and SVG only: no scripts, fonts or other files, so the page can
    /// be kept as a CI artifact and opened anywhere; light or dark as the reader's system prefers.
    public var html: String {
        var body = header
        body += "<h2>Over time</h2>\n"
        body += "<p class=\"caption\">\(htmlEscaped(timelineNote))</p>\n"
        // Compact charts go side by side in twos (one above the other on a phone).
        var pending: String?
        for chart in charts {
            guard chart.compact else {
                if let left = pending { body += "<div class=\"pair\">\n\(left)</div>\n" }
                pending = nil
                body += chart.html
                continue
            }
            if let left = pending {
                body += "<div class=\"pair\">\n\(left)\(chart.html)</div>\n"
                pending = nil
            } else {
                pending = chart.html
            }
        }
        if let left = pending { body += "<div class=\"pair\">\n\(left)</div>\n" }
        body += "<h2>Summary</h2>\n" + summaryTables
        body += "<footer>Written by wordrooms-bots. The same figures, second by second, are in <code>--json</code> under <code>timeline</code>.</footer>\n"
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>\(htmlEscaped(pageTitle))</title>
            <style>
            \(Self.stylesheet)
            </style>
            </head>
            <body>
            <main>
            \(body)</main>
            </body>
            </html>

            """
    }

    /// The charts of the page, in order: latencies, throughput, connections, errors, server.
    var charts: [BotTimelineChart] {
        let points = timeline.points
        let times = points.map(\.end)
        var markers: [BotTimelineChart.Marker] = []
        if options.warmup > 0 { markers.append(.init(seconds: options.warmup, label: "warm-up ends")) }
        markers.append(.init(seconds: runSeconds, label: "stop"))
        func chart(_ id: String, _ title: String, _ caption: String, _ unit: BotTimelineChart.Unit,
                   _ series: [BotTimelineChart.Series], empty: String) -> BotTimelineChart {
            BotTimelineChart(id: id, title: title, caption: caption, unit: unit, times: times,
                             starts: points.map(\.start), plannedInterval: Double(timeline.intervalSeconds),
                             series: series, markers: markers, emptyMessage: empty)
        }
        func rates(_ value: (BotTimeline.Point) -> Int) -> [Double?] { points.map { $0.rate(value($0)) } }
        func counts(_ value: (BotTimeline.Point) -> Int) -> [Double?] { points.map { Double(value($0)) } }
        let per = timeline.intervalSeconds == 1 ? "second" : "\(timeline.intervalSeconds) seconds"

        var charts: [BotTimelineChart] = []
        for kind in BotTimeline.Latency.timed(in: options.scenario) {
            let run = stats[keyPath: kind.histogram].summary
            func figure(_ value: @escaping (LatencySummary) -> UInt64) -> [Double?] {
                points.map { point in point.latencies[kind].map { Double(value($0)) } }
            }
            let note = run.count > 0 ? "run \(Self.microseconds(run.p50))" : nil
            charts.append(chart(
                "latency-\(kind.jsonName.replacingUnderscores)", Self.latencyTitle(kind),
                Self.latencyCaption(kind) + " The p50, p99 and max of each \(per), on a log scale.", .microseconds,
                [.init(name: "p50", values: figure(\.p50), colour: 1, legendNote: note),
                 .init(name: "p99", values: figure(\.p99), colour: 2,
                       legendNote: run.count > 0 ? "run \(Self.microseconds(run.p99))" : nil),
                 .init(name: "max", values: figure(\.max), colour: 3,
                       legendNote: run.count > 0 ? "run \(Self.microseconds(run.max))" : nil)],
                empty: "Nothing was timed in this run" + (options.warmup > 0
                    ? " (the first \(formatNumber(options.warmup)) s are warm-up, counted but not timed)." : ".")))
        }
        let seconds = activeSeconds
        func average(_ total: Int) -> String {
            let rate = Double(total) / seconds
            return "run " + (rate >= 1000 ? Axis.label(rate, .count) : formatFixed(rate, rate >= 10 ? 0 : 1)) + "/s"
        }
        func byteAverage(_ total: Int) -> String { "run " + formatBytes(Double(total) / seconds) + "/s" }
        for (way, messages, runMessages, colour) in [
            ("in", rates(\.messagesIn), stats.messagesIn, 1), ("out", rates(\.messagesOut), stats.messagesOut, 2),
        ] {
            let direction = way == "in" ? "received by the bots" : "sent by the bots"
            var messagesChart = chart(
                "messages-\(way)", "Messages \(way) per second", "WebSocket messages \(direction), each \(per).", .count,
                [.init(name: "messages \(way)", values: messages, colour: colour, legendNote: average(runMessages))],
                empty: points.isEmpty ? "No interval was recorded." : "No messages \(direction) in this run.")
            messagesChart.compact = true
            messagesChart.zeroMeansEmpty = true
            charts.append(messagesChart)
        }
        for (way, payload, wire, runWire, colour) in [
            ("in", rates(\.bytesIn), rates(\.wireBytesIn), transport.bytesIn, 1),
            ("out", rates(\.bytesOut), rates(\.wireBytesOut), transport.bytesOut, 2),
        ] {
            var bytesChart = chart(
                "bytes-\(way)", "Bytes \(way) per second",
                "Wire: the bots' socket bytes (frames, handshakes); payload: the messages' (dashed).", .bytes,
                [.init(name: "wire", values: wire, colour: colour, legendNote: byteAverage(runWire)),
                 .init(name: "payload", values: payload, colour: colour, dashed: true)],
                empty: "No interval was recorded.")
            bytesChart.compact = true
            charts.append(bytesChart)
        }
        let peak = points.map(\.openConnections).max() ?? 0
        charts.append(chart(
            "connections", "Open connections",
            "Connections open at the end of each \(per), and those opened in it.", .count,
            [.init(name: "open", values: counts(\.openConnections), colour: 1, legendNote: "peak \(peak)",
                   initialValue: 0),
             .init(name: "opened", values: counts(\.connectsOpened), colour: 4,
                   legendNote: "\(stats.connectsOpened) in all")],
            empty: "No interval was recorded."))
        var errors = chart(
            "errors", "Errors and unexpected closes",
            "Counts in each \(per): connections the server closed or lost without the bots asking, protocol errors, connections that could not be opened.",
            .count,
            [.init(name: "unexpected closes", values: counts(\.unexpectedCloses), colour: 3,
                   legendNote: "\(stats.unexpectedCloseCount) in all"),
             .init(name: "protocol errors", values: counts(\.protocolErrors), colour: 5,
                   legendNote: "\(stats.protocolErrorCount) in all"),
             .init(name: "failed connections", values: counts(\.connectFailures), colour: 2,
                   legendNote: "\(stats.connectFailureCount) in all")],
            empty: "None in this run: no unexpected closes, protocol errors or failed connections.")
        errors.zeroMeansEmpty = true
        charts.append(errors)
        let serverCPU = points.map(\.serverCPUPercent)
        var cpu = chart(
            "cpu", "CPU", "The server's and the bots' CPU use, in percent of one core"
                + (serverCPU.contains { $0 != nil } ? "." : "; the server's could not be read (\(serverEnd.source))."),
            .percent,
            [.init(name: "server", values: serverCPU, colour: 1,
                   legendNote: serverCPUPercent.map { "run " + formatFixed($0, 1) + "%" }, bridgesGaps: true),
             .init(name: "bots", values: points.map(\.botCPUPercent), colour: 4,
                   legendNote: "run " + formatFixed(botCPUPercent, 1) + "%")],
            empty: "No interval was recorded.")
        cpu.compact = true
        charts.append(cpu)
        var memory = chart(
            "memory", "Server memory", "The server's resident memory (RSS) at the end of each \(per).", .bytes,
            [.init(name: "RSS", values: points.map { $0.serverResidentBytes.map(Double.init) }, colour: 1,
                   legendNote: serverEnd.residentBytes.map { "end " + formatBytes(Double($0)) }, bridgesGaps: true)],
            empty: "The server's memory could not be read (\(serverEnd.source)).")
        memory.compact = true
        charts.append(memory)
        return charts
    }

    private typealias Axis = BotTimelineChart.Axis

    private var pageTitle: String {
        "WordRooms load test: \(options.scenario.rawValue), \(Self.utcDate(startedAt))"
    }

    /// Title, the run's shape in one line, the command's start line and the result.
    private var header: String {
        var facts = [Self.utcDate(startedAt), "\(options.plannedConnections) bots"]
        if options.scenario == .play || options.scenario == .churn {
            facts.append("\(options.rooms) rooms")
        } else if options.scenario == .fanout {
            facts.append("\(options.fanoutRooms) rooms")
        }
        facts.append("\(formatNumber(options.duration)) s")
        facts.append("\(options.threads) threads")
        var html = "<header>\n<h1>WordRooms load test: <span class=\"scenario\">\(htmlEscaped(options.scenario.rawValue))</span></h1>\n"
        html += "<p class=\"facts\">" + facts.map(htmlEscaped).joined(separator: " · ") + "</p>\n"
        html += "<p class=\"command\"><code>\(htmlEscaped(LoadTest.startLine(options, fileLimit: fileLimit)))</code></p>\n"
        if failures.isEmpty {
            html += "<p class=\"result ok\"><strong>Result: OK</strong> — no protocol errors, failed connections or unexpected disconnects.</p>\n"
        } else {
            html += "<p class=\"result failed\"><strong>Result: FAILED</strong> — "
                + htmlEscaped(failures.joined(separator: ", ")) + ".</p>\n"
        }
        return html + "</header>\n"
    }

    private var timelineNote: String {
        var note = "\(timeline.points.count) intervals of \(timeline.intervalSeconds) s from the start of the run to the last connection closed"
        note += options.warmup > 0 ? "; dashed lines mark the end of the warm-up and the stop" : "; the dashed line marks the stop"
        note += " (after it the bots wait up to \(formatNumber(options.grace)) s for replies in flight, then close)."
        let planned = Double(timeline.intervalSeconds)
        let long = timeline.points.dropLast().filter { $0.length > planned * 1.5 }
        if let longest = long.map(\.length).max() {
            note += " \(long.count) of them lasted longer (up to \(formatFixed(longest, 1)) s), drawn flat over their span:"
                + " the bots' driver thread did not get to run then, a sign of a saturated machine."
        }
        if timeline.points.contains(where: { $0.serverResidentBytes == nil }),
           timeline.points.contains(where: { $0.serverResidentBytes != nil }) {
            note += " The server is sampled once a second unless the last sample is still under way; its lines"
                + " join the samples taken."
        }
        if timeline.droppedPoints > 0 { note += " \(timeline.droppedPoints) later intervals were not kept." }
        return note
    }

    static func latencyTitle(_ kind: BotTimeline.Latency) -> String {
        switch kind {
        case .connect: "Connect latency"
        case .join: "Join latency"
        case .moveToPatch: "Move → patch latency"
        case .delivery: "Patch delivery latency"
        case .moveToError: "Move → error latency"
        case .echoRoundTrip: "Echo round trip"
        case .fanoutRoundTrip: "Own message back"
        }
    }

    /// The latency's name in a table row.
    static func latencyName(_ kind: BotTimeline.Latency) -> String {
        switch kind {
        case .connect: "connect"
        case .join: "join"
        case .moveToPatch: "move → patch"
        case .delivery: "delivery"
        case .moveToError: "move → error"
        case .echoRoundTrip: "echo round trip"
        case .fanoutRoundTrip: "own message back"
        }
    }

    static func latencyCaption(_ kind: BotTimeline.Latency) -> String {
        switch kind {
        case .connect: "From starting a connection to its opening handshake completing."
        case .join: "From sending create or join to the welcome."
        case .moveToPatch: "From a bot sending a move to reading the patch of its room that shows it."
        case .delivery: "From a move being sent to each member of its room reading the patch that shows it."
        case .moveToError: "From sending a move to the error that refused it (words that are not words, races)."
        case .echoRoundTrip: "From sending an echo message to receiving it back."
        case .fanoutRoundTrip: "From a client sending its message to the room's broadcast bringing it back."
        }
    }

    /// A latency as the summary writes it, with the micro sign: `850 µs`, `1.23ms`.
    static func microseconds(_ value: UInt64) -> String {
        value < 1000 ? "\(value) µs" : formatMicroseconds(value)
    }

    /// `seconds` since 1970 as `2026-12-01 23:40:05 UTC`.
    static func utcDate(_ seconds: Double) -> String {
        var time = time_t(seconds)
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return "\(formatNumber(seconds)) s since 1970" }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) UTC"
    }
}

extension String {
    /// `move_to_patch` as `move-to-patch`, for element ids.
    fileprivate var replacingUnderscores: String {
        String(map { $0 == "_" ? "-" : $0 })
    }
}

extension BotReport {
    /// The end-of-run summary as tables: first the latencies side by side, then every section of `summary`
    /// row by row, so that the page and the text show the same figures in the same words.
    var summaryTables: String {
        var html = latencyTable
        for section in Self.summarySections(summary) {
            html += "<section class=\"summary\">\n<h3>\(htmlEscaped(section.title))</h3>\n<table>\n"
            let width = max(1, section.columns.count)
            if !section.columns.isEmpty {
                html += "<thead><tr><th></th>" + section.columns.map { "<th>\(htmlEscaped($0))</th>" }.joined()
                    + "</tr></thead>\n"
            }
            html += "<tbody>\n"
            for item in section.items {
                switch item {
                case .row(let label, let cells):
                    html += "<tr><th scope=\"row\">\(htmlEscaped(label))</th>"
                    if cells.count == width {
                        html += cells.map { "<td>\(htmlEscaped($0))</td>" }.joined()
                    } else {
                        html += "<td colspan=\"\(width)\">\(htmlEscaped(cells.joined(separator: " ")))</td>"
                    }
                    html += "</tr>\n"
                case .note(let text):
                    html += "<tr class=\"note\"><td colspan=\"\(width + 1)\">\(htmlEscaped(text))</td></tr>\n"
                }
            }
            html += "</tbody>\n</table>\n</section>\n"
        }
        return html
    }

    /// Every latency of the scenario with its percentiles, one row each.
    private var latencyTable: String {
        var html = "<section class=\"summary\">\n<h3>Latency</h3>\n<div class=\"scroll\"><table class=\"numbers\">\n"
        html += "<thead><tr><th></th><th>p50</th><th class=\"optional\">p90</th><th>p99</th><th class=\"optional\">p99.9</th><th>max</th><th class=\"optional\">mean</th><th>n</th></tr></thead>\n<tbody>\n"
        for kind in BotTimeline.Latency.timed(in: options.scenario) {
            let s = stats[keyPath: kind.histogram].summary
            html += "<tr><th scope=\"row\">\(htmlEscaped(Self.latencyName(kind)))</th>"
            if s.count == 0 {
                html += "<td colspan=\"7\" class=\"muted\">none</td></tr>\n"
                continue
            }
            // The columns a phone leaves out (`optional`): p90, p99.9 and the mean.
            let cells = [(s.p50, false), (s.p90, true), (s.p99, false), (s.p999, true), (s.max, false),
                         (UInt64(s.mean.rounded()), true)]
            html += cells.map { "<td\($1 ? " class=\"optional\"" : "")>\(htmlEscaped(Self.microseconds($0)))</td>" }.joined()
            html += "<td>\(s.count)</td></tr>\n"
        }
        return html + "</tbody>\n</table></div>\n</section>\n"
    }

    /// A section of the text summary: its title, the column heads of a table-like section (`in`, `out`), its
    /// rows and the notes between them.
    struct SummarySection: Equatable {
        enum Item: Equatable {
            case row(label: String, cells: [String])
            case note(String)
        }

        var title: String
        var columns: [String] = []
        var items: [Item] = []
    }

    /// The width of a row's label in `summary` (`row` pads labels to it after a two-space indent).
    static let summaryLabelWidth = 22

    /// Reads `summary`'s layout back: a section title flush left after a blank line, rows indented by two
    /// with the label in the first `summaryLabelWidth` columns, notes in parentheses indented further. The
    /// first line (the start line) and the `Result:` line are left out: the page's header shows them; the
    /// lines between the start line and the first section become a "Run" section.
    static func summarySections(_ summary: String) -> [SummarySection] {
        var sections: [SummarySection] = [SummarySection(title: "Run")]
        var startsSection = false
        for line in summary.split(separator: "\n", omittingEmptySubsequences: false).dropFirst() {
            if line.isEmpty {
                startsSection = true
                continue
            }
            if startsSection {
                startsSection = false
                guard !line.hasPrefix("Result:") else { continue }
                let heads = splitOnSpaceRuns(Substring(line))
                sections.append(SummarySection(title: heads.first ?? "", columns: Array(heads.dropFirst())))
                continue
            }
            let text = line.drop { $0 == " " }
            let indent = line.count - text.count
            guard let last = sections.indices.last else { continue }
            if text.hasPrefix("(") || indent > 2 {
                if indent > 2, case .note(let previous)? = sections[last].items.last {
                    sections[last].items[sections[last].items.count - 1] = .note(previous + " " + text)
                } else {
                    sections[last].items.append(.note(String(text)))
                }
            } else if sections[last].title == "Run" {
                sections[last].items.append(.note(String(text)))
            } else {
                let body = line.dropFirst(2)
                let label = String(body.prefix(summaryLabelWidth)).trimmingSpaces
                let value = String(body.dropFirst(summaryLabelWidth)).trimmingSpaces
                let cells = sections[last].columns.isEmpty ? [value] : splitOnSpaceRuns(Substring(value))
                sections[last].items.append(.row(label: label, cells: cells))
            }
        }
        return sections.filter { !$0.items.isEmpty }
    }

    /// Splits at runs of two or more spaces (the summary's column gaps; values have single spaces).
    private static func splitOnSpaceRuns(_ text: Substring) -> [String] {
        var parts: [String] = []
        var current = ""
        var spaces = 0
        for character in text {
            if character == " " {
                spaces += 1
                continue
            }
            if spaces >= 2, !current.isEmpty {
                parts.append(current)
                current = ""
            } else if spaces == 1, !current.isEmpty {
                current += " "
            }
            spaces = 0
            current.append(character)
        }
        if !current.isEmpty { parts.append(current) }
        return parts
    }

    /// The page's styles: CSS custom properties per colour scheme, a column that fits a phone, charts as wide
    /// as the column (the narrow rendering below 640 px).
    static let stylesheet = """
        :root {
          --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --rule: #d8dee4; --grid: #eaeef2; --axis: #8c959f;
          --panel: #f6f8fa; --ok: #1a7f37; --ok-bg: #dafbe1; --bad: #cf222e; --bad-bg: #ffebe9;
          --c1: #0969da; --c2: #bc4c00; --c3: #cf222e; --c4: #1a7f37; --c5: #8250df;
        }
        @media (prefers-color-scheme: dark) {
          :root {
            --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --rule: #30363d; --grid: #21262d; --axis: #656c76;
            --panel: #161b22; --ok: #3fb950; --ok-bg: #12261e; --bad: #ff7b72; --bad-bg: #2d1214;
            --c1: #58a6ff; --c2: #f0883e; --c3: #ff7b72; --c4: #3fb950; --c5: #bc8cff;
          }
        }
        * { box-sizing: border-box; }
        html { background: var(--bg); color: var(--fg); -webkit-text-size-adjust: 100%; }
        body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
        main { max-width: 960px; margin: 0 auto; padding: 16px 16px 32px; }
        h1 { font-size: 1.5rem; margin: 0.2rem 0 0.3rem; line-height: 1.25; }
        h2 { font-size: 1.2rem; margin: 2rem 0 0.3rem; padding-bottom: 0.2rem; border-bottom: 1px solid var(--rule); }
        h3 { font-size: 1rem; margin: 0 0 0.15rem; }
        code { font: 0.85em/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
        .facts { margin: 0 0 0.4rem; color: var(--muted); }
        .command { margin: 0 0 0.8rem; color: var(--muted); }
        .result { padding: 0.5rem 0.75rem; border-radius: 6px; margin: 0; }
        .result.ok { background: var(--ok-bg); color: var(--ok); }
        .result.failed { background: var(--bad-bg); color: var(--bad); }
        .caption { margin: 0 0 0.4rem; color: var(--muted); font-size: 0.9rem; }
        .muted { color: var(--muted); }
        .chart, .summary { margin: 1.4rem 0 0; }
        .empty { margin: 0; padding: 1.5rem 1rem; text-align: center; color: var(--muted); background: var(--panel);
          border: 1px dashed var(--rule); border-radius: 6px; }
        .legend { list-style: none; margin: 0 0 0.2rem; padding: 0; display: flex; flex-wrap: wrap; gap: 0.2rem 1.1rem;
          font-size: 0.9rem; }
        .legend li { white-space: nowrap; }
        .swatch { display: inline-block; width: 18px; height: 0; border-top: 3px solid; vertical-align: middle;
          margin-right: 0.35rem; }
        .swatch.dashed { border-top-style: dashed; }
        .swatch.s1 { border-color: var(--c1); } .swatch.s2 { border-color: var(--c2); }
        .swatch.s3 { border-color: var(--c3); } .swatch.s4 { border-color: var(--c4); }
        .swatch.s5 { border-color: var(--c5); }
        svg.plot { display: block; width: 100%; height: auto; overflow: visible; }
        svg.narrow { display: none; }
        .pair { display: grid; grid-template-columns: 1fr 1fr; gap: 0 24px; }
        .pair > .chart { min-width: 0; }
        @media (max-width: 640px) {
          svg.wide { display: none; }
          svg.narrow { display: block; }
          main { padding: 12px 12px 24px; }
          .pair { display: block; }
          .optional { display: none; }
        }
        svg .grid { stroke: var(--grid); stroke-width: 1; }
        svg .axis { stroke: var(--axis); stroke-width: 1; }
        svg .tick, svg .axis-title, svg .marker-label { fill: var(--muted); }
        svg .marker { stroke: var(--axis); stroke-width: 1; stroke-dasharray: 4 3; }
        svg .line { fill: none; stroke-width: 1.75; stroke-linejoin: round; stroke-linecap: round; }
        svg .line.dashed { stroke-dasharray: 5 4; stroke-width: 1.5; }
        svg .s1 { stroke: var(--c1); } svg .s2 { stroke: var(--c2); } svg .s3 { stroke: var(--c3); }
        svg .s4 { stroke: var(--c4); } svg .s5 { stroke: var(--c5); }
        svg .dot.s1 { fill: var(--c1); } svg .dot.s2 { fill: var(--c2); } svg .dot.s3 { fill: var(--c3); }
        svg .dot.s4 { fill: var(--c4); } svg .dot.s5 { fill: var(--c5); }
        .scroll { overflow-x: auto; }
        table { width: 100%; border-collapse: collapse; font-size: 0.9rem; }
        th, td { text-align: left; vertical-align: top; padding: 0.3rem 0.5rem 0.3rem 0; border-bottom: 1px solid var(--rule);
          overflow-wrap: anywhere; }
        tbody th { font-weight: 600; width: 34%; }
        thead th { color: var(--muted); font-weight: 600; }
        table.numbers td, table.numbers thead th { text-align: right; white-space: nowrap; padding-left: 0.6rem;
          font-variant-numeric: tabular-nums; }
        table.numbers tbody th { width: auto; white-space: nowrap; }
        tr.note td { color: var(--muted); font-size: 0.85rem; border-bottom: none; padding-top: 0; }
        footer { margin-top: 2rem; color: var(--muted); font-size: 0.85rem; }
        """
}

extension String {
    /// Without leading and trailing spaces.
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
