import JSON
import WordGames

extension BotReport {
    /// The report's figures as JSON (`--json FILE`): the same numbers as `summary`, latencies in microseconds.
    public var json: JSONValue {
        let stats = stats
        let seconds = activeSeconds
        func latency(_ histogram: LogLinearHistogram) -> JSONValue {
            let s = histogram.summary
            return ["count": JSONValue(Int(s.count)), "min_us": JSONValue(Int(s.min)), "mean_us": JSONValue(s.mean),
                    "p50_us": JSONValue(Int(s.p50)), "p90_us": JSONValue(Int(s.p90)), "p99_us": JSONValue(Int(s.p99)),
                    "p99_9_us": JSONValue(Int(s.p999)), "max_us": JSONValue(Int(s.max))]
        }
        func counts(_ values: [String: Int]) -> JSONValue {
            .object(JSONObject(values.sorted { $0.key < $1.key }.map { ($0.key, JSONValue($0.value)) }))
        }
        func optional(_ value: Double?) -> JSONValue { value.map { JSONValue($0) } ?? .null }
        func optional(_ value: Int?) -> JSONValue { value.map { JSONValue($0) } ?? .null }
        func sample(_ sample: ServerSample) -> JSONValue {
            ["resident_bytes": optional(sample.residentBytes), "cpu_seconds": optional(sample.cpuSeconds),
             "source": .string(sample.source)]
        }

        var options: JSONObject = [
            "scenario": .string(self.options.scenario.rawValue), "url": .string(self.options.url.description),
            "path": .string(self.options.path), "duration_s": JSONValue(self.options.duration),
            "warmup_s": JSONValue(self.options.warmup),
            "ramp_per_s": JSONValue(self.options.ramp), "threads": JSONValue(self.options.threads),
        ]
        switch self.options.scenario {
        case .play, .churn, .avalanche:
            options["rooms"] = JSONValue(self.options.rooms)
            options["players"] = JSONValue(self.options.players)
            options["spectators"] = JSONValue(self.options.spectators)
            options["game"] = .string(self.options.game.rawValue)
            options["rate"] = JSONValue(self.options.effectiveRate ?? 1)
            options["invalid_share"] = JSONValue(self.options.invalidShare)
            options["chat_share"] = JSONValue(self.options.chatShare)
            if self.options.scenario == .churn { options["churners"] = JSONValue(self.options.churners) }
        case .echo:
            options["connections"] = JSONValue(self.options.connections)
            options["depth"] = JSONValue(self.options.depth)
            options["size"] = JSONValue(self.options.size)
            options["rate"] = optional(self.options.effectiveRate)
        case .idle:
            options["connections"] = JSONValue(self.options.connections)
        case .fanout:
            options["connections"] = JSONValue(self.options.connections)
            options["room_size"] = JSONValue(self.options.roomSize)
            options["rooms"] = JSONValue(self.options.fanoutRooms)
            options["size"] = JSONValue(self.options.size)
            options["rate"] = JSONValue(self.options.effectiveRate ?? 1)
        }

        var report: JSONObject = [
            "options": .object(options),
            "started_at": JSONValue(startedAt),
            "run_s": JSONValue(runSeconds),
            "drain_s": JSONValue(drainSeconds),
            "file_limit": JSONValue(fileLimit),
            "connections": [
                "attempted": JSONValue(stats.connectAttempts), "opened": JSONValue(stats.connectsOpened),
                "failed": counts(stats.connectFailures),
                "unexpected_closes": counts(Dictionary(uniqueKeysWithValues: stats.unexpectedCloses.map { (String($0.key), $0.value) })),
                "closed_by_bots": JSONValue(stats.expectedCloses), "open_at_end": JSONValue(stats.openConnections),
                "connect_latency": latency(stats.connectLatency),
            ],
            "messages": [
                "in": JSONValue(stats.messagesIn), "out": JSONValue(stats.messagesOut),
                "in_per_s": JSONValue(Double(stats.messagesIn) / seconds),
                "out_per_s": JSONValue(Double(stats.messagesOut) / seconds),
                "payload_bytes_in": JSONValue(stats.bytesIn), "payload_bytes_out": JSONValue(stats.bytesOut),
                "payload_bytes_in_per_s": JSONValue(Double(stats.bytesIn) / seconds),
                "payload_bytes_out_per_s": JSONValue(Double(stats.bytesOut) / seconds),
                "wire_bytes_in": JSONValue(transport.bytesIn), "wire_bytes_out": JSONValue(transport.bytesOut),
                "wire_bytes_in_per_s": JSONValue(Double(transport.bytesIn) / seconds),
                "wire_bytes_out_per_s": JSONValue(Double(transport.bytesOut) / seconds),
                "handshake_bytes_in": JSONValue(transport.handshakeBytesIn),
                "handshake_bytes_out": JSONValue(transport.handshakeBytesOut),
                "frame_bytes_in": JSONValue(frameBytesIn), "frame_bytes_out": JSONValue(frameBytesOut),
                "payload_bytes_per_message_in": optional(stats.messagesIn > 0 ? Double(stats.bytesIn) / Double(stats.messagesIn) : nil),
                "payload_bytes_per_message_out": optional(stats.messagesOut > 0 ? Double(stats.bytesOut) / Double(stats.messagesOut) : nil),
                "wire_bytes_per_message_in": optional(wireBytesPerMessageIn),
                "wire_bytes_per_message_out": optional(wireBytesPerMessageOut),
                "wire_to_payload_in": optional(wireToPayloadIn), "wire_to_payload_out": optional(wireToPayloadOut),
            ],
            "compression": [
                "offered": .bool(self.options.deflate),
                "window_bits": optional(self.options.compression?.windowBits),
                "memory_level": optional(self.options.compression.map { Int($0.memoryLevel) }),
                "negotiated_connections": JSONValue(transport.compressedConnections),
            ],
            "errors": [
                "protocol": counts(stats.protocolErrors), "protocol_total": JSONValue(stats.protocolErrorCount),
                "expected_rejections": counts(stats.expectedRejections),
            ],
            "server": [
                "start": sample(serverStart), "end": sample(serverEnd),
                "cpu_seconds": optional(serverCPUSeconds), "cpu_percent": optional(serverCPUPercent),
                "cpu_user_seconds": optional(serverCPUUserSeconds),
                "cpu_system_seconds": optional(serverCPUSystemSeconds),
                "bytes_per_connection": optional(serverBytesPerConnection),
            ],
            "bots": [
                "cpu_user_s": JSONValue(botCPU.user), "cpu_system_s": JSONValue(botCPU.system),
                "cpu_percent": JSONValue(botCPUPercent),
            ],
            "timeline": timeline.json(for: self.options.scenario),
            "failures": .array(failures.map { .string($0) }),
            "exit_status": JSONValue(Int(exitStatus)),
        ]
        switch self.options.scenario {
        case .play, .churn, .avalanche:
            var play: JSONValue = [
                "rooms_created": JSONValue(stats.roomsCreated), "rooms_failed": JSONValue(stats.roomsFailed),
                "join_latency": latency(stats.joinLatency),
                "moves": JSONValue(stats.moves), "moves_per_s": JSONValue(Double(stats.moves) / seconds),
                "chats": JSONValue(stats.chats),
                "invalid_moves": JSONValue(stats.invalidMoves), "host_new_game": JSONValue(stats.hostActions),
                "skipped_no_move_left": JSONValue(stats.skippedMoves),
                "move_to_patch": latency(stats.moveToPatch), "move_to_error": latency(stats.moveToError),
                "patch_delivery": latency(stats.patchDelivery),
                "moves_shown_by_later_patch": JSONValue(stats.movesShownByLaterPatch),
                "unanswered_moves": JSONValue(stats.unansweredMoves),
                "welcomes": JSONValue(stats.welcomes), "patches": JSONValue(stats.patches),
                "snapshots": JSONValue(stats.snapshots), "resyncs": JSONValue(stats.resyncs),
            ]
            // Each game's moves under its own name ("guesses", "words"), zero for games the run did not play.
            for bot in GameCatalog.bots {
                play[bot.moveNoun] = JSONValue(stats.gameMoves[bot.moveNoun, default: 0])
            }
            report["play"] = play
            if self.options.scenario == .churn {
                report["churn"] = [
                    "cycles": JSONValue(stats.churnCycles), "drops": JSONValue(stats.drops),
                    "resumes": JSONValue(stats.resumes), "resumed_with_patches": JSONValue(stats.resumedWithPatches),
                    "resumed_with_state": JSONValue(stats.resumedWithState),
                    "verified": JSONValue(stats.resumesVerified), "leaves": JSONValue(stats.leaves),
                    "abandoned_moves": JSONValue(stats.abandonedMoves),
                ]
            }
        case .echo:
            report["echo"] = [
                "sent": JSONValue(stats.echoSent), "received": JSONValue(stats.echoReceived),
                "in_flight_at_end": JSONValue(stats.echoInFlight), "not_sent_window_full": JSONValue(stats.echoSkipped),
                "round_trips_per_s": JSONValue(Double(stats.echoReceived) / seconds),
                "round_trip": latency(stats.echoRoundTrip),
            ]
        case .fanout:
            report["fanout"] = [
                "sent": JSONValue(stats.fanoutSent), "returned": JSONValue(stats.fanoutReturned),
                "from_room_mates": JSONValue(stats.fanoutFromRoomMates),
                "in_flight_at_end": JSONValue(stats.fanoutInFlight), "lost": JSONValue(stats.fanoutLost),
                "sent_per_s": JSONValue(Double(stats.fanoutSent) / seconds),
                "deliveries_per_message": optional(fanoutDeliveriesPerMessage),
                "round_trip": latency(stats.fanoutRoundTrip),
            ]
        case .idle:
            report["idle"] = [
                "opened": JSONValue(stats.connectsOpened),
                "stayed_up": JSONValue(stats.connectsOpened - stats.unexpectedCloseCount),
            ]
        }
        return .object(report)
    }
}
