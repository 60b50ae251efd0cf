import Foundation
import Testing
import Transport
import WordRoomsServer
@testable import Bots

/// Runs each scenario against the real server started in this process on an ephemeral port, and checks the
/// report's counts. Serialized: the runs compete for the same two cores otherwise.
@Suite(.serialized) struct LoadTestTests {
    @Test func playBothGamesWithoutProtocolErrors() async throws {
        let report = try await runAgainstServer(["play", "--rooms", "10", "--players", "4", "--game", "mixed",
                                                 "--rate", "2", "--duration", "3", "--invalid-share", "0.3",
                                                 "--seed", "11"])
        let stats = report.stats
        expectClean(stats)
        #expect(stats.connectsOpened == 40)
        #expect(stats.roomsCreated == 10)
        #expect(stats.welcomes == 40)
        #expect(stats.gameMoves["guesses", default: 0] > 0, "Snowman rooms guessed")
        #expect(stats.gameMoves["words", default: 0] > 0, "Word Scramble rooms submitted words")
        #expect(stats.chats > 0, "players waiting for their Snowman turn chat")
        #expect(stats.moves == stats.gameMoves.values.reduce(0, +) + stats.chats)
        #expect(stats.patches > 0)
        #expect(stats.hostActions >= 5, "every Word Scramble host started a match")
        // Every move was answered: by the patch that shows it, or by the error that refused it.
        #expect(stats.unansweredMoves == 0)
        #expect(stats.moveToPatch.count + stats.moveToError.count == UInt64(stats.moves))
        #expect(stats.moveToError.count == UInt64(stats.expectedRejections.values.reduce(0, +)))
        #expect(stats.invalidMoves > 0)
        #expect(stats.expectedRejections["not-a-word", default: 0] == stats.invalidMoves)
        #expect(stats.moveToPatch.value(atPercentile: 99) > 0)
        #expect(stats.expectedCloses == 40)
        #expect(report.exitStatus == 0)
        #expect(report.serverEnd.residentBytes != nil, "RSS scraped from /metrics")
    }

    @Test func spectatorsOnlyWatch() async throws {
        let report = try await runAgainstServer(["play", "--rooms", "2", "--players", "2", "--spectators", "5",
                                                 "--game", "snowman", "--rate", "5", "--duration", "2",
                                                 "--chat-share", "0"])
        let stats = report.stats
        expectClean(stats)
        #expect(stats.connectsOpened == 14)
        #expect(stats.chats == 0, "--chat-share 0: players only wait for their turn")
        #expect(stats.moves == stats.gameMoves["guesses", default: 0])
        // Each move reaches the 2 players and 5 spectators of its room as one patch each, and each timed move
        // is delivered to all 7 (the last ones may still be on their way when the run ends).
        #expect(stats.patches >= stats.moves * 7)
        #expect(stats.patchDelivery.count <= stats.moveToPatch.count * 7)
        #expect(stats.patchDelivery.count * 10 >= stats.moveToPatch.count * 7 * 9)
        #expect(report.exitStatus == 0)
    }

    @Test func echoCountsEveryRoundTrip() async throws {
        // Polling loops (--poll-us) must see every echo as a sleeping loop does.
        let report = try await runAgainstServer(["echo", "--connections", "10", "--depth", "4", "--size", "32",
                                                 "--duration", "2", "--poll-us", "100"])
        let stats = report.stats
        #expect(stats.connectsOpened == 10)
        #expect(stats.echoSent > 1000)
        #expect(stats.echoReceived == stats.echoSent - stats.echoInFlight)
        #expect(stats.echoInFlight == 0, "the drain waited for every echo")
        #expect(stats.echoRoundTrip.count == UInt64(stats.echoReceived))
        #expect(stats.messagesIn == stats.echoReceived)
        expectClean(stats)
        #expect(report.transport.bytesOut > stats.bytesOut, "frames add headers and masks")
        #expect(report.exitStatus == 0)
    }

