import JSON

extension AvalancheReport {
    /// The report as JSON (`--json FILE`): the same figures as `summary`, latencies in microseconds.
    public var json: JSONValue {
        let latency = figures.resumeLatency.summary
        func optional(_ value: Double?) -> JSONValue { value.map { JSONValue($0) } ?? .null }
        let options: JSONValue = [
            "scenario": .string(self.options.scenario.rawValue), "url": .string(self.options.url.description),
            "drop": .string(self.options.dropMode.rawValue), "drop_after_s": JSONValue(self.options.dropAfter),
            "give_up_s": JSONValue(self.options.giveUp), "rooms": JSONValue(self.options.rooms),
            "players": JSONValue(self.options.players), "game": .string(self.options.game.rawValue),
            "rate": JSONValue(self.options.effectiveRate ?? 1), "ramp_per_s": JSONValue(self.options.ramp),
            "threads": JSONValue(self.options.threads),
        ]
        let errors = JSONObject(stats.protocolErrors.sorted { $0.key < $1.key }.map { ($0.key, JSONValue($0.value)) })
        return [
            "options": options,
            "started_at": JSONValue(startedAt),
            "file_limit": JSONValue(fileLimit),
            "bots": JSONValue(figures.bots),
            "seated": JSONValue(figures.seated),
            "lost": JSONValue(figures.lost),
            "back": JSONValue(figures.back),
            "back_share": JSONValue(backShare),
            "not_back": JSONValue(notBack),
            "refused": JSONValue(figures.refused),
            "never_lost": JSONValue(neverLost),
            "first_loss_s": optional(firstLossSeconds),
            "storm_s": optional(stormSeconds),
            "resume_latency": [
                "count": JSONValue(Int(latency.count)), "p50_us": JSONValue(Int(latency.p50)),
                "p95_us": JSONValue(Int(figures.resumeLatency.value(atPercentile: 95))),
                "p99_us": JSONValue(Int(latency.p99)), "max_us": JSONValue(Int(latency.max)),
            ],
            "reconnect_attempts": JSONValue(figures.reconnectAttempts),
            "reconnect_failures": JSONValue(figures.reconnectFailures),
            "most_attempts": JSONValue(figures.mostAttempts),
            "resume_timeouts": JSONValue(figures.resumeTimeouts),
            "resumed_with_patches": JSONValue(figures.resumedWithPatches),
            "resumed_with_state": JSONValue(figures.resumedWithState),
            "resyncs": JSONValue(resyncs),
            "rooms_checked": JSONValue(figures.rooms.checked),
            "rooms_mismatched": JSONValue(figures.rooms.mismatched),
            "bots_verified": JSONValue(figures.verified),
            "bots_mismatched": JSONValue(figures.mismatched),
            "checks_unanswered": JSONValue(checksUnanswered),
            "moves": JSONValue(stats.moves),
            "protocol_errors": .object(errors),
            "failures": .array(failures.map { .string($0) }),
            "exit_status": JSONValue(Int(exitStatus)),
        ]
    }
}
