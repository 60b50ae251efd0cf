import Transport

/// The figures of one run: what the bots counted, what the transport counted, and the server's and the bots'
/// memory and CPU. Rendered as the end-of-run summary (`summary`) and as JSON (`json`).
public struct BotReport: Sendable {
    public let options: BotOptions
    /// The soft open-files limit after raising it to the hard limit.
    public let fileLimit: Int
    /// Seconds since 1970 when the run started.
    public let startedAt: Double
    /// Seconds from the start to the end of the run (the ramp included).
    public let runSeconds: Double
    /// Seconds waited after the run for replies in flight.
    public let drainSeconds: Double
    public let stats: BotStats
    /// Frames and bytes on the wire, as the bots' event loops counted them.
    public let transport: TransportCounters
    public let serverStart: ServerSample
    public let serverEnd: ServerSample
    /// CPU seconds of the bots' process over the run and the drain.
    public let botCPU: CPUTime
    /// Wall seconds `botCPU` was measured over.
    public let botCPUWallSeconds: Double
    /// The run over time, one point per interval (`--html`, and `timeline` in `--json`).
    public var timeline = BotTimeline()

    /// Seconds the rates are computed over: the run and the drain, when messages still moved.
    public var activeSeconds: Double { max(runSeconds + drainSeconds, 1e-9) }

    /// The server's CPU seconds between the two samples, if both have them.
    public var serverCPUSeconds: Double? {
        guard let start = serverStart.cpuSeconds, let end = serverEnd.cpuSeconds else { return nil }
        return end - start
    }

    /// The server's user and system CPU seconds between the two samples (`--server-pid` only).
    public var serverCPUUserSeconds: Double? {
        guard let start = serverStart.cpuUserSeconds, let end = serverEnd.cpuUserSeconds else { return nil }
        return end - start
    }
    public var serverCPUSystemSeconds: Double? {
        guard let start = serverStart.cpuSystemSeconds, let end = serverEnd.cpuSystemSeconds else { return nil }
        return end - start
    }

    /// fanout: messages read per message sent, own and room-mates' (the room size once every room is full).
    public var fanoutDeliveriesPerMessage: Double? {
        stats.fanoutSent > 0 ? Double(stats.fanoutReturned + stats.fanoutFromRoomMates) / Double(stats.fanoutSent) : nil
    }

    /// The server's CPU use between the samples, in percent of one core.
    public var serverCPUPercent: Double? {
        guard let seconds = serverCPUSeconds, serverEnd.takenAt > serverStart.takenAt else { return nil }
        return seconds / (Double(serverEnd.takenAt - serverStart.takenAt) / 1e9) * 100
    }

    /// The bots' CPU use, in percent of one core.
    public var botCPUPercent: Double {
        botCPU.total / max(botCPUWallSeconds, 1e-9) * 100
    }

    /// Server memory grown per connection opened (idle memory per connection in the idle scenario).
    public var serverBytesPerConnection: Double? {
        guard let start = serverStart.residentBytes, let end = serverEnd.residentBytes,
              stats.connectsOpened > 0 else { return nil }
        return Double(end - start) / Double(stats.connectsOpened)
    }

    /// Bytes of WebSocket frames each way on the bots' sockets: all the socket bytes less the opening handshakes
    /// (headers, masks, pings and closes included; compressed payloads as sent).
    public var frameBytesIn: Int { transport.bytesIn - transport.handshakeBytesIn }
    public var frameBytesOut: Int { transport.bytesOut - transport.handshakeBytesOut }

    /// Frame bytes per message received and sent: what a message costs on the wire.
    public var wireBytesPerMessageIn: Double? {
        stats.messagesIn > 0 ? Double(frameBytesIn) / Double(stats.messagesIn) : nil
    }
    public var wireBytesPerMessageOut: Double? {
        stats.messagesOut > 0 ? Double(frameBytesOut) / Double(stats.messagesOut) : nil
    }

    /// Frame bytes over payload bytes (the messages before compression or after inflation): above 1 without
    /// compression (frame headers), below with it, by as much as deflate saves.
    public var wireToPayloadIn: Double? {
        stats.bytesIn > 0 ? Double(frameBytesIn) / Double(stats.bytesIn) : nil
    }
    public var wireToPayloadOut: Double? {
        stats.bytesOut > 0 ? Double(frameBytesOut) / Double(stats.bytesOut) : nil
    }

    /// Everything that makes the run fail: protocol errors, unexpected closes, failed connections, moves
    /// never answered, and (idle, echo) connections or messages that went missing.
    public var failures: [String] {
        var failures: [String] = []
        func add(_ count: Int, _ what: String) {
            if count > 0 { failures.append("\(count) \(what)") }
        }
        add(stats.protocolErrorCount, "protocol errors")
        add(stats.unexpectedCloseCount, "unexpected disconnects")
        add(stats.connectFailureCount, "failed connections")
        add(stats.unansweredMoves, "unanswered moves")
        if options.scenario == .echo {
            add(stats.echoSent - stats.echoReceived, "echo messages not returned")
        }
        if options.scenario == .fanout {
            add(stats.fanoutSent - stats.fanoutReturned, "fanout messages not returned to their sender")
        }
        return failures
    }

    /// 0 for a clean run, 1 when anything in `failures` happened.
    public var exitStatus: Int32 { failures.isEmpty ? 0 : 1 }
}
