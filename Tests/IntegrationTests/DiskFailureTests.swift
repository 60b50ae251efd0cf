#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import Rooms
import Synchronization
import Testing
@testable import WordRoomsServer

/// A disk whose writes fail with ENOSPC while `full` is set, as a full data volume does.
final class FullDisk: JournalDisk {
    let full = Atomic<Bool>(false)

    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        guard full.load(ordering: .relaxed) else { return Glibc.write(fd, bytes.baseAddress, bytes.count) }
        errno = ENOSPC
        return -1
    }

    func fsync(_ fd: Int32) -> Int32 {
        Glibc.fsync(fd)
    }
}

/// While rooms cannot be saved, `/readyz` answers 503 (a load balancer sends new players elsewhere) and
/// `/metrics` counts the failures; once writing works again the server is ready again.
@Suite struct DiskFailureTests {
    static func get(_ path: String, port: Int) throws -> (status: Int, body: String) {
        let client = try TestClient(port: port)
        try client.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try client.readHTTPResponse()
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }

    /// `/readyz` until it answers `status` (at most `attempts` times, 100 ms apart).
    static func readiness(becomes status: Int, port: Int, attempts: Int = 100) throws -> String {
        var response = try get("/readyz", port: port)
        var left = attempts
        while response.status != status, left > 0 {
            Thread.sleep(forTimeInterval: 0.1)
            response = try get("/readyz", port: port)
            left -= 1
        }
        return response.body
    }

    @Test func readinessFailsWhileSavingFailsAndRecovers() async throws {
        let data = RestartTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        var options = loopbackServerOptions()
        options.dataDirectory = data
        let disk = FullDisk()
        let server = try WordRoomsServer(options: options, disk: disk)
        try await onThread {
            defer { server.shutdown() }
            let ana = try GameClient.create(port: server.port, game: "snowman", name: "Ana")
            #expect(try Self.get("/readyz", port: server.port) == (200, "ready\n"))
            disk.full.store(true, ordering: .relaxed)
            try ana.send(["type": "chat", "text": "after the disk filled"])
            try ana.waitForSeq(ana.seq + 1)
            let refusal = try Self.readiness(becomes: 503, port: server.port)
            #expect(refusal.hasPrefix("saving rooms fails: No space left on device (ENOSPC) for "), "\(refusal)")
            #expect(refusal.hasSuffix("; 1 room not saved\n"), "\(refusal)")
            let metrics = try Self.get("/metrics", port: server.port).body
            #expect(metrics.contains("\nwordrooms_journal_failing 1\n"))
            #expect(!metrics.contains("\nwordrooms_journal_write_failures_total 0\n"))
            disk.full.store(false, ordering: .relaxed)
            let ready = try Self.readiness(becomes: 200, port: server.port)
            #expect(ready == "ready\n")
        }
        // What the player saw is what a restart brings back.
        let again = try RoomJournal(directory: data, log: { _ in })
        defer { again.stop() }
        #expect(again.loadForRestore().count == 1)
    }
}
