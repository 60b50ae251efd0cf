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
    private var connections: MetricsTimelineRing<Int>
    private var rooms: [GameKind: MetricsTimelineRing<Int>]
    private var moves, messagesIn, messagesOut, bytesIn, bytesOut, handshakeFailures, cpu: MetricsTimelineRing<Double>
    private var fanoutP50, fanoutP99, fanoutMax: MetricsTimelineRing<Double?>
    private var residentBytes: MetricsTimelineRing<Int>
    private(set) var closes: [UInt16: MetricsTimelineRing<Double>] = [:]

    init(capacity: Int = MetricsTimeline.defaultCapacity) {
        self.capacity = capacity
        times = MetricsTimelineRing(capacity: capacity)
        connections = MetricsTimelineRing(capacity: capacity)
        rooms = Dictionary(uniqueKeysWithValues: GameKind.allCases.map { ($0, MetricsTimelineRing(capacity: capacity)) })
        moves = MetricsTimelineRing(capacity: capacity)
        messagesIn = moves
        messagesOut = moves
        bytesIn = moves
        bytesOut = moves
        handshakeFailures = moves
        cpu = moves
        fanoutP50 = MetricsTimelineRing(capacity: capacity)
        fanoutP99 = fanoutP50
        fanoutMax = fanoutP50
        residentBytes = connections
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
        connections.append(sample.connections)
        for kind in GameKind.allCases { rooms[kind]!.append(sample.rooms[kind] ?? 0) }
        moves.append(sample.moves)
        messagesIn.append(sample.messagesIn)
        messagesOut.append(sample.messagesOut)
        bytesIn.append(sample.bytesIn)
        bytesOut.append(sample.bytesOut)
        fanoutP50.append(sample.fanoutP50)
        fanoutP99.append(sample.fanoutP99)
        fanoutMax.append(sample.fanoutMax)
        handshakeFailures.append(sample.handshakeFailures)
        cpu.append(sample.cpuPercent)
        residentBytes.append(sample.residentBytes)
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
        object["connections"] = array(connections)
        object["rooms"] = .object(roomSeries)
        object["moves"] = array(moves)
        object["messagesIn"] = array(messagesIn)
        object["messagesOut"] = array(messagesOut)
        object["bytesIn"] = array(bytesIn)
        object["bytesOut"] = array(bytesOut)
        object["fanoutP50"] = array(fanoutP50)
        object["fanoutP99"] = array(fanoutP99)
        object["fanoutMax"] = array(fanoutMax)
        object["handshakeFailures"] = array(handshakeFailures)
        object["closes"] = .object(closeSeries)
        object["cpu"] = array(cpu)
        object["rss"] = array(residentBytes)
        return .object(object)
    }
}
