extension BotReport {
    /// The end-of-run summary for people, in the manner of wrk and k6: one section per concern, latencies as
    /// percentiles, rates per second, and a last line saying whether the run passed.
    public var summary: String {
        var lines: [String] = []
        let stats = stats
        let seconds = activeSeconds
        func rate(_ count: Int) -> String { formatFixed(Double(count) / seconds, 0) + "/s" }
        func section(_ title: String) {
            lines.append("")
            lines.append(title)
        }
        func row(_ label: String, _ value: String) {
            lines.append("  " + padRight(label, 22) + value)
        }
        func latency(_ label: String, _ histogram: LogLinearHistogram) {
            let s = histogram.summary
            guard s.count > 0 else {
                row(label, "none")
                return
            }
            let cells = [("p50", s.p50), ("p90", s.p90), ("p99", s.p99), ("p99.9", s.p999), ("max", s.max)]
                .map { "\($0) \(pad(formatMicroseconds($1), 8))" }.joined(separator: "  ")
            row(label, "\(cells)  (n=\(s.count), mean \(formatMicroseconds(UInt64(s.mean.rounded()))))")
        }
        func counts<Key>(_ values: [Key: Int], _ name: (Key) -> String) -> String {
            values.isEmpty ? "none"
                : values.sorted { $0.value > $1.value }.map { "\(name($0.key)) \($0.value)" }.joined(separator: ", ")
        }

        lines.append(LoadTest.startLine(options, fileLimit: fileLimit))
        lines.append("  ran \(formatFixed(runSeconds, 1)) s, then \(formatFixed(drainSeconds, 2)) s for replies in flight")
        if options.warmup > 0 {
            lines.append("  moves and echoes sent in the first \(formatNumber(options.warmup)) s (warm-up) are counted but not timed")
        }

        section("Connections")
        row("opened", "\(stats.connectsOpened) of \(stats.connectAttempts) attempted")
        row("failed", counts(stats.connectFailures) { $0 })
        row("unexpected closes", counts(stats.unexpectedCloses) { "code \($0) (\(Self.meaning(ofCloseCode: $0)))" })
        row("closed by the bots", "\(stats.expectedCloses)")
        latency("connect", stats.connectLatency)

        switch options.scenario {
        case .play, .churn, .avalanche:
            section("Rooms and moves")
            row("rooms", "\(stats.roomsCreated) created, \(stats.roomsFailed) failed")
            latency("join (create/join)", stats.joinLatency)
            row("moves", "\(stats.moves) (\(rate(stats.moves))): \(stats.gameMovesSummary), of which \(stats.invalidMoves) invalid on purpose, \(stats.chats) chat lines")
            row("host new_game", "\(stats.hostActions)")
            row("no move left", "\(stats.skippedMoves) turns skipped (every move the bot knew was made)")
            latency("move -> patch", stats.moveToPatch)
            latency("move -> error", stats.moveToError)
            lines.append("  (move -> patch: from queuing a move on the bot's socket to reading the first patch of its room after")
            lines.append("   which the bot's rebuilt state shows that move: its entry in \(BotStats.shownLists) or its line")
            lines.append("   in chat, credited to it. Usually that is the first patch after the move;")
            lines.append("   for \(stats.movesShownByLaterPatch) of \(stats.moveToPatch.count) moves other members' patches came first. Refused moves")
            lines.append("   are timed to their error instead. Monotonic clock, read on the bots' loop threads.)")
            latency("delivery", stats.patchDelivery)
            lines.append("  (delivery: from the move being sent to each member of the room, spectators included, reading")
            lines.append("   that same patch: one sample per member per timed move.)")
            row("unanswered moves", "\(stats.unansweredMoves)")
            section("Room state")
            row("welcomes", "\(stats.welcomes)")
            row("patches", "\(stats.patches) (\(rate(stats.patches)))")
            row("snapshots", "\(stats.snapshots), \(stats.resyncs) resyncs after gaps")
            if options.scenario == .churn {
                section("Churn")
                row("cycles", "\(stats.churnCycles) (join, drop, resume, verify, leave)")
                row("dropped", "\(stats.drops) connections without a close frame")
                row("resumed", "\(stats.resumes): \(stats.resumedWithPatches) with the missed patches, \(stats.resumedWithState) with the full state")
                row("verified", "\(stats.resumesVerified) of \(stats.resumes) resumed states equal to a fresh snapshot")
                row("left", "\(stats.leaves); \(stats.abandonedMoves) moves lost on purpose with a dropped connection")
            }
        case .echo:
            section("Echo")
            row("messages", "\(stats.echoSent) sent, \(stats.echoReceived) received, \(stats.echoInFlight) in flight at the end")
            row("throughput", "\(rate(stats.echoReceived)) round trips")
            if stats.echoSkipped > 0 {
                row("not sent", "\(stats.echoSkipped) (window of \(options.depth) full at the fixed rate)")
            }
            latency("round trip", stats.echoRoundTrip)
        case .fanout:
            section("Fan-out (\(options.fanoutRooms) rooms of \(options.roomSize))")
            row("messages", "\(stats.fanoutSent) sent (\(rate(stats.fanoutSent))), \(stats.fanoutReturned) back to their sender, \(stats.fanoutInFlight) in flight at the end, \(stats.fanoutLost) lost")
            row("from room-mates", "\(stats.fanoutFromRoomMates) (\(rate(stats.fanoutFromRoomMates)))")
            row("deliveries / message", fanoutDeliveriesPerMessage.map { formatFixed($0, 2) } ?? "n/a")
            latency("own message back", stats.fanoutRoundTrip)
            lines.append("  (own message back: from a client sending its message to the room's broadcast bringing it back")
            lines.append("   to that client. Monotonic clock, read on the bots' loop threads.)")
        case .idle:
            section("Idle")
            row("stayed up", "\(stats.connectsOpened - stats.unexpectedCloseCount) of \(stats.connectsOpened) opened (\(options.connections) planned)")
        }

        section("Messages                in                 out")
        lines.append("  " + padRight("count", 22) + padRight("\(stats.messagesIn)", 19) + "\(stats.messagesOut)")
        lines.append("  " + padRight("per second", 22) + padRight(rate(stats.messagesIn), 19) + rate(stats.messagesOut))
        lines.append("  " + padRight("payload bytes/s", 22)
                     + padRight(formatBytes(Double(stats.bytesIn) / seconds) + "/s", 19)
                     + formatBytes(Double(stats.bytesOut) / seconds) + "/s")
        lines.append("  " + padRight("wire bytes/s", 22)
                     + padRight(formatBytes(Double(transport.bytesIn) / seconds) + "/s", 19)
                     + formatBytes(Double(transport.bytesOut) / seconds) + "/s")
        func perMessage(_ bytes: Int, _ messages: Int) -> String {
            messages > 0 ? formatFixed(Double(bytes) / Double(messages), 1) + " B" : "n/a"
        }
        func share(_ ratio: Double?) -> String { ratio.map { formatFixed($0 * 100, 1) + "%" } ?? "n/a" }
        lines.append("  " + padRight("payload B/message", 22) + padRight(perMessage(stats.bytesIn, stats.messagesIn), 19)
                     + perMessage(stats.bytesOut, stats.messagesOut))
        lines.append("  " + padRight("wire B/message", 22) + padRight(perMessage(frameBytesIn, stats.messagesIn), 19)
                     + perMessage(frameBytesOut, stats.messagesOut))
        lines.append("  " + padRight("wire / payload", 22) + padRight(share(wireToPayloadIn), 19) + share(wireToPayloadOut))
        lines.append("  (payload: the messages' bytes before compression or after inflation; wire: the bytes on the")
        lines.append("   sockets, frames and handshakes; per message and / payload: frames only, handshakes left out)")
        if let compression = options.compression {
            row("permessage-deflate", "offered; \(transport.compressedConnections) of \(stats.connectsOpened) connections negotiated it (bots compress with window 2^\(compression.windowBits), memLevel \(compression.memoryLevel))")
        } else {
            row("permessage-deflate", "not offered (--deflate offers it)")
        }

        section("Errors")
        row("protocol errors", counts(stats.protocolErrors) { $0 })
        if options.scenario == .play || options.scenario == .churn {
            row("expected rejections", counts(stats.expectedRejections) { $0 })
        }

        section("Server (\(serverEnd.source))")
        if let start = serverStart.residentBytes, let end = serverEnd.residentBytes {
            var text = "\(formatBytes(Double(start))) -> \(formatBytes(Double(end)))"
            if let perConnection = serverBytesPerConnection {
                text += " (\(formatBytes(perConnection)) per connection opened)"
            }
            row("resident memory", text)
        } else {
            row("resident memory", "n/a")
        }
        if let cpu = serverCPUSeconds, let percent = serverCPUPercent {
            var text = "\(formatFixed(cpu, 2)) s over \(formatFixed(Double(serverEnd.takenAt - serverStart.takenAt) / 1e9, 1)) s = \(formatFixed(percent, 1))% of one core"
            if let user = serverCPUUserSeconds, let system = serverCPUSystemSeconds {
                text += " (\(formatFixed(user, 2)) s user + \(formatFixed(system, 2)) s system)"
            }
            row("CPU", text)
        } else {
            row("CPU", "n/a")
        }

        section("Bots")
        row("CPU", "\(formatFixed(botCPU.user, 2)) s user + \(formatFixed(botCPU.system, 2)) s system = \(formatFixed(botCPUPercent, 1))% of one core on \(options.threads) threads")

        lines.append("")
        lines.append(failures.isEmpty ? "Result: OK" : "Result: FAILED (" + failures.joined(separator: ", ") + ")")
        return lines.joined(separator: "\n")
    }

    /// What a close code usually means with this server, for the summary.
    static func meaning(ofCloseCode code: UInt16) -> String {
        switch code {
        case 1000: "normal closure"
        case 1001: "server shutting down"
        case 1002: "protocol error"
        case 1006: "no close frame: the TCP connection ended"
        case 1007: "invalid UTF-8"
        case 1008: "policy: too many messages, or too many connections from one address"
        case 1009: "message too big"
        case 4000: "replaced by a newer connection"
        case 4001: "removed by the host"
        default: "see RFC 6455 section 7.4"
        }
    }
}