    @Test func warmUpEchoesAreCountedButNotTimed() async throws {
        let report = try await runAgainstServer(["echo", "--connections", "4", "--depth", "2", "--rate", "50",
                                                 "--duration", "2", "--warmup", "1"])
        let stats = report.stats
        #expect(stats.echoReceived == stats.echoSent)
        // About half of the echoes were sent in the first second.
        #expect(stats.echoRoundTrip.count > 0)
        #expect(stats.echoRoundTrip.count < UInt64(stats.echoReceived) * 3 / 4, "\(stats.echoRoundTrip.count) of \(stats.echoReceived)")
        #expect(report.exitStatus == 0)
    }

    @Test func echoAtAFixedRate() async throws {
        let report = try await runAgainstServer(["echo", "--connections", "4", "--depth", "8", "--rate", "100",
                                                 "--duration", "2"])
        let stats = report.stats
        // 4 connections x 100 messages a second for about 2 s (ramp and tick granularity aside).
        #expect(stats.echoSent >= 600 && stats.echoSent <= 850, "\(stats.echoSent)")
        #expect(stats.echoReceived == stats.echoSent)
        #expect(report.exitStatus == 0)
    }

    @Test func churnResumesAndVerifiesEveryState() async throws {
        let report = try await runAgainstServer(["churn", "--rooms", "4", "--players", "3", "--churners", "2",
                                                 "--game", "mixed", "--rate", "2", "--duration", "4"])
        let stats = report.stats
        expectClean(stats)
        #expect(stats.drops > 0)
        #expect(stats.resumes > 0)
        #expect(stats.resumesVerified == stats.resumes)
        #expect(stats.resumedWithPatches + stats.resumedWithState == stats.resumes)
        #expect(stats.churnCycles > 0)
        #expect(report.exitStatus == 0)
    }

    @Test func idleConnectionsStayUp() async throws {
        let report = try await runAgainstServer(["idle", "--connections", "20", "--duration", "1"])
        #expect(report.stats.connectsOpened == 20)
        expectClean(report.stats)
        #expect(report.stats.expectedCloses == 20)
        #expect(report.exitStatus == 0)
    }

    @Test func idleConnectionsAnswerTheServersPings() async throws {
        // The server pings a connection silent for 1 s and drops it if no pong comes within 1 s more.
        let report = try await runAgainstServer(["idle", "--connections", "20", "--duration", "4"]) {
            $0.pingIntervalSeconds = 1
            $0.pongTimeoutSeconds = 1
        }
        #expect(report.stats.connectsOpened == 20)
        expectClean(report.stats)
        #expect(report.exitStatus == 0)
    }

    // MARK: permessage-deflate

    @Test func deflatePlayNegotiatesEveryConnectionAndSavesWireBytes() async throws {
        let arguments = ["play", "--rooms", "4", "--players", "4", "--game", "mixed", "--rate", "4",
                         "--duration", "3", "--seed", "5"]
        let compressed = try await runAgainstServer(arguments + ["--deflate"])
        expectClean(compressed.stats)
        #expect(compressed.stats.unansweredMoves == 0)
        #expect(compressed.exitStatus == 0)
        #expect(compressed.transport.compressedConnections == compressed.stats.connectsOpened)
        // Patches are compressed once per room with context takeover: far fewer bytes on the wire than in the
        // messages the bots read (headers included), where plain frames are always more.
        let inRatio = try #require(compressed.wireToPayloadIn)
        #expect(inRatio < 0.8, "\(inRatio)")
        let plain = try await runAgainstServer(arguments)
        expectClean(plain.stats)
        #expect(plain.transport.compressedConnections == 0)
        #expect(try #require(plain.wireToPayloadIn) > 1, "frame headers")
        #expect(try #require(plain.wireToPayloadOut) > 1, "frame headers and masks")
        let json = compressed.json
        #expect(json["compression"]?["offered"]?.boolValue == true)
        #expect(json["compression"]?["negotiated_connections"]?.intValue == compressed.stats.connectsOpened)
        #expect(json["messages"]?["frame_bytes_in"]?.intValue == compressed.frameBytesIn)
        #expect(json["messages"]?["wire_to_payload_in"]?.doubleValue == inRatio)
        #expect(plain.json["compression"]?["offered"]?.boolValue == false)
        #expect(compressed.summary.contains("of \(compressed.stats.connectsOpened) connections negotiated it"))
    }

