import JSON
import Rooms

/// The last `capacity` one-second samples of the server, one ring per series: what the dashboard plots.
///
/// Appended once a second by `AdminMonitor`'s timer, never per message; its size is bounded whatever the load or
/// the uptime (a few dozen series of 900 numbers).
struct MetricsTimeline: Sendable {
    /// 15 minutes at one sample a second.
    static let defaultCapacity = 900
    /// Close codes plotted as their own series; more distinct codes (a peer may send any valid one) are added
    /// together under code 0, "other".
    static let maxCloseSeries = 12

    let capacity: Int
    private(set) var times: MetricsTimelineRing<Double>
    private var rooms: [GameKind: MetricsTimelineRing<Int>]
    /// The rings of `Sample.series`, by key.
    private var counts: [String: MetricsTimelineRing<Int>] = [:]
    private var rates: [String: MetricsTimelineRing<Double>] = [:]
    private var latencies: [String: MetricsTimelineRing<Double?>] = [:]
    private(set) var closes: [UInt16: MetricsTimelineRing<Double>] = [:]

    init(capacity: Int = MetricsTimeline.defaultCapacity) {
        self.capacity = capacity
        times = MetricsTimelineRing(capacity: capacity)
        rooms = Dictionary(uniqueKeysWithValues: GameKind.allCases.map { ($0, MetricsTimelineRing(capacity: capacity)) })
        for series in Sample.series {
            switch series {
            case .count(let key, _): counts[key] = MetricsTimelineRing(capacity: capacity)
            case .rate(let key, _): rates[key] = MetricsTimelineRing(capacity: capacity)
            case .latency(let key, _): latencies[key] = MetricsTimelineRing(capacity: capacity)
            }
        }
    }

    var count: Int { times.count }

    /// The newest sample's time, if any.
    var lastTime: Double? { times.last }

    mutating func append(_ sample: Sample) {
        var closeRates: [UInt16: Double] = [:]
        var named = closes.keys.count { $0 != 0 }
        for (code, rate) in sample.closes.sorted(by: { $0.key < $1.key }) {
            var series = code
            if closes[code] == nil && closeRates[code] == nil {
                if named < Self.maxCloseSeries { named += 1 } else { series = 0 }
            }
            closeRates[series, default: 0] += rate
        }
        for code in closeRates.keys where closes[code] == nil {
            // A code seen for the first time: zeros for the seconds before, so every series lines up with `times`.
            closes[code] = MetricsTimelineRing(capacity: capacity, repeating: 0, count: times.count)
        }
        for code in closes.keys {
            closes[code]!.append(closeRates[code] ?? 0)
        }
        times.append(sample.time)
        for kind in GameKind.allCases { rooms[kind]!.append(sample.rooms[kind] ?? 0) }
        for series in Sample.series {
            switch series {
            case .count(let key, let value): counts[key]!.append(sample[keyPath: value])
            case .rate(let key, let value): rates[key]!.append(sample[keyPath: value])
            case .latency(let key, let value): latencies[key]!.append(sample[keyPath: value])
            }
        }
    }

    /// Every series, oldest first, under the keys of `Sample.json` (columns rather than rows: a quarter of the
    /// bytes, and the page plots columns).
    var json: JSONValue {
        func array(_ ring: MetricsTimelineRing<Double>) -> JSONValue { .array(ring.elements.map { JSONValue($0) }) }
        func array(_ ring: MetricsTimelineRing<Int>) -> JSONValue { .array(ring.elements.map { JSONValue($0) }) }
        func array(_ ring: MetricsTimelineRing<Double?>) -> JSONValue {
            .array(ring.elements.map { $0.map { JSONValue($0) } ?? .null })
        }
        var roomSeries = JSONObject()
        for kind in GameKind.allCases { roomSeries[kind.rawValue] = array(rooms[kind]!) }
        var closeSeries = JSONObject()
        for (code, ring) in closes.sorted(by: { $0.key < $1.key }) { closeSeries[String(code)] = array(ring) }
        var object = JSONObject()
        object["capacity"] = JSONValue(capacity)
        object["t"] = array(times)
        object["rooms"] = .object(roomSeries)
        object["closes"] = .object(closeSeries)
        for series in Sample.series {
            switch series {
            case .count(let key, _): object[key] = array(counts[key]!)
            case .rate(let key, _): object[key] = array(rates[key]!)
            case .latency(let key, _): object[key] = array(latencies[key]!)
            }
        }
        return .object(object)
    }
}
