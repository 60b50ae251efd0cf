import JSON
import Rooms
import Transport

extension MetricsTimeline {
    /// The server's cumulative counters at one moment; two readings a second apart make a `Sample`.
    struct Reading: Sendable {
        /// Monotonic seconds, for the interval's length.
        var monotonic: Double
        /// Seconds since 1970, the time the sample is plotted at.
        var wall: Double
        var transport: TransportCounters
        var fanout: LatencyHistogram.Counts
        var cpuSeconds: Double
        var residentBytes: Int
        var roomsByGame: [GameKind: Int]
        /// Moves played during the interval that ends with this reading (the rooms count them; the monitor
        /// subtracts their previous counts).
        var moves: Int
    }

    /// One second of the server: gauges as read at its end, counters as rates over it.
    struct Sample: Sendable, Equatable {
        var time: Double
        var connections: Int
        var rooms: [GameKind: Int]
        /// Per second.
        var moves: Double
        var messagesIn: Double
        var messagesOut: Double
        var bytesIn: Double
        var bytesOut: Double
        /// Move-to-patch fan-out latency in milliseconds over the interval; nil when nothing was measured.
        var fanoutP50: Double?
        var fanoutP99: Double?
        var fanoutMax: Double?
        var handshakeFailures: Double
        /// WebSocket closes per second by close code (1006: ended without a close frame); zero codes left out.
        var closes: [UInt16: Double]
        /// CPU time of the process over the interval, in percent of one core (above 100 with several threads).
        var cpuPercent: Double
        var residentBytes: Int

        /// The interval from `previous` to `current` as rates per second. Counters that went backwards (they
        /// never should) count as zero rather than as a negative rate.
        static func between(_ previous: Reading, _ current: Reading) -> Sample {
            let seconds = max(current.monotonic - previous.monotonic, 0.001)
            func rate(_ counter: KeyPath<TransportCounters, Int>) -> Double {
                perSecond(current.transport[keyPath: counter] - previous.transport[keyPath: counter], seconds)
            }
            var closes: [UInt16: Double] = [:]
            for (code, count) in current.transport.closesByCode {
                let delta = count - (previous.transport.closesByCode[code] ?? 0)
                if delta > 0 { closes[code] = perSecond(delta, seconds) }
            }
            let latency = Latency(previous: previous.fanout, current: current.fanout)
            return Sample(
                time: current.wall, connections: current.transport.openConnections, rooms: current.roomsByGame,
                moves: perSecond(current.moves, seconds), messagesIn: rate(\.messagesIn),
                messagesOut: rate(\.messagesOut), bytesIn: rate(\.bytesIn), bytesOut: rate(\.bytesOut),
                fanoutP50: latency.milliseconds(atQuantile: 0.5), fanoutP99: latency.milliseconds(atQuantile: 0.99),
                fanoutMax: latency.maxMilliseconds, handshakeFailures: rate(\.handshakeFailures), closes: closes,
                cpuPercent: rounded(max(0, current.cpuSeconds - previous.cpuSeconds) / seconds * 100, places: 1),
                residentBytes: current.residentBytes)
        }

        /// A plotted number of a sample: its key in `json` and `MetricsTimeline.json`, and where a sample holds it.
        enum Series: Sendable {
            case count(String, KeyPath<Sample, Int> & Sendable)
            case rate(String, KeyPath<Sample, Double> & Sendable)
            /// Milliseconds, or nil for an interval that measured nothing (`null` in the JSON).
            case latency(String, KeyPath<Sample, Double?> & Sendable)
        }

        /// Every plotted number but the time, the rooms by game and the closes by code: one line per series, for
        /// the sample, the timeline's rings and both JSON forms alike.
        static let series: [Series] = [
            .count("connections", \.connections),
            .rate("moves", \.moves),
            .rate("messagesIn", \.messagesIn),
            .rate("messagesOut", \.messagesOut),
            .rate("bytesIn", \.bytesIn),
            .rate("bytesOut", \.bytesOut),
            .latency("fanoutP50", \.fanoutP50),
            .latency("fanoutP99", \.fanoutP99),
            .latency("fanoutMax", \.fanoutMax),
            .rate("handshakeFailures", \.handshakeFailures),
            .rate("cpu", \.cpuPercent),
            .count("rss", \.residentBytes),
        ]

        private static func perSecond(_ delta: Int, _ seconds: Double) -> Double {
            rounded(Double(max(0, delta)) / seconds, places: 2)
        }

        /// The sample as the dashboard reads it (`MetricsTimeline.json` has the same keys, with arrays).
        var json: JSONValue {
            var rooms = JSONObject()
            for kind in GameKind.allCases { rooms[kind.rawValue] = JSONValue(self.rooms[kind] ?? 0) }
            var closes = JSONObject()
            for (code, rate) in self.closes.sorted(by: { $0.key < $1.key }) { closes[String(code)] = JSONValue(rate) }
            var object = JSONObject()
            object["t"] = JSONValue(time)
            object["rooms"] = .object(rooms)
            object["closes"] = .object(closes)
            for series in Self.series {
                switch series {
                case .count(let key, let value): object[key] = JSONValue(self[keyPath: value])
                case .rate(let key, let value): object[key] = JSONValue(self[keyPath: value])
                case .latency(let key, let value): object[key] = self[keyPath: value].map { JSONValue($0) } ?? .null
                }
            }
            return .object(object)
        }
    }

    /// The fan-out histogram's observations during one interval: the difference of two cumulative snapshots.
    struct Latency: Sendable, Equatable {
        /// Observations per bucket of `LatencyHistogram.bounds` (the last above every bound).
        var buckets: [Int]

        init(buckets: [Int]) {
            self.buckets = buckets
        }

        init(previous: LatencyHistogram.Counts, current: LatencyHistogram.Counts) {
            buckets = zip(current.buckets, previous.buckets).map { max(0, $0 - $1) }
        }

        var count: Int { buckets.reduce(0, +) }

        /// The `quantile` (0...1) in milliseconds, interpolated linearly inside its bucket as Prometheus'
        /// `histogram_quantile` does; observations above the last bound count as the last bound.
        func milliseconds(atQuantile quantile: Double) -> Double? {
            let total = count
            guard total > 0 else { return nil }
            let rank = quantile * Double(total)
            var below = 0
            let bounds = LatencyHistogram.bounds
            for (index, inBucket) in buckets.enumerated() where inBucket > 0 {
                if Double(below + inBucket) >= rank {
                    guard index < bounds.count else { return bounds[bounds.count - 1] * 1000 }
                    let lower = index == 0 ? 0 : bounds[index - 1]
                    let fraction = max(0, rank - Double(below)) / Double(inBucket)
                    return MetricsTimeline.rounded((lower + (bounds[index] - lower) * fraction) * 1000, places: 3)
                }
                below += inBucket
            }
            return bounds[bounds.count - 1] * 1000
        }

        /// The upper bound of the highest bucket that saw an observation, in milliseconds: the histogram keeps
        /// no exact maximum, and the bound is what it can promise ("at most"). The last bound for the overflow.
        var maxMilliseconds: Double? {
            guard let highest = buckets.lastIndex(where: { $0 > 0 }) else { return nil }
            let bounds = LatencyHistogram.bounds
            return bounds[min(highest, bounds.count - 1)] * 1000
        }
    }

    static func rounded(_ value: Double, places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (value * scale).rounded() / scale
    }
}
