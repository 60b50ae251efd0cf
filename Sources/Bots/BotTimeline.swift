/// What a run did over time: one point per interval (a second, unless the run is long), from the ramp to the
/// last connection closed. Drawn by `--html` and written by `--json` under `timeline`.
///
/// Each point is the difference of two merged copies of the loops' running `BotStats`, the copies the driver
/// already takes once a second for its progress line: the loops do nothing more per message. Bounded: a run
/// plans at most `maxPoints` intervals (longer runs get longer intervals, see `intervalSeconds(forRunOf:)`),
/// and points beyond that are dropped and counted.
public struct BotTimeline: Sendable, Equatable {
    /// The most points a timeline keeps: a 30-minute run at one a second (its page is then about 1 MB, and
    /// its JSON timeline less).
    public static let maxPoints = 1800

    /// The latencies the timeline follows, as percentiles per interval.
    public enum Latency: String, Sendable, CaseIterable {
        case connect
        case join
        case moveToPatch
        case delivery
        case moveToError
        case echoRoundTrip
        case fanoutRoundTrip

        /// The running histogram of `BotStats` this follows.
        var histogram: KeyPath<BotStats, LogLinearHistogram> {
            switch self {
            case .connect: \.connectLatency
            case .join: \.joinLatency
            case .moveToPatch: \.moveToPatch
            case .delivery: \.patchDelivery
            case .moveToError: \.moveToError
            case .echoRoundTrip: \.echoRoundTrip
            case .fanoutRoundTrip: \.fanoutRoundTrip
            }
        }

        /// Its key in the JSON report (the same as the end-of-run latency's).
        public var jsonName: String {
            switch self {
            case .connect: "connect_latency"
            case .join: "join_latency"
            case .moveToPatch: "move_to_patch"
            case .delivery: "patch_delivery"
            case .moveToError: "move_to_error"
            case .echoRoundTrip: "echo_round_trip"
            case .fanoutRoundTrip: "fanout_round_trip"
            }
        }
    }

    /// One interval of the run. Counts are of the interval; `openConnections` is the gauge at its end.
    public struct Point: Sendable, Equatable {
        /// Seconds from the start of the run to the start of the interval.
        public var start: Double
        /// Seconds the interval lasted (the last one of a run is usually shorter).
        public var length: Double
        public var openConnections = 0
        public var connectsOpened = 0
        public var connectFailures = 0
        public var unexpectedCloses = 0
        public var expectedCloses = 0
        public var protocolErrors = 0
        public var messagesIn = 0
        public var messagesOut = 0
        /// Payload bytes of the messages (as in `BotStats`).
        public var bytesIn = 0
        public var bytesOut = 0
        /// Bytes on the bots' sockets, frames and handshakes (the transport's counters).
        public var wireBytesIn = 0
        public var wireBytesOut = 0
        /// Game moves and chat lines sent (play, churn).
        public var moves = 0
        /// Echo messages back (echo).
        public var echoesReturned = 0
        /// Messages the fanout clients sent.
        public var fanoutSent = 0
        /// Latencies of what was timed in the interval (moves count in the interval their reply came).
        public var latencies: [Latency: LatencySummary] = [:]
        /// The server's resident memory when the interval ended, and its CPU use since the sample before, in
        /// percent of one core (nil when the server could not be sampled).
        public var serverResidentBytes: Int?
        public var serverCPUPercent: Double?
        /// The bots' own CPU use over the interval, in percent of one core.
        public var botCPUPercent: Double?

        /// Seconds from the start of the run to the end of the interval, where the point is drawn.
        public var end: Double { start + length }

        public init(start: Double, length: Double) {
            self.start = start
            self.length = length
        }

        /// The interval from `previous` to `current`, two merged copies of the running counts.
        public init(start: Double, length: Double, from previous: BotStats, to current: BotStats) {
            self.init(start: start, length: length)
            openConnections = current.openConnections
            for (field, count) in Self.countsInInterval {
                self[keyPath: field] = current[keyPath: count] - previous[keyPath: count]
            }
            for latency in Latency.allCases {
                let recent = current[keyPath: latency.histogram].subtracting(previous[keyPath: latency.histogram])
                if recent.count > 0 { latencies[latency] = recent.summary }
            }
        }

        /// The point's counts of what happened in the interval, each with the running count it is the growth of:
        /// one list to extend with a new counter.
        static let countsInInterval: [(WritableKeyPath<Point, Int> & Sendable, KeyPath<BotStats, Int> & Sendable)] = [
            (\.connectsOpened, \.connectsOpened), (\.connectFailures, \.connectFailureCount),
            (\.unexpectedCloses, \.unexpectedCloseCount), (\.expectedCloses, \.expectedCloses),
            (\.protocolErrors, \.protocolErrorCount), (\.messagesIn, \.messagesIn), (\.messagesOut, \.messagesOut),
            (\.bytesIn, \.bytesIn), (\.bytesOut, \.bytesOut), (\.moves, \.moves),
            (\.echoesReturned, \.echoReceived), (\.fanoutSent, \.fanoutSent)
        ]

        /// `count` per second of the interval.
        public func rate(_ count: Int) -> Double {
            length > 0 ? Double(count) / length : 0
        }
    }

    /// Seconds each point covers.
    public let intervalSeconds: Int
    public private(set) var points: [Point] = []
    /// Points not kept because `maxPoints` were.
    public private(set) var droppedPoints = 0

    /// An empty timeline of `intervalSeconds`-second points.
    public init(intervalSeconds: Int = 1) {
        self.intervalSeconds = max(1, intervalSeconds)
    }

    /// The interval that keeps a run of `seconds` (its duration, drain and close included) within `maxPoints`:
    /// one second up to 30 minutes, two up to an hour, and so on.
    public static func intervalSeconds(forRunOf seconds: Double) -> Int {
        guard seconds.isFinite, seconds > Double(maxPoints) else { return 1 }
        return Int((seconds / Double(maxPoints)).rounded(.up))
    }

    /// Adds the next point, unless the timeline is full.
    public mutating func append(_ point: Point) {
        guard points.count < Self.maxPoints else {
            droppedPoints += 1
            return
        }
        points.append(point)
    }

    /// Takes the last point back (to take it again over a longer interval).
    mutating func removeLast() {
        if !points.isEmpty { points.removeLast() }
    }

    /// Sets the server's figures of a point already appended (they come from another thread, later).
    mutating func setServer(ofPoint index: Int, residentBytes: Int?, cpuPercent: Double?) {
        guard points.indices.contains(index) else { return }
        points[index].serverResidentBytes = residentBytes
        points[index].serverCPUPercent = cpuPercent
    }

    /// Whether any point timed `latency`.
    public func hasSamples(of latency: Latency) -> Bool {
        points.contains { $0.latencies[latency] != nil }
    }
}

extension BotTimeline.Latency {
    /// The latencies a scenario times, most telling first (the HTML report draws one chart each).
    public static func timed(in scenario: BotOptions.Scenario) -> [Self] {
        // Not a switch: a scenario added elsewhere gets the connection latency rather than a compile error.
        if scenario == .play || scenario == .churn { return [.moveToPatch, .delivery, .join, .moveToError, .connect] }
        if scenario == .echo { return [.echoRoundTrip, .connect] }
        if scenario == .fanout { return [.fanoutRoundTrip, .connect] }
        return [.connect]
    }
}
