import Glibc

extension BotTimelineChart {
    /// An axis: where a value falls between the ends (0 to 1), and the ticks to label.
    struct Axis {
        struct Tick: Equatable {
            let value: Double
            let label: String
        }

        let ticks: [Tick]
        /// Said under the axis (the x axis only).
        var title = ""
        let low: Double
        let high: Double
        let logarithmic: Bool

        /// Where `value` falls, 0 at `low` and 1 at `high`, clamped (a log axis puts 0 and below at the bottom).
        func fraction(_ value: Double) -> Double {
            let f: Double
            if logarithmic {
                f = value > 0 ? (log10(value) - log10(low)) / (log10(high) - log10(low)) : 0
            } else {
                f = (value - low) / (high - low)
            }
            return min(1, max(0, f))
        }

        /// Seconds since the start, from 0 to `seconds`, with round steps (1 s to hours) and at most `ticks` ticks.
        static func time(upTo seconds: Double, ticks: Int) -> Axis {
            let high = max(seconds, 1)
            let steps: [Double] = [1, 2, 5, 10, 15, 20, 30, 60, 120, 300, 600, 900, 1200, 1800, 3600, 7200, 10800,
                                   21600, 43200, 86400]
            let step = steps.first { high / $0 <= Double(ticks) } ?? 86400
            let minutes = high >= 180
            let hours = high >= 3 * 3600
            var values: [Double] = []
            var value = 0.0
            while value <= high + 1e-9 {
                values.append(value)
                value += step
            }
            let ticks = values.map { value -> Tick in
                let whole = Int(value.rounded())
                let label: String
                if hours {
                    label = "\(whole / 3600):" + twoDigits(whole / 60 % 60)
                } else if minutes {
                    label = "\(whole / 60):" + twoDigits(whole % 60)
                } else {
                    label = "\(whole) s"
                }
                return Tick(value: value, label: label)
            }
            let title = hours ? "hours:minutes since the start" : minutes ? "minutes:seconds since the start"
                : "seconds since the start"
            return Axis(ticks: ticks, title: title, low: 0, high: high, logarithmic: false)
        }

        /// From 0 to a round value above `maximum`, in steps of 1, 2 or 5 times a power of ten, at most `ticks`
        /// steps. Bytes count in the largest binary unit below `maximum` (steps of 0.5 MiB, not 512 KiB), and
        /// every label in that one unit.
        static func linear(upTo maximum: Double, unit: Unit, ticks: Int) -> Axis {
            guard maximum > 0, maximum.isFinite else {
                return Axis(ticks: [Tick(value: 0, label: "0"), Tick(value: 1, label: label(1, unit))],
                            low: 0, high: 1, logarithmic: false)
            }
            var scale = 1.0
            var unitName = "B"
            if unit == .bytes {
                for (name, power) in [("KiB", 1.0), ("MiB", 2), ("GiB", 3)] where maximum >= pow(1024, power) {
                    scale = pow(1024, power)
                    unitName = name
                }
            }
            let scaled = maximum / scale / Double(ticks)
            let magnitude = pow(10, floor(log10(scaled)))
            let step = ([1.0, 2, 5, 10].first { $0 * magnitude >= scaled * (1 - 1e-9) } ?? 10) * magnitude * scale
            let steps = max(1, Int((maximum / step * (1 + 1e-9)).rounded(.up)))
            let high = Double(steps) * step
            let ticks = (0...steps).map { index -> Tick in
                let value = Double(index) * step
                let text = unit != .bytes ? label(value, unit) : value == 0 ? "0" : trimmed(value / scale) + " " + unitName
                return Tick(value: value, label: text)
            }
            return Axis(ticks: ticks, low: 0, high: high, logarithmic: false)
        }

        /// A log axis around `values` (their positive part; at least 1 µs): from and to 1, 2 or 5 times a power
        /// of ten, ticked at each of those when the values span two decades or less, else at the powers of ten
        /// between the ends (every other one beyond `ticks` of them) and at the ends unless a power is close.
        static func logarithmic(_ values: [Double], ticks: Int) -> Axis {
            let positive = values.map { max($0, 1) }
            let lowest = positive.min() ?? 1
            let highest = positive.max() ?? 10
            func roundValues(from low: Double, to high: Double, factors: [Double]) -> [Double] {
                var result: [Double] = []
                var power = pow(10, floor(log10(low)))
                while power <= high * 1.0001 {
                    for factor in factors where power * factor >= low * 0.9999 && power * factor <= high * 1.0001 {
                        result.append(power * factor)
                    }
                    power *= 10
                }
                return result
            }
            // Some room between the lines and the frame, on the log scale.
            let candidates = roundValues(from: 1, to: max(highest * 10, 10), factors: [1, 2, 5])
            let low = candidates.last { $0 <= lowest / 1.15 } ?? 1
            let high = candidates.first { $0 >= highest * 1.15 } ?? highest * 2
            var tickValues = roundValues(from: low, to: high, factors: [1, 2, 5])
            if log10(high / low) > 2.01 {
                var powers = roundValues(from: low, to: high, factors: [1])
                if powers.count > ticks { powers = powers.enumerated().filter { $0.offset % 2 == 0 }.map(\.element) }
                tickValues = powers
                // The ends too, unless a labelled power is within a factor of 2.5 (their labels would touch).
                if let first = powers.first, first / low >= 2.5 { tickValues.insert(low, at: 0) }
                if let last = powers.last, high / last >= 2.5 { tickValues.append(high) }
                if powers.isEmpty { tickValues = [low, high] }
            }
            return Axis(ticks: tickValues.map { Tick(value: $0, label: label($0, .microseconds)) }, low: low,
                        high: high, logarithmic: true)
        }

        /// A tick's label: `1.5k`, `2 ms`, `1.5 MiB`, `50%`.
        static func label(_ value: Double, _ unit: Unit) -> String {
            switch unit {
            case .count:
                if value >= 1e9 { return trimmed(value / 1e9) + "G" }
                if value >= 1e6 { return trimmed(value / 1e6) + "M" }
                if value >= 1e3 { return trimmed(value / 1e3) + "k" }
                return trimmed(value)
            case .microseconds:
                if value >= 1e6 { return trimmed(value / 1e6) + " s" }
                if value >= 1e3 { return trimmed(value / 1e3) + " ms" }
                return trimmed(value) + " µs"
            case .bytes:
                if value == 0 { return "0" }
                for (power, name) in [(3.0, "GiB"), (2, "MiB"), (1, "KiB")] where value >= pow(1024, power) {
                    return trimmed(value / pow(1024, power)) + " " + name
                }
                return trimmed(value) + " B"
            case .percent:
                return trimmed(value) + "%"
            }
        }

        /// At most two decimals, without trailing zeros.
        static func trimmed(_ value: Double) -> String {
            var text = formatFixed(value, 2)
            if text.contains(".") {
                while text.hasSuffix("0") { text.removeLast() }
                if text.hasSuffix(".") { text.removeLast() }
            }
            return text
        }

        private static func twoDigits(_ value: Int) -> String {
            value < 10 ? "0\(value)" : "\(value)"
        }
    }
}
