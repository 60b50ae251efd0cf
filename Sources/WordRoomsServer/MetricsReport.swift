import Rooms
import Transport

/// `GET /metrics` in the Prometheus text exposition format (version 0.0.4).
enum MetricsReport {
    static func render(transport: TransportCounters, rooms: [GameKind: Int], roomsCreated: Int,
                       fanout: LatencyHistogram.Counts, process: ProcessStats,
                       journal: RoomJournal.Health? = nil) -> String {
        var text = ""
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: String)]) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
            for (labels, value) in samples {
                text += "\(name)\(labels) \(value)\n"
            }
        }
        func single(_ name: String, _ type: String, _ help: String, _ value: Int) {
            metric(name, type, help, [("", String(value))])
        }
        single("wordrooms_connections_open", "gauge", "Open TCP connections (HTTP and WebSocket).",
               transport.openConnections)
        single("wordrooms_connections_accepted_total", "counter", "TCP connections accepted.", transport.accepted)
        single("wordrooms_connections_refused_total", "counter",
               "Connections refused because the process ran out of file descriptors.", transport.acceptFailures)
        single("wordrooms_connections_over_limit_total", "counter",
               "Connections answered 503 because the server was at --max-connections.", transport.connectionsRefused)
        single("wordrooms_connections_pending_over_cap_total", "counter",
               "Connections answered 429 because their address held --max-pending-per-ip connections not yet upgraded.",
               transport.pendingOverCap)
        single("wordrooms_connections_evicted_total", "counter",
               "Connections not yet upgraded closed at --max-connections to make room for another address.",
               transport.connectionsEvicted)
        single("wordrooms_http_requests_total", "counter", "Plain HTTP requests answered.", transport.httpRequests)
        single("wordrooms_http_bad_requests_total", "counter", "Malformed or oversized HTTP requests.",
               transport.badRequests)
        single("wordrooms_websocket_upgrades_total", "counter", "Successful WebSocket handshakes.", transport.upgrades)
        single("wordrooms_handshake_failures_total", "counter", "Refused WebSocket handshakes.",
               transport.handshakeFailures)
        single("wordrooms_request_timeouts_total", "counter", "Connections dropped for a slow request head.",
               transport.requestTimeouts)
        single("wordrooms_ping_timeouts_total", "counter", "WebSocket peers dropped for not answering pings.",
               transport.pingTimeouts)
        single("wordrooms_slow_consumers_total", "counter", "Connections dropped for falling too far behind.",
               transport.slowConsumers)
        single("wordrooms_messages_received_total", "counter", "WebSocket messages received.", transport.messagesIn)
        single("wordrooms_messages_sent_total", "counter", "WebSocket messages queued to clients.",
               transport.messagesOut)
        single("wordrooms_bytes_received_total", "counter", "Bytes read from sockets.", transport.bytesIn)
        single("wordrooms_bytes_sent_total", "counter", "Bytes written to sockets.", transport.bytesOut)
        metric("wordrooms_websocket_closes_total", "counter",
               "WebSocket connections closed, by close code (1006: no close frame).",
               transport.closesByCode.sorted { $0.key < $1.key }.map { ("{code=\"\($0.key)\"}", String($0.value)) })
        metric("wordrooms_rooms", "gauge", "Rooms by game.",
               GameKind.allCases.map { ("{game=\"\($0.rawValue)\"}", String(rooms[$0, default: 0])) })
        single("wordrooms_rooms_created_total", "counter", "Rooms created.", roomsCreated)

        text += "# HELP wordrooms_patch_fanout_seconds Time from a move arriving to its patch being queued to every member.\n"
        text += "# TYPE wordrooms_patch_fanout_seconds histogram\n"
        var cumulative = 0
        for (index, bound) in LatencyHistogram.bounds.enumerated() {
            cumulative += fanout.buckets[index]
            text += "wordrooms_patch_fanout_seconds_bucket{le=\"\(bound)\"} \(cumulative)\n"
        }
        text += "wordrooms_patch_fanout_seconds_bucket{le=\"+Inf\"} \(fanout.count)\n"
        text += "wordrooms_patch_fanout_seconds_sum \(fanout.sum)\n"
        text += "wordrooms_patch_fanout_seconds_count \(fanout.count)\n"

        if let journal {
            single("wordrooms_journal_write_failures_total", "counter",
                   "Writes, fsyncs and snapshots of the data directory (--data) that failed.", journal.writeFailures)
            single("wordrooms_journal_failing", "gauge", "1 while saving rooms fails (then /readyz answers 503).",
                   journal.failure == nil ? 0 : 1)
            single("wordrooms_journal_unsaved_rooms", "gauge",
                   "While saving fails, rooms whose last changes are not on the disk.", journal.unsavedRooms)
        }

        single("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", process.residentBytes)
        metric("process_cpu_seconds_total", "counter", "User and system CPU time in seconds.",
               [("", String(process.cpuSeconds))])
        single("process_open_fds", "gauge", "Open file descriptors.", process.openFiles)
        single("process_max_fds", "gauge", "Limit on open file descriptors.", process.maxFiles)
        return text
    }
}
