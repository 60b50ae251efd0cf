import Foundation
import Testing
import Transport
@testable import WordRoomsServer

/// A graceful stop tells every client (close 1001) and then does not wait long for one that never answers: a
/// restart waits for the old process to exit, and with it every player who did answer.
@Suite struct ShutdownTests {
    /// The overall shutdown bound and the usual close timeout are ten minutes here, so only the shutdown's own
    /// close timeout can let the silent client go within the test's time limit.
    @Test(.timeLimit(.minutes(1))) func aClientThatNeverAnswersTheCloseIsLetGoAfterTheShutdownCloseTimeout()
        async throws {
        var options = loopbackServerOptions(threads: 1)
        options.benchEcho = true
        let server = try WordRoomsServer(options: options, transport: { configuration in
            configuration.shutdownTimeoutSeconds = 600
            configuration.closeTimeoutSeconds = 600
            configuration.shutdownCloseTimeoutSeconds = 0.2
        })
        try await onThread {
            let silent = try TestClient.webSocket(port: server.port)
            let answering = try TestClient.webSocket(port: server.port)
            let answered = DispatchSemaphore(value: 0)
            let peer = Unchecked(value: answering)
            let reader = Thread {
                if let frame = try? peer.value.readFrame(), frame.opcode == 0x8 {
                    try? peer.value.sendFrame(.close, frame.payload)
                }
                answered.signal()
            }
            reader.start()
            // Blocks until the loop is done: the silent client reads nothing meanwhile.
            server.shutdown()
            answered.wait()
            let close = try silent.readFrame()
            #expect(close.opcode == 0x8)
            #expect(close.closeCode == 1001, "told first")
            #expect(silent.waitForEOF(), "then the server closed the connection")
            #expect(answering.waitForEOF())
        }
    }
}
