import Testing
import WebSocket
@testable import Transport

@Suite struct ConnectionMachineTests {
    typealias Action = ConnectionMachine.Action

    static let timeouts = ConnectionMachine.Timeouts(request: 10_000, pingInterval: 30_000, pong: 20_000, close: 3_000)
    static let limit = 4 << 20
    /// A request's response, as the loop would have serialized it.
    static let response: [UInt8] = Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".utf8)
    /// The 101 of an accepted upgrade.
    static let switching: [UInt8] = Array("HTTP/1.1 101 Switching Protocols\r\n\r\n".utf8)

    static func accepted(at now: UInt64 = 1_000) -> ConnectionMachine {
        ConnectionMachine(acceptedAt: now, timeouts: timeouts, outboundLimit: limit)
    }

    /// A server connection whose WebSocket opened at `now`.
    static func open(at now: UInt64 = 1_000, extraOutbound: Int = 0) -> ConnectionMachine {
        var machine = accepted(at: now)
        _ = machine.upgrade(response: switching, extraOutbound: extraOutbound)
        return machine
    }

    static func connecting(at now: UInt64 = 1_000) -> ConnectionMachine {
        ConnectionMachine(connectingAt: now, timeouts: timeouts, outboundLimit: limit)
    }

    /// A client connection whose WebSocket opened.
    static func openClient(extraOutbound: Int = 0) -> ConnectionMachine {
        var machine = connecting()
        _ = machine.connected(pendingError: 0, reason: "")
        _ = machine.clientHandshakeCompleted(extraOutbound: extraOutbound)
        return machine
    }

    // MARK: HTTP

    @Test func acceptedConnectionWaitsForARequestHeadWithinTheRequestTimeout() {
        let machine = Self.accepted(at: 1_000)
        #expect(machine.phase == .requestHead)
        #expect(machine.deadline == 11_000)
        #expect(machine.isReachable)
        #expect(!machine.isOpen)
        #expect(!machine.parsesFrames)
    }

    @Test func keepAliveResponseReturnsToTheNextRequestHeadWithAFreshDeadline() {
        var machine = Self.accepted(at: 1_000)
        let actions = machine.respond(Self.response, keepAlive: true, now: 5_000, timeouts: Self.timeouts)
        #expect(actions == [.write(Self.response), .flush])
        #expect(machine.phase == .requestHead)
        #expect(machine.deadline == 15_000)
    }

    @Test func finalResponseClosesOnceWrittenWithFIN() {
        var machine = Self.accepted()
        let actions = machine.respond(Self.response, keepAlive: false, now: 2_000, timeouts: Self.timeouts)
        #expect(actions == [.write(Self.response), .stopParsing, .flush])
        #expect(machine.phase == .closing)
        #expect(machine.deadline == 5_000)
        #expect(machine.flushed(queued: 10, drained: false) == nil)
        #expect(machine.flushed(queued: 0, drained: true) == .shutdownWrite)
        #expect(machine.peerClosed() == [.destroy])
        #expect(machine.phase == .closed)
    }

    @Test func awaitedResponseIsNotTimedOutAndArrivesOnce() {
        var machine = Self.accepted(at: 1_000)
        machine.awaitResponse()
        #expect(machine.phase == .awaitingResponse)
        #expect(machine.tick(now: 1_000_000, timeouts: Self.timeouts, partialRequest: true) == [])
        let arrived = machine.responseArrived()
        #expect(arrived)
        #expect(machine.phase == .requestHead)
        let arrivedAgain = machine.responseArrived()
        #expect(!arrivedAgain)
    }

    @Test func responseArrivingAfterTheConnectionStartedClosingIsDropped() {
        var machine = Self.accepted()
        machine.awaitResponse()
        _ = machine.close(code: .goingAway, reason: "", now: 2_000, timeouts: Self.timeouts)
        let arrived = machine.responseArrived()
        #expect(!arrived)
        #expect(machine.phase == .closing)
    }

