import Foundation
import Synchronization
import Testing
import WordRoomsServer
@testable import Bots

/// The reconnect storm over real sockets, against the server started in this process on an ephemeral port.
/// Serialized: the runs compete for the same two cores otherwise.
@Suite(.serialized) struct AvalancheRunTests {
    @Test func everyBotDroppedByItsClientComesBackAndEveryRoomIsExact() async throws {
        let server = try WordRoomsServer(options: inProcessServerOptions())
        defer { server.shutdown() }
        let report = try await runStorm(["--rooms", "6", "--players", "4", "--drop", "clients", "--drop-after", "1.5",
                                         "--give-up", "20", "--rate", "2", "--seed", "3"], port: server.port)
        let figures = report.figures
        #expect(figures.bots == 24)
        #expect(figures.seated == 24)
        #expect(figures.lost == 24)
        #expect(figures.back == 24)
        #expect(figures.refused == 0)
        #expect(figures.resumeLatency.count == 24)
        #expect(figures.reconnectAttempts >= 24)
        // The server kept every patch the bots missed (a moment's worth): all resumed with patches.
        #expect(figures.resumedWithPatches == 24)
        #expect(figures.rooms.checked == 6)
        #expect(figures.rooms.mismatched == 0)
        #expect(figures.verified == 24)
        #expect(report.stats.protocolErrors.isEmpty)
        #expect(report.stats.moves > 0)
        #expect(report.exitStatus == 0)
    }

    @Test func botsComeBackAcrossARestartOnTheSameData() async throws {
        let data = NSTemporaryDirectory() + "wordrooms-avalanche-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: data) }
        let first = try WordRoomsServer(options: inProcessServerOptions(data: data))
        let port = first.port
        // The server goes away under the bots (a graceful stop) and a new one comes up on the same data.
        let second = Mutex<WordRoomsServer?>(nil)
        let restarted = DispatchSemaphore(value: 0)
        let restart = Thread {
            Thread.sleep(forTimeInterval: 2.5)
            first.shutdown()
            let server = try? WordRoomsServer(options: inProcessServerOptions(data: data, port: port))
            second.withLock { $0 = server }
            restarted.signal()
        }
        restart.start()
        let report = try await runStorm(["--rooms", "4", "--players", "4", "--drop", "server", "--drop-after", "1.5",
                                         "--give-up", "10", "--rate", "2", "--seed", "5"], port: port)
        restarted.wait()
        #expect(second.withLock { $0 != nil }, "the second server started on the same port and data")
        second.withLock { $0?.shutdown() }
        let figures = report.figures
        #expect(figures.seated == 16)
        #expect(figures.lost == 16)
        #expect(figures.back == 16)
        #expect(figures.reconnectFailures > 0, "the server was down for a moment: some attempts were refused")
        #expect(figures.resumedWithPatches + figures.resumedWithState == 16)
        #expect(figures.rooms.checked == 4)
        #expect(figures.rooms.mismatched == 0)
        #expect(report.exitStatus == 0)
    }
}

/// Runs the storm against the server on `port` (see `runOnOwnThread`).
private func runStorm(_ arguments: [String], port: Int) async throws -> AvalancheReport {
    try await runOnOwnThread(["avalanche", "--url", "ws://127.0.0.1:\(port)", "--grace", "3"] + arguments) { options throws(LoadTest.StartError) in
        try AvalancheRun.run(options, log: { _ in })
    }
}
