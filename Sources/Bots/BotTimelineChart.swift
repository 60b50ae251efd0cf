/// One chart of the HTML report: series of a timeline drawn as SVG lines over the run's time, with axes, ticks,
/// a legend and the run's phases marked. Rendered as static markup (no script): twice, a wide SVG and a narrow
/// one for phones, and the page's CSS shows one, so that labels stay readable at either width.
///
/// Colours are CSS classes (`s1` to `s5`) that the page's stylesheet sets per colour scheme.
struct BotTimelineChart {
    /// What the y axis counts; picks tick steps and labels.
    enum Unit {
        case count
        /// Microseconds, on a logarithmic axis: p50 and max are often orders of magnitude apart.
        case microseconds
        case bytes
        case percent
    }

    struct Series {
        let name: String
        /// One value per point of the timeline; nil leaves a gap (nothing measured then).
        let values: [Double?]
        /// Colour class, 1 to 5.
        let colour: Int
        var dashed = false
        /// A figure of the whole run shown next to the name in the legend.
        var legendNote: String?
        /// The value at the start of the run, drawn at 0 before the first point (a gauge's 0 open connections).
        var initialValue: Double?
        /// Join the values either side of a gap: a missing value is a sample not taken (the server's memory),
        /// not a quiet interval.
        var bridgesGaps = false
    }

    /// A vertical line at a moment of the run (the end of the warm-up, the stop).
    struct Marker {
        let seconds: Double
        let label: String
    }

    let id: String
    let title: String
    /// What the chart shows, in a sentence under the title.
    let caption: String
    let unit: Unit
    /// Seconds from the start of the run of each point (the end of its interval).
    let times: [Double]
    /// Seconds from the start of the run to the start of each point's interval. An interval much longer than
    /// planned (the driver did not get to run) is drawn flat over its whole span, not as a slope to its end.
    var starts: [Double] = []
    /// The planned length of an interval, in seconds.
    var plannedInterval: Double = 1
    let series: [Series]
    var markers: [Marker] = []
    /// Shown instead of the plot when no series has a value.
    let emptyMessage: String
    /// Zeros say nothing either (errors: a flat line at 0 under the axis is easy to misread).
    var zeroMeansEmpty = false
    /// Half the page's width beside another chart on wide screens: the narrow rendering only.
    var compact = false

    /// Whether there is anything to draw.
    var hasData: Bool {
        series.contains { $0.values.contains { value in value.map { !zeroMeansEmpty || $0 != 0 } ?? false } }
    }

    /// The chart's section of the page: title, caption, legend and the two SVGs, or the empty message.
    var html: String {
        var html = "<section class=\"chart\" id=\"\(htmlEscaped(id))\">\n<h3>\(htmlEscaped(title))</h3>\n"
        html += "<p class=\"caption\">\(htmlEscaped(caption))</p>\n"
        guard hasData else {
            return html + "<p class=\"empty\">\(htmlEscaped(emptyMessage))</p>\n</section>\n"
        }
        html += "<ul class=\"legend\">"
        for line in series {
            html += "<li><span class=\"swatch s\(line.colour)\(line.dashed ? " dashed" : "")\"></span>"
            html += htmlEscaped(line.name)
            if let note = line.legendNote { html += " <span class=\"muted\">\(htmlEscaped(note))</span>" }
            html += "</li>"
        }
        html += "</ul>\n"
        html += compact ? svg(Self.narrow) : svg(Self.wide) + svg(Self.narrow)
        return html + "</section>\n"
    }

    /// The size and density of one rendering.
    struct Layout {
        let name: String
        let width: Double
        let height: Double
        let left: Double
        let right: Double
        let top: Double
        let bottom: Double
        let fontSize: Double
        let xTicks: Int
        let yTicks: Int
    }

    static let wide = Layout(name: "wide", width: 900, height: 260, left: 70, right: 16, top: 18, bottom: 34,
                             fontSize: 12, xTicks: 10, yTicks: 5)
    static let narrow = Layout(name: "narrow", width: 360, height: 230, left: 56, right: 10, top: 18, bottom: 32,
                               fontSize: 11, xTicks: 4, yTicks: 4)