    @Test func silentConnectionIsDroppedAtTheRequestDeadline() {
        var machine = Self.accepted(at: 1_000)
        #expect(machine.tick(now: 10_999, timeouts: Self.timeouts, partialRequest: false) == [])
        #expect(machine.tick(now: 11_000, timeouts: Self.timeouts, partialRequest: false)
            == [.count(\.requestTimeouts), .destroy])
        #expect(machine.phase == .closed)
    }

    @Test func halfSentRequestGets408AtTheRequestDeadline() {
        var machine = Self.accepted(at: 1_000)
        let actions = machine.tick(now: 11_000, timeouts: Self.timeouts, partialRequest: true)
        #expect(actions == [.count(\.requestTimeouts), .write(ConnectionMachine.requestTimeoutResponse), .stopParsing,
                            .flush])
        #expect(String(decoding: ConnectionMachine.requestTimeoutResponse, as: UTF8.self)
            .hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
        #expect(machine.phase == .closing)
    }

    @Test func closingAnHTTPConnectionFlushesAndCloses() {
        var machine = Self.accepted()
        #expect(machine.close(code: .normalClosure, reason: "", now: 2_000, timeouts: Self.timeouts)
            == [.stopParsing, .flush])
        #expect(machine.phase == .closing)
        #expect(machine.close(code: .normalClosure, reason: "", now: 2_000, timeouts: Self.timeouts) == [])
    }

    // MARK: Upgrade and open

    @Test func upgradeOpensTheWebSocketAndRaisesTheOutboundAllowance() {
        var machine = Self.accepted()
        #expect(machine.upgrade(response: Self.switching, extraOutbound: 65_536)
            == [.count(\.upgrades), .write(Self.switching), .flush])
        #expect(machine.phase == .open)
        #expect(machine.isOpen)
        #expect(machine.parsesFrames)
        #expect(machine.isReachable)
        #expect(machine.outboundLimit == Self.limit + 65_536)
    }

    @Test func peerLeavingWithoutACloseFrameIsReportedWithoutCode() {
        var machine = Self.open()
        #expect(machine.peerClosed() == [.notifyClosed(nil), .destroy])
        #expect(machine.phase == .closed)
        #expect(!machine.isReachable)
        #expect(machine.hangUp() == [])
    }

    @Test func socketErrorOnAnOpenConnectionNotifiesAndDestroys() {
        var machine = Self.open()
        #expect(machine.hangUp() == [.notifyClosed(nil), .destroy])
    }

    // MARK: Pings

    @Test func silentPeerIsPingedAfterTheIntervalThenDroppedAfterThePongTimeout() {
        var machine = Self.open(at: 1_000)
        #expect(machine.tick(now: 30_999, timeouts: Self.timeouts, partialRequest: false) == [])
        #expect(machine.tick(now: 31_000, timeouts: Self.timeouts, partialRequest: false) == [.sendPing, .flush])
        #expect(machine.pingOutstanding)
        #expect(machine.deadline == 51_000)
        // One ping at a time.
        #expect(machine.tick(now: 50_999, timeouts: Self.timeouts, partialRequest: false) == [])
        #expect(machine.tick(now: 51_000, timeouts: Self.timeouts, partialRequest: false)
            == [.count(\.pingTimeouts), .notifyClosed(.goingAway), .destroy])
        #expect(machine.phase == .closed)
    }

    @Test func anyBytesReadAnswerThePingAndRestartTheInterval() {
        var machine = Self.open(at: 1_000)
        _ = machine.tick(now: 31_000, timeouts: Self.timeouts, partialRequest: false)
        machine.read(at: 40_000)
        #expect(!machine.pingOutstanding)
        #expect(machine.tick(now: 60_000, timeouts: Self.timeouts, partialRequest: false) == [])
        #expect(machine.tick(now: 70_000, timeouts: Self.timeouts, partialRequest: false) == [.sendPing, .flush])
    }

    // MARK: Close handshake

    @Test func applicationCloseSendsOursThenWaitsForThePeersBeforeFIN() {
        var machine = Self.open()
        #expect(machine.close(code: .normalClosure, reason: "bye", now: 2_000, timeouts: Self.timeouts)
            == [.sendClose(.normalClosure, reason: "bye"), .notifyClosed(.normalClosure), .flush])
        #expect(machine.phase == .closing)
        #expect(!machine.isOpen)
        #expect(!machine.isReachable)
        // RFC 6455 §7.1.2: the peer's close frame is still read, and no FIN goes out before it.
        #expect(machine.parsesFrames)
        #expect(machine.flushed(queued: 0, drained: true) == nil)
        machine.closeReceived(code: .goingAway)
        #expect(machine.sessionEnded(now: 2_100, timeouts: Self.timeouts) == [.stopParsing, .flush])
        #expect(machine.flushed(queued: 0, drained: true) == .shutdownWrite)
        #expect(machine.peerClosed() == [.destroy])
        // Our code was reported first and stays.
        #expect(machine.closeCode == .normalClosure)
    }

    @Test func failingSendsOursAndReadsNothingMoreNotEvenThePeersClose() {
        var machine = Self.open()
        machine.closeRequested()
        #expect(machine.closePending)
        #expect(machine.fail(code: .policyViolation, reason: "too many messages", now: 2_000, timeouts: Self.timeouts)
            == [.sendClose(.policyViolation, reason: "too many messages"), .stopParsing,
                .notifyClosed(.policyViolation), .flush])
        #expect(!machine.closePending)
        #expect(!machine.parsesFrames)
        // Written out, our side ends at once: the peer's close frame is not awaited.
        #expect(machine.flushed(queued: 0, drained: true) == .shutdownWrite)
        #expect(machine.tick(now: 5_000, timeouts: Self.timeouts, partialRequest: false) == [.destroy])
    }

    @Test func aRequestedCloseHoldsDeliveryUntilItRuns() {
        var machine = Self.open()
        machine.closeRequested()
        #expect(machine.closePending)
        _ = machine.close(code: .normalClosure, reason: "", now: 2_000, timeouts: Self.timeouts)
        #expect(!machine.closePending)
        // Requested once the connection is closing, it holds nothing: the peer's close frame is still awaited.
        machine.closeRequested()
        #expect(!machine.closePending)
    }

    @Test func failingAClosingConnectionIsAClose() {
        var machine = Self.open()
        _ = machine.close(code: .normalClosure, reason: "", now: 2_000, timeouts: Self.timeouts)
        #expect(machine.fail(code: .policyViolation, reason: "", now: 2_001, timeouts: Self.timeouts) == [])
        #expect(machine.closeCode == .normalClosure)
    }

    @Test func closeIsSentOnce() {
        var machine = Self.open()
        _ = machine.close(code: .normalClosure, reason: "", now: 2_000, timeouts: Self.timeouts)
        #expect(machine.close(code: .goingAway, reason: "", now: 2_001, timeouts: Self.timeouts) == [])
        #expect(machine.deadline == 5_000)
    }

    @Test func peerThatNeverAnswersOurCloseIsDroppedAtTheCloseDeadline() {
        var machine = Self.open()
        _ = machine.close(code: .normalClosure, reason: "", now: 2_000, timeouts: Self.timeouts)
        #expect(machine.tick(now: 4_999, timeouts: Self.timeouts, partialRequest: false) == [])
        #expect(machine.tick(now: 5_000, timeouts: Self.timeouts, partialRequest: false) == [.destroy])
    }

    @Test func serverEchoesThePeersCloseAndReportsItsCode() {
        var machine = Self.open()
        machine.closeReceived(code: .goingAway)
        machine.sessionSentClose(code: .goingAway, now: 2_000, timeouts: Self.timeouts)
        #expect(machine.phase == .closing)
        #expect(machine.sessionEnded(now: 2_000, timeouts: Self.timeouts)
            == [.stopParsing, .notifyClosed(.goingAway), .flush])
        #expect(machine.flushed(queued: 0, drained: true) == .shutdownWrite)
    }

    @Test func protocolViolationReportsTheCodeTheSessionSent() {
        var machine = Self.open()
        machine.sessionSentClose(code: .protocolError, now: 2_000, timeouts: Self.timeouts)
        #expect(machine.sessionEnded(now: 2_000, timeouts: Self.timeouts)
            == [.stopParsing, .notifyClosed(.protocolError), .flush])
    }

    /// An empty close frame is echoed with 1000 (RFC 6455 §5.5.1), and the endpoint hears the code of the echo.
    @Test func peerCloseWithoutCodeIsReportedWithTheEchoedCode() {
        var machine = Self.open()
        machine.closeReceived(code: nil)
        machine.sessionSentClose(code: .normalClosure, now: 2_000, timeouts: Self.timeouts)
        #expect(machine.sessionEnded(now: 2_000, timeouts: Self.timeouts)
            == [.stopParsing, .notifyClosed(.normalClosure), .flush])
    }

    @Test func clientEchoingTheServersCloseWaitsForTheServersFIN() {
        var machine = Self.openClient()
        machine.closeReceived(code: .normalClosure)
        machine.sessionSentClose(code: .normalClosure, now: 2_000, timeouts: Self.timeouts)
        #expect(machine.phase == .closing)
        #expect(!machine.parsesFrames)
        #expect(machine.flushed(queued: 0, drained: true) == .shutdownWrite)
        #expect(machine.peerClosed() == [.notifyClosed(.normalClosure), .destroy])
    }

    // MARK: Backpressure and slow consumers

    @Test func readingPausesAtTheHighMarkAndResumesAtTheLowMark() {
        var machine = Self.open()
        #expect(machine.flushed(queued: ConnectionMachine.pauseReadingBytes - 1, drained: false) == nil)
        #expect(!machine.readPaused)
        _ = machine.flushed(queued: ConnectionMachine.pauseReadingBytes, drained: false)
        #expect(machine.readPaused)
        _ = machine.flushed(queued: ConnectionMachine.resumeReadingBytes + 1, drained: false)
        #expect(machine.readPaused)
        _ = machine.flushed(queued: ConnectionMachine.resumeReadingBytes, drained: false)
        #expect(!machine.readPaused)
    }

    @Test func consumerPastTheLimitIsClosedWith1008AndItsBacklogDropped() {
        var machine = Self.open(extraOutbound: 100)
        #expect(!machine.isTooSlow(queued: Self.limit + 100))
        #expect(machine.isTooSlow(queued: Self.limit + 101))
        #expect(machine.slowConsumer(now: 2_000, timeouts: Self.timeouts)
            == [.count(\.slowConsumers), .dropUnsentOutput, .sendClose(.policyViolation,
                reason: "too slow: messages were dropped"), .stopParsing, .notifyClosed(.policyViolation), .flush])
        #expect(machine.phase == .closing)
        // Closing, it may take its time to read the close frame: no second verdict, and FIN once written.
        #expect(!machine.isTooSlow(queued: Self.limit * 2))
        #expect(machine.flushed(queued: 0, drained: true) == .shutdownWrite)
    }

    @Test func slowHTTPClientIsClosedWithoutACloseFrame() {
        var machine = Self.accepted()
        #expect(machine.isTooSlow(queued: Self.limit + 1))
        #expect(machine.slowConsumer(now: 2_000, timeouts: Self.timeouts)
            == [.count(\.slowConsumers), .dropUnsentOutput, .stopParsing, .flush])
    }

    // MARK: Client connections

    @Test func clientConnectsThenHandshakesThenOpens() {
        var machine = Self.connecting()
        #expect(machine.phase == .connecting)
        #expect(machine.isReachable)
        #expect(machine.connected(pendingError: 0, reason: "") == [.flush])
        #expect(machine.phase == .clientHandshake)
        #expect(machine.clientHandshakeCompleted(extraOutbound: 0) == [.count(\.upgrades)])
        #expect(machine.isOpen)
        #expect(machine.close(code: .normalClosure, reason: "", now: 2_000, timeouts: Self.timeouts)
            == [.sendClose(.normalClosure, reason: ""), .notifyClosed(.normalClosure), .flush])
    }

    @Test func clientRepliesMayTakeTheExtraAllowanceLikeAServers() {
        // An Autobahn fuzzingserver case (9.1.6) sends a client 16 MiB and wants it echoed: the echo is queued
        // whole, and must not be taken for a slow consumer.
        let machine = Self.openClient(extraOutbound: 100)
        #expect(!machine.isTooSlow(queued: Self.limit + 100))
        #expect(machine.isTooSlow(queued: Self.limit + 101))
    }

    @Test func refusedConnectIsAFailureNotAClose() {
        var machine = Self.connecting()
        #expect(machine.connected(pendingError: 111, reason: "connect: Connection refused")
            == [.count(\.handshakeFailures), .destroy, .reportFailure("connect: Connection refused")])
        #expect(machine.phase == .closed)
    }

    @Test func badHandshakeResponseIsAFailure() {
        var machine = Self.connecting()
        _ = machine.connected(pendingError: 0, reason: "")
        #expect(machine.clientHandshakeFailed("handshake: no 101")
            == [.count(\.handshakeFailures), .destroy, .reportFailure("handshake: no 101")])
    }

    @Test(arguments: [ConnectionMachine.Phase.connecting, .clientHandshake])
    func handshakeTimesOutAtTheRequestDeadline(_ phase: ConnectionMachine.Phase) {
        var machine = Self.connecting(at: 1_000)
        if phase == .clientHandshake { _ = machine.connected(pendingError: 0, reason: "") }
        #expect(machine.tick(now: 10_999, timeouts: Self.timeouts, partialRequest: false) == [])
        #expect(machine.tick(now: 11_000, timeouts: Self.timeouts, partialRequest: false)
            == [.count(\.handshakeFailures), .destroy, .reportFailure("the opening handshake timed out")])
    }

    @Test func serverHangingUpDuringTheHandshakeIsAFailure() {
        var machine = Self.connecting()
        _ = machine.connected(pendingError: 0, reason: "")
        #expect(machine.peerClosed()
            == [.destroy, .reportFailure("the server closed the connection during the opening handshake")])
    }

    // MARK: Shutdown

    @Test func shutdownClosesOpenWebSocketsWith1001() {
        var machine = Self.open()
        #expect(machine.shutdown(now: 2_000, timeouts: Self.timeouts)
            == [.sendClose(.goingAway, reason: "server shutting down"), .notifyClosed(.goingAway), .flush])
    }

    @Test func shutdownDropsIdleHTTPAndLetsFinishingConnectionsFinish() {
        var idle = Self.accepted()
        #expect(idle.shutdown(now: 2_000, timeouts: Self.timeouts) == [.destroy])
        var awaiting = Self.accepted()
        awaiting.awaitResponse()
        #expect(awaiting.shutdown(now: 2_000, timeouts: Self.timeouts) == [])
        var closing = Self.open()
        _ = closing.close(code: .normalClosure, reason: "", now: 2_000, timeouts: Self.timeouts)
        #expect(closing.shutdown(now: 2_000, timeouts: Self.timeouts) == [])
        var client = Self.connecting()
        #expect(client.shutdown(now: 2_000, timeouts: Self.timeouts)
            == [.destroy, .reportFailure("the event loop shut down")])
    }

    @Test func timeoutsComeFromTheConfigurationInMilliseconds() {
        var configuration = TransportConfiguration()
        configuration.requestTimeoutSeconds = 1.5
        configuration.pingIntervalSeconds = 2
        configuration.pongTimeoutSeconds = 3
        configuration.closeTimeoutSeconds = 0.25
        let timeouts = ConnectionMachine.Timeouts(configuration)
        #expect(timeouts.request == 1_500)
        #expect(timeouts.pingInterval == 2_000)
        #expect(timeouts.pong == 3_000)
        #expect(timeouts.close == 250)
    }
}
