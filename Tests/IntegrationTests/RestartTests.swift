#if canImport(Glibc)
import Glibc
#endif
import Foundation
import JSON
import Testing
@testable import WordRoomsServer

/// Games survive restarts: a graceful stop writes a snapshot, a crash is covered by the journal, and damaged
/// files are reported without stopping the server from starting.
@Suite struct RestartTests {
    static func temporaryDirectory() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wordrooms-data-\(UUID().uuidString)").path
        return path
    }

    /// Resumes `client`'s seat on a new connection with its token and seq.
    static func resume(_ client: GameClient, port: Int) throws -> GameClient {
        let again = try GameClient(port: port)
        again.state = client.state
        again.seq = client.seq
        try again.send(["type": "join", "code": JSONValue(client.code!), "token": JSONValue(client.token!),
                        "seq": JSONValue(client.seq)])
        try again.receive { $0["type"]?.stringValue == "welcome" || $0["type"]?.stringValue == "error" }
        return again
    }

    @Test func gameInProgressSurvivesAGracefulRestart() async throws {
        let data = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        var options = loopbackServerOptions()
        options.dataDirectory = data
        let first = try WordRoomsServer(options: options)
        let (ana, bob) = try await onThread { () -> (Unchecked<GameClient>, Unchecked<GameClient>) in
            let ana = try GameClient.create(port: first.port, game: "snowman", name: "Ana")
            let bob = try GameClient.join(port: first.port, code: ana.code!, name: "Bob")
            try ana.waitForSeq(bob.seq)
            for letter in ["e", "t"] {
                let mover = ana.snowman["turn"]?.stringValue == "p1" ? ana : bob
                try mover.send(["type": "guess", "letter": JSONValue(letter)])
                try ana.waitForSeq(ana.seq + 1)
                try bob.waitForSeq(ana.seq)
            }
            first.shutdown()
            // Both were told the server is going away.
            for client in [ana, bob] {
                var code: UInt16?
                while code == nil {
                    let frame = try client.socket.readFrame()
                    if frame.opcode == 0x8 { code = frame.closeCode }
                }
                #expect(code == 1001)
            }
            return (Unchecked(value: ana), Unchecked(value: bob))
        }
        let second = try WordRoomsServer(options: options)
        try await onThread {
            defer { second.shutdown() }
            let guessesBefore = ana.value.snowman["guesses"]?.arrayValue?.count
            let newAna = try Self.resume(ana.value, port: second.port)
            let newBob = try Self.resume(bob.value, port: second.port)
            #expect(newAna.you == "p1")
            #expect(newBob.you == "p2")
            try newAna.waitForSeq(newBob.seq)
            try newBob.waitForSeq(newAna.seq)
            #expect(newAna.snowman["guesses"]?.arrayValue?.count == guessesBefore)
            try GameSocketTests.playSnowman([newAna, newBob])
            try GameSocketTests.expectConsistent([newAna, newBob])
        }
    }
}

/// The server as a separate process, for crash tests (kill -9) and damaged data files.
final class ServerProcess {
    let process: ChildProcess
    let port: Int

    init(arguments: [String]) throws {
        process = try ChildProcess(executable: CommandLineTests.executable.path,
                                   arguments: ["--host", "127.0.0.1", "--port", "0", "--threads", "2"] + arguments)
        let text = String(decoding: process.readFirstLine(), as: UTF8.self)
        guard let range = text.range(of: #"127\.0\.0\.1:(\d+)/"#, options: .regularExpression) else {
            throw TestClient.Failure(description: "no start line: \(text)")
        }
        port = Int(text[range].dropFirst("127.0.0.1:".count).dropLast())!
    }

    func kill9() {
        process.signal(SIGKILL)
        process.waitForExit()
    }

    func stop() -> String {
        process.signal(SIGINT)
        process.waitForExit()
        return String(decoding: process.errors.readDataToEndOfFile(), as: UTF8.self)
    }
}

@Suite struct CrashTests {
    /// Runs `body` on a thread with the path of a fresh data directory for `ServerProcess`es, removed afterwards.
    private func withDataDirectory(_ body: @escaping @Sendable (String) throws -> Void) async throws {
        let data = RestartTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        try await onThread { try body(data) }
    }

    @Test func journalBringsBackAGameAfterKill9() async throws {
        try await withDataDirectory { data in
            let first = try ServerProcess(arguments: ["--data", data])
            let ana = try GameClient.create(port: first.port, game: "snowman", name: "Ana")
            try ana.send(["type": "chat", "text": "before the crash"])
            try ana.send(["type": "guess", "letter": "e"])
            try ana.waitForSeq(ana.seq + 2)
            // The journal is flushed every 100 ms and fsynced on the next flush: wait past both.
            Thread.sleep(forTimeInterval: 0.5)
            first.kill9()
            let second = try ServerProcess(arguments: ["--data", data])
            defer { _ = second.stop() }
            let back = try RestartTests.resume(ana, port: second.port)
            #expect(back.you == "p1")
            try back.waitForSeq(back.seq)
            #expect(back.state["chat"]?[0]?["text"]?.stringValue == "before the crash")
            #expect(back.snowman["guesses"]?[0]?["letter"]?.stringValue == "E")
            let (seq, state) = try back.freshSnapshot()
            #expect(back.seq == seq)
            #expect(back.state == state)
        }
    }

    @Test func damagedFilesAreReportedAndTheServerStillStarts() async throws {
        try await withDataDirectory { data in
            let first = try ServerProcess(arguments: ["--data", data])
            let ana = try GameClient.create(port: first.port, game: "scramble", name: "Ana")
            _ = first.stop()
            // A snapshot that is not one, and a journal whose last record was torn mid-write.
            try Data("not a snapshot".utf8).write(to: URL(fileURLWithPath: data + "/rooms.snapshot"))
            let journal = try FileHandle(forWritingTo: URL(fileURLWithPath: data + "/rooms.journal"))
            journal.seekToEndOfFile()
            journal.write(Data([200, 0, 0, 0, 1, 2, 3, 4, 5]))
            journal.closeFile()
            let second = try ServerProcess(arguments: ["--data", data])
            let health = try TestClient(port: second.port)
            try health.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try health.readHTTPResponse().status == 200)
            let log = second.stop()
            #expect(log.contains("data: rooms.snapshot (14 bytes) does not start with the WordRooms header"))
            // The start line counts what was skipped and names the copy of the damaged snapshot.
            #expect(log.contains("restored 0 rooms from \(data); skipped 2 damaged records (23 bytes); set aside \(data)/rooms.snapshot.bad-"),
                    "\(log)")
            _ = ana
        }
    }
}
