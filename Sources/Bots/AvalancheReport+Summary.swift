extension AvalancheReport {
    /// The end-of-run text: the storm, the resumes and their latency, the rooms' check, and a result line.
    public var summary: String {
        var lines: [String] = []
        func row(_ label: String, _ value: String) { lines.append("  " + padRight(label, 22) + value) }
        func percent(_ share: Double) -> String { formatFixed(share * 100, 1) + "%" }
        let rooms = figures.bots / max(1, options.players)
        lines.append("")
        lines.append("Avalanche (--drop \(options.dropMode.rawValue)): \(figures.bots) bots in \(rooms) rooms, "
                     + "\(options.game.rawValue), \(formatNumber(options.effectiveRate ?? 1)) moves/s per bot")
        row("seated", "\(figures.seated) of \(figures.bots) before the drop")
        row("first loss", firstLossSeconds.map { formatFixed($0, 2) + " s after the start" } ?? "none")
        row("lost", "\(figures.lost) connections" + (neverLost > 0 ? " (\(neverLost) seated bots never lost theirs)" : ""))
        row("back in their seats", "\(figures.back) (\(percent(backShare))); not back \(notBack)"
            + (figures.refused > 0 ? ", of which \(figures.refused) refused by the server" : "")
            + " (give-up \(formatNumber(options.giveUp)) s)")
        let latency = figures.resumeLatency.summary
        row("resume latency", latency.count == 0 ? "n/a" :
            "p50 \(formatMicroseconds(latency.p50))  p95 \(formatMicroseconds(figures.resumeLatency.value(atPercentile: 95)))"
            + "  p99 \(formatMicroseconds(latency.p99))  max \(formatMicroseconds(latency.max))")
        lines.append("  " + padRight("", 22) + "(from each bot's lost connection to its resumed welcome)")
        row("storm", stormSeconds.map { formatFixed($0, 2) + " s from the first loss to the last bot back" } ?? "n/a")
        row("reconnect attempts", "\(figures.reconnectAttempts), \(figures.reconnectFailures) failed "
            + "(refused, timed out, HTTP 429/503); at most \(figures.mostAttempts) by one bot; "
            + "\(figures.resumeTimeouts) resumes unanswered for 15 s and tried again")
        row("resumes", "\(figures.resumedWithPatches) with the missed patches, \(figures.resumedWithState) with the whole state")
        row("resyncs", "\(resyncs) (whole-state resumes + \(stats.resyncs) snapshots asked for after a gap)")
        row("rooms exact", "\(figures.rooms.checked - figures.rooms.mismatched) of \(figures.rooms.checked) checked; "
            + "\(figures.rooms.mismatched) differ" + mismatchedRoomsNote)
        row("bots checked", "\(figures.verified) equal to a fresh snapshot, \(figures.mismatched) differ"
            + (checksUnanswered > 0 ? ", \(checksUnanswered) unanswered" : ""))
        row("moves", "\(stats.moves) (\(stats.gameMovesSummary), \(stats.chats) chat lines)")
        let errors = stats.protocolErrors.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        row("protocol errors", errors.isEmpty ? "none" : errors.joined(separator: ", "))
        lines.append("")
        lines.append(failures.isEmpty ? "Result: OK" : "Result: FAILED (" + failures.joined(separator: ", ") + ")")
        return lines.joined(separator: "\n")
    }

    private var mismatchedRoomsNote: String {
        let rooms = figures.rooms.mismatchedRooms
        guard !rooms.isEmpty else { return "" }
        return " (rooms " + rooms.prefix(5).map { "#\($0)" }.joined(separator: ", ") + (rooms.count > 5 ? ", ..." : "") + ")"
    }
}
