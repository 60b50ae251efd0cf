import Testing
import WebSocket
@testable import WordRoomsServer

/// The admin endpoints' gate: 401 without the right token, and 429 for an address that keeps guessing.
@Suite struct AdminGateTests {
    private let gate = AdminGate(token: try! AdminToken(parsing: "right-token-right-token"))
    private let path = "/admin/api/rooms"

    private func request(_ token: String?, path: String? = nil) -> HTTPRequestHead {
        HTTPRequestHead(method: "GET", target: path ?? self.path,
                        headers: token.map { [("Authorization", "Bearer \($0)")] } ?? [])
    }

    private func status(_ token: String?, from address: String, at now: Double) -> Int? {
        gate.refusal(request(token), from: address, socketPath: "/admin/ws", now: now)?.status
    }

    @Test func theRightTokenPassesAndOthersGet401() {
        #expect(status("right-token-right-token", from: "203.0.113.9", at: 0) == nil)
        #expect(status("wrong-token-wrong-token", from: "203.0.113.9", at: 0) == 401)
        #expect(status(nil, from: "203.0.113.9", at: 0) == 401)
        let socket = HTTPRequestHead(method: "GET", target: "/admin/ws?token=right-token-right-token", headers: [])
        #expect(gate.refusal(socket, from: "203.0.113.9", socketPath: "/admin/ws", now: 0) == nil)
    }

    @Test func anAddressThatKeepsGuessingIsRefusedEvenTheRightToken() {
        let guesser = "203.0.113.9"
        for attempt in 0..<Int(AdminGate.wrongTokenBurst) {
            #expect(status("guess-number-\(attempt)-xxxxxx", from: guesser, at: 1) == 401, "guess \(attempt)")
        }
        #expect(status("one-guess-too-many-xxxxx", from: guesser, at: 1) == 429)
        // Letting the right one through would tell a guesser each wrong guess as fast as before.
        let refused = gate.refusal(request("right-token-right-token"), from: guesser, socketPath: "/admin/ws", now: 1)
        #expect(refused?.status == 429)
        #expect(refused?.headers.contains { $0.0 == "Retry-After" } == true)
        // Another address is not held back, and asking without a token is not a guess.
        #expect(status("right-token-right-token", from: "198.51.100.4", at: 1) == nil)
        #expect(status(nil, from: "198.51.100.4", at: 1) == 401)
        // One try comes back every 1 / wrongTokensPerSecond seconds.
        let later = 1 + 1 / AdminGate.wrongTokensPerSecond
        #expect(status("right-token-right-token", from: guesser, at: later) == nil)
        #expect(status("wrong-again-wrong-again", from: guesser, at: later) == 401)
        #expect(status("wrong-again-wrong-again", from: guesser, at: later) == 429)
    }

    @Test func loopbackIsNotLimited() {
        for attempt in 0..<30 {
            #expect(status("guess-number-\(attempt)-xxxxxx", from: "127.0.0.1", at: 0) == 401)
        }
        #expect(status("right-token-right-token", from: "127.0.0.1", at: 0) == nil)
    }
}