    @Test func deflateEchoCompressesBothWays() async throws {
        // /echo compresses per connection both ways; 4 KB of one repeated letter shrinks to a few bytes.
        let report = try await runAgainstServer(["echo", "--connections", "4", "--depth", "2", "--size", "4096",
                                                 "--duration", "1", "--deflate"])
        expectClean(report.stats)
        #expect(report.stats.echoReceived == report.stats.echoSent)
        #expect(report.stats.echoReceived > 0)
        #expect(report.transport.compressedConnections == 4)
        #expect(try #require(report.wireToPayloadIn) < 0.1)
        #expect(try #require(report.wireToPayloadOut) < 0.1)
        #expect(report.exitStatus == 0)
    }

    @Test func deflateIdleConnectionsNegotiateAndStayUp() async throws {
        let report = try await runAgainstServer(["idle", "--connections", "10", "--duration", "1", "--deflate"])
        expectClean(report.stats)
        #expect(report.transport.compressedConnections == 10)
        #expect(report.transport.handshakeBytesIn > 0 && report.transport.handshakeBytesOut > 0)
        #expect(report.exitStatus == 0)
    }

    // MARK: Runs that must fail

    @Test func rateLimitedMovesAreProtocolErrorsAndFailTheRun() async throws {
        var limits = GameLimits()
        limits.messagesPerSecond = 2
        limits.messageBurst = 2
        let report = try await runAgainstServer(["play", "--rooms", "1", "--players", "2", "--game", "scramble",
                                                 "--rate", "20", "--duration", "4"], limits: limits)
        #expect(report.stats.protocolErrors["error:rate-limited", default: 0] > 0, "\(report.stats.protocolErrors)")
        #expect(report.exitStatus == 1)
        #expect(report.summary.contains("Result: FAILED"))
    }

    @Test func serverClosingConnectionsIsAnUnexpectedDisconnect() async throws {
        // The server refuses messages over 200 bytes with close code 1009.
        let report = try await runAgainstServer(["echo", "--connections", "3", "--size", "300", "--duration", "1"],
                                                maxMessageBytes: 200)
        #expect(report.stats.unexpectedCloses[1009] == 3, "\(report.stats.unexpectedCloses)")
        #expect(report.exitStatus == 1)
    }

    @Test func refusedConnectionsFailTheRun() async throws {
        // Nothing listens on the port of a server that has just stopped.
        let options = ServerOptions()
        var stopped = options
        stopped.host = "127.0.0.1"
        stopped.port = 0
        let server = try WordRoomsServer(options: stopped)
        let port = server.port
        server.shutdown()
        let report = try await runBots(["idle", "--connections", "3", "--duration", "1", "--url",
                                        "ws://127.0.0.1:\(port)"])
        #expect(report.stats.connectFailureCount == 3, "\(report.stats.connectFailures)")
        #expect(report.exitStatus == 1)
    }

    @Test func jsonReportHasTheSummaryFigures() async throws {
        let report = try await runAgainstServer(["echo", "--connections", "2", "--duration", "1"])
        let json = report.json
        #expect(json["echo"]?["sent"]?.intValue == report.stats.echoSent)
        #expect(json["echo"]?["round_trip"]?["p99_us"]?.intValue == Int(report.stats.echoRoundTrip.value(atPercentile: 99)))
        #expect(json["exit_status"]?.intValue == 0)
        #expect(json["server"]?["start"]?["source"]?.stringValue == "/metrics")
    }
}

/// A run without protocol errors, unexpected closes or failed connections.
private func expectClean(_ stats: BotStats, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(stats.protocolErrors.isEmpty, "\(stats.protocolErrors)", sourceLocation: sourceLocation)
    #expect(stats.unexpectedCloses.isEmpty, "\(stats.unexpectedCloses)", sourceLocation: sourceLocation)
    #expect(stats.connectFailures.isEmpty, "\(stats.connectFailures)", sourceLocation: sourceLocation)
}

