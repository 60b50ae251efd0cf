import JSON

extension BotTimeline {
    /// The timeline as columns of equal length, one entry per point (`timeline` in `--json`): counts of the
    /// interval, rates per second, latencies in microseconds (null in intervals that timed nothing), the
    /// server's figures (null when it could not be sampled).
    ///
    /// - Parameter scenario: Picks the latencies and the rate the scenario has.
    /// - Returns: A JSON object.
    public func json(for scenario: BotOptions.Scenario) -> JSONValue {
        func column(_ value: (Point) -> Int) -> JSONValue { .array(points.map { JSONValue(value($0)) }) }
        func rates(_ value: (Point) -> Int) -> JSONValue {
            .array(points.map { JSONValue(Self.rounded($0.rate(value($0)))) })
        }
        func optional(_ value: (Point) -> Double?) -> JSONValue {
            .array(points.map { point in value(point).map { JSONValue(Self.rounded($0)) } ?? .null })
        }
        var latency: JSONObject = [:]
        for kind in Latency.timed(in: scenario) {
            func figure(_ value: (LatencySummary) -> UInt64) -> JSONValue {
                .array(points.map { point in point.latencies[kind].map { JSONValue(Int(value($0))) } ?? .null })
            }
            latency[kind.jsonName] = [
                "count": column { Int($0.latencies[kind]?.count ?? 0) },
                "p50_us": figure(\.p50), "p99_us": figure(\.p99), "max_us": figure(\.max),
            ]
        }
        var timeline: JSONObject = [
            "interval_s": JSONValue(intervalSeconds), "points": JSONValue(points.count),
            "dropped_points": JSONValue(droppedPoints),
            "start_s": optional { $0.start }, "length_s": optional { $0.length },
            "open_connections": column(\.openConnections), "connects_opened": column(\.connectsOpened),
            "connect_failures": column(\.connectFailures), "unexpected_closes": column(\.unexpectedCloses),
            "closed_by_bots": column(\.expectedCloses), "protocol_errors": column(\.protocolErrors),
            "messages_in_per_s": rates(\.messagesIn), "messages_out_per_s": rates(\.messagesOut),
            "payload_bytes_in_per_s": rates(\.bytesIn), "payload_bytes_out_per_s": rates(\.bytesOut),
            "wire_bytes_in_per_s": rates(\.wireBytesIn), "wire_bytes_out_per_s": rates(\.wireBytesOut),
            "latency": .object(latency),
            "server": ["resident_bytes": .array(points.map { point in point.serverResidentBytes.map { JSONValue($0) } ?? .null }),
                       "cpu_percent": optional(\.serverCPUPercent)],
            "bots_cpu_percent": optional(\.botCPUPercent),
        ]
        if scenario == .play || scenario == .churn { timeline["moves_per_s"] = rates(\.moves) }
        if scenario == .echo { timeline["echoes_per_s"] = rates(\.echoesReturned) }
        if scenario == .fanout { timeline["fanout_sent_per_s"] = rates(\.fanoutSent) }
        return .object(timeline)
    }

    /// Three decimals are plenty for rates and percentages, and keep the file short.
    static func rounded(_ value: Double) -> Double {
        (value * 1000).rounded() / 1000
    }
}