    /// One rendering of the plot at `layout`'s size (its viewBox is in CSS pixels at that width).
    func svg(_ layout: Layout) -> String {
        let plotWidth = layout.width - layout.left - layout.right
        let plotHeight = layout.height - layout.top - layout.bottom
        let xEnd = max(times.last ?? 1, 1)
        let xAxis = Axis.time(upTo: xEnd, ticks: layout.xTicks)
        let values = series.flatMap { $0.values.compactMap { $0 } + ($0.initialValue.map { [$0] } ?? []) }
        let yAxis = unit == .microseconds
            ? Axis.logarithmic(values, ticks: layout.yTicks)
            : Axis.linear(upTo: values.max() ?? 0, unit: unit, ticks: layout.yTicks)
        func x(_ seconds: Double) -> Double { layout.left + xAxis.fraction(seconds) * plotWidth }
        func y(_ value: Double) -> Double { layout.top + (1 - yAxis.fraction(value)) * plotHeight }

        let name = compact ? "compact" : layout.name
        var svg = "<svg class=\"plot \(name)\" viewBox=\"0 0 \(n(layout.width)) \(n(layout.height))\" "
        svg += "role=\"img\" aria-label=\"\(htmlEscaped(title))\" font-size=\"\(n(layout.fontSize))\">\n"
        // Grid and y labels.
        for tick in yAxis.ticks {
            let ty = y(tick.value)
            svg += "<line class=\"grid\" x1=\"\(n(layout.left))\" y1=\"\(n(ty))\" x2=\"\(n(layout.width - layout.right))\" y2=\"\(n(ty))\"/>"
            svg += "<text class=\"tick\" x=\"\(n(layout.left - 6))\" y=\"\(n(ty + layout.fontSize * 0.35))\" text-anchor=\"end\">\(htmlEscaped(tick.label))</text>\n"
        }
        // x ticks and labels.
        let baseline = layout.top + plotHeight
        for tick in xAxis.ticks {
            let tx = x(tick.value)
            svg += "<line class=\"axis\" x1=\"\(n(tx))\" y1=\"\(n(baseline))\" x2=\"\(n(tx))\" y2=\"\(n(baseline + 4))\"/>"
            svg += "<text class=\"tick\" x=\"\(n(tx))\" y=\"\(n(baseline + 6 + layout.fontSize))\" text-anchor=\"middle\">\(htmlEscaped(tick.label))</text>\n"
        }
        svg += "<line class=\"axis\" x1=\"\(n(layout.left))\" y1=\"\(n(baseline))\" x2=\"\(n(layout.width - layout.right))\" y2=\"\(n(baseline))\"/>"
        svg += "<line class=\"axis\" x1=\"\(n(layout.left))\" y1=\"\(n(layout.top))\" x2=\"\(n(layout.left))\" y2=\"\(n(baseline))\"/>\n"
        // Phases of the run.
        for marker in markers where marker.seconds > 0 && marker.seconds < xEnd {
            let mx = x(marker.seconds)
            svg += "<line class=\"marker\" x1=\"\(n(mx))\" y1=\"\(n(layout.top))\" x2=\"\(n(mx))\" y2=\"\(n(baseline))\"/>"
            // Right of its line, unless that runs off the plot (the stop is near the end): then left of it.
            let fits = mx + 3 + Double(marker.label.count) * layout.fontSize * 0.6 <= layout.width - layout.right
            svg += "<text class=\"marker-label\" x=\"\(n(fits ? mx + 3 : mx - 3))\" y=\"\(n(layout.top - 5))\""
                + (fits ? "" : " text-anchor=\"end\"") + ">\(htmlEscaped(marker.label))</text>\n"
        }
        // The series: a path of runs of consecutive values; a lone value (between gaps) as a dot. The first
        // of the legend is drawn last, on top: p50 over p99 over max where they meet.
        for line in series.reversed() {
            var path = ""
            var dots = ""
            var run: [(Double, Double)] = line.initialValue.map { [(x(0), y($0))] } ?? []
            func flush() {
                if run.count == 1 {
                    dots += "<circle class=\"dot s\(line.colour)\" cx=\"\(n(run[0].0))\" cy=\"\(n(run[0].1))\" r=\"3\"/>"
                } else if run.count > 1 {
                    path += "M" + run.map { "\(n($0.0)),\(n($0.1))" }.joined(separator: "L")
                }
                run = []
            }
            for (index, value) in line.values.enumerated() where index < times.count {
                guard let value else {
                    if !line.bridgesGaps { flush() }
                    continue
                }
                if index < starts.count, times[index] - starts[index] > plannedInterval * 1.5 {
                    run.append((x(starts[index]), y(value)))
                }
                run.append((x(times[index]), y(value)))
            }
            flush()
            if !path.isEmpty {
                svg += "<path class=\"line s\(line.colour)\(line.dashed ? " dashed" : "")\" d=\"\(path)\"><title>\(htmlEscaped(line.name))</title></path>\n"
            }
            svg += dots
        }
        svg += "<text class=\"axis-title\" x=\"\(n(layout.width - layout.right))\" y=\"\(n(layout.height - 2))\" text-anchor=\"end\">\(htmlEscaped(xAxis.title))</text>\n"
        return svg + "</svg>\n"
    }

    /// A coordinate with at most one decimal: plenty at screen resolution, and a short file.
    private func n(_ value: Double) -> String {
        formatFixed(value, value == value.rounded() ? 0 : 1)
    }
}

/// `text` safe inside HTML text and quoted attribute values.
func htmlEscaped(_ text: String) -> String {
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for character in text.unicodeScalars {
        switch character {
        case "&": escaped += "&amp;"
        case "<": escaped += "&lt;"
        case ">": escaped += "&gt;"
        case "\"": escaped += "&quot;"
        case "'": escaped += "&#39;"
        default: escaped.unicodeScalars.append(character)
        }
    }
    return escaped
}
