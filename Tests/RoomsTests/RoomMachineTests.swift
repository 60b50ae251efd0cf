import JSON
@testable import Rooms
import Testing
import WordGames

/// `RoomMachine` driven by hand, without sockets, actors or timers: each test applies inputs at chosen times and
/// reads the effects the machine returns (the links below only name recipients; the machine must never call
/// them itself).
@Suite struct RoomMachineTests {
    static let lists = try! WordLists.bundled()

    /// A link as the machine sees one: an id and an address. Sending or closing through it is a bug (the machine
    /// returns effects instead), recorded as a test failure.
    final class FakeLink: ClientLink {
        let id: UInt64
        let address: String?

        init(_ id: UInt64, address: String? = nil) {
            self.id = id
            self.address = address
        }

        func send(_ message: ServerMessage) {
            Issue.record("the machine sent to link \(id) itself")
        }

        func close(_ reason: CloseReason) {
            Issue.record("the machine closed link \(id) itself")
        }
    }

    /// A Snowman room without a turn timer (its only deadlines are the machine's own), seated by `join`.
    struct Table {
        var machine: RoomMachine
        let ana = FakeLink(1)
        let bob = FakeLink(2)

        init(configuration: RoomConfiguration = RoomConfiguration()) {
            var random = SplitMix64(seed: 7)
            let game = SnowmanRoomGame(game: SnowmanGame(words: RoomMachineTests.lists.secrets, now: 0, using: &random))
            machine = RoomMachine(code: RoomCode("QHTW")!, game: game, isPublic: true, key: nil,
                                  configuration: configuration, seed: 3)
        }

        mutating func apply(_ input: RoomMachine.Input, at now: Double) -> [String] {
            RoomMachineTests.describe(machine.apply(input, now: now))
        }

        mutating func join(_ link: FakeLink, _ name: String, at now: Double = 0) -> [String] {
            apply(.join(.init(link: link, name: name, token: nil, lastSeq: nil, spectator: false, client: nil,
                              entered: { _ in })), at: now)
        }

        mutating func say(_ message: ClientMessage, from link: FakeLink, at now: Double,
                          receivedAt: Double = 0) -> [String] {
            apply(.message(linkID: link.id, message, receivedAt: receivedAt), at: now)
        }

        /// Ana (the host, `p1`) and Bob (`p2`), both connected.
        static func seated(configuration: RoomConfiguration = RoomConfiguration()) -> Table {
            var table = Table(configuration: configuration)
            _ = table.join(table.ana, "Ana")
            _ = table.join(table.bob, "Bob")
            return table
        }

        /// The link of the player who has the turn, and of the other one.
        func turnLinks() throws -> (holder: FakeLink, other: FakeLink) {
            let turn = try #require(machine.game.currentTurn)
            return turn.rawValue == "p1" ? (ana, bob) : (bob, ana)
        }

        var lastChatLine: String? { machine.chat.lines.last?.text }
    }

    /// One line per effect: what it is, to whom, and the `type` (or error code) of its message.
    static func describe(_ effects: [RoomEffect]) -> [String] {
        effects.map { effect in
            switch effect {
            case .send(let link, let message): "send \(link.id) \(kind(message))"
            case .broadcast(let message, let except):
                "broadcast \(kind(message))" + (except.map { " except \($0)" } ?? "")
            case .sendToEach(let message): "send-to-each \(kind(message))"
            case .close(let link, let reason): "close \(link.id) \(reason)"
            case .entered(_, let seated): "entered \(seated)"
            case .observeFanout: "observe-fanout"
            case .save: "save"
            case .saveRestored: "save-restored"
            case .forget(let version): "forget \(version)"
            case .schedule(let seconds): "schedule \(seconds)"
            case .cancelTimer: "cancel-timer"
            case .publishSoon: "publish-soon"
            case .summary: "summary"
            case .disposed: "disposed"
            }
        }
    }

    static func kind(_ message: ServerMessage) -> String {
        let json = try? JSONParser().parse(message.json)
        let type = json?["type"]?.stringValue ?? "?"
        guard type == "error" else { return type }
        return "error:" + (json?["code"]?.stringValue ?? "?")
    }

    static func count(_ prefix: String, in effects: [String]) -> Int {
        effects.filter { $0.hasPrefix(prefix) }.count
    }

    // MARK: Joins

    @Test func joinWelcomesTheJoinerAndPatchesTheOthers() {
        var table = Table()
        let first = table.join(table.ana, "Ana")
        #expect(first.contains("send 1 welcome"))
        #expect(first.last == "entered true")
        let second = table.join(table.bob, "Bob", at: 1)
        #expect(second.filter { $0.hasPrefix("broadcast") } == ["broadcast patch except 2"])
        #expect(second.filter { $0.hasPrefix("send") } == ["send 2 welcome"])
        // The others' patch goes out before the newcomer's welcome, which is written at the patch's seq.
        #expect(second.firstIndex(of: "broadcast patch except 2")! < second.firstIndex(of: "send 2 welcome")!)
        #expect(second.contains("save"))
        #expect(second.last == "entered true")
        #expect(table.machine.membership.members.map(\.id.rawValue) == ["p1", "p2"])
    }

    @Test func joinToADisposedRoomIsRefused() {
        var table = Table.seated()
        var effects: [RoomEffect] = []
        table.machine.dispose(into: &effects)
        #expect(Self.describe(effects) == ["cancel-timer", "disposed", "forget 1"])
        let late = table.join(FakeLink(3), "Cleo", at: 2)
        #expect(late == ["send 3 error:room-not-found", "entered false"])
    }

    // MARK: Moves

    @Test func moveIsOneBroadcastToEveryone() throws {
        var table = Table.seated()
        let (holder, _) = try table.turnLinks()
        let effects = table.say(.guess("e"), from: holder, at: 2, receivedAt: 1.5)
        #expect(Self.count("broadcast", in: effects) == 1)
        #expect(effects.contains("broadcast patch"))
        #expect(Self.count("send", in: effects) == 0)
        #expect(effects.last == "observe-fanout")
        #expect(table.machine.movesPlayed == 1)
    }

    @Test func refusedMoveAnswersTheSenderOnly() throws {
        var table = Table.seated()
        let (_, other) = try table.turnLinks()
        let seqBefore = table.machine.publication.seq
        let effects = table.say(.guess("e"), from: other, at: 2)
        #expect(effects == ["send \(other.id) error:not-your-turn"])
        #expect(table.machine.publication.seq == seqBefore)
    }

    @Test func effectBufferIsReusedAcrossInputs() throws {
        var table = Table.seated()
        let (holder, other) = try table.turnLinks()
        var effects: [RoomEffect] = []
        effects.reserveCapacity(16)
        let capacity = effects.capacity
        table.machine.apply(.message(linkID: holder.id, .guess("e"), receivedAt: 0), now: 2, into: &effects)
        effects.removeAll(keepingCapacity: true)
        table.machine.apply(.message(linkID: other.id, .chat("hi"), receivedAt: 0), now: 3, into: &effects)
        #expect(effects.capacity == capacity)
    }

    // MARK: Seats and heartbeat

    @Test func disconnectKeepsTheSeatAndSetsTheTimerForTheGrace() throws {
        var configuration = RoomConfiguration()
        configuration.resumeGraceSeconds = 60
        var table = Table.seated(configuration: configuration)
        let (_, other) = try table.turnLinks()
        let effects = table.apply(.disconnected(linkID: other.id), at: 5)
        #expect(effects == ["publish-soon", "schedule \(60 + RoomMachine.timerSlack)"])
        let seat = try #require(table.machine.membership.members.first { $0.disconnectedAt != nil })
        #expect(seat.disconnectedAt == 5 && seat.link == nil)
        #expect(table.machine.membership.members.count == 2)
        // The queued publish tells the others.
        var later: [RoomEffect] = []
        table.machine.publishIfQueued(now: 5, into: &later)
        #expect(Self.describe(later).contains("broadcast patch"))
        // Past the grace, the seat goes.
        let expired = table.apply(.tick, at: 66)
        #expect(expired.contains("broadcast patch"))
        #expect(table.machine.membership.members.count == 1)
        #expect(table.lastChatLine?.hasSuffix("left") == true)
    }

    @Test func heartbeatSilenceClosesTheLink() {
        var table = Table.seated()
        let heard = table.apply(.heard(linkID: table.bob.id), at: 10)
        #expect(heard == ["schedule \(RoomConfiguration().silenceSeconds + RoomMachine.timerSlack)"])
        let quiet = table.apply(.tick, at: 10 + RoomConfiguration().silenceSeconds + 1)
        #expect(quiet.contains("close 2 silent"))
        #expect(quiet.contains("broadcast patch"))
        #expect(table.machine.membership.members[1].linkID == nil)
        #expect(table.machine.membership.members.count == 2)
    }

    // MARK: Host controls

    @Test func hostKickClosesAndBans() {
        var table = Table.seated()
        let token = table.machine.membership.members[1].token
        let effects = table.say(.kick(player: "p2"), from: table.ana, at: 3)
        #expect(effects.prefix(2) == ["send 2 error:kicked", "close 2 removedByHost"])
        #expect(Self.count("broadcast", in: effects) == 1)
        #expect(table.machine.hostControls.bans.map(\.name) == ["Bob"])
        let back = table.apply(.join(.init(link: FakeLink(4), name: nil, token: token, lastSeq: nil, spectator: false,
                                           client: nil)), at: 4)
        #expect(back == ["send 4 error:kicked"])
    }

    @Test func onlyTheHostKicks() {
        var table = Table.seated()
        let effects = table.say(.kick(player: "p1"), from: table.bob, at: 3)
        #expect(effects == ["send 2 error:host-only"])
        #expect(table.machine.hostControls.bans.isEmpty)
    }

    // MARK: Chat

    @Test func chatSpendsTheBroadcastBudget() {
        var configuration = RoomConfiguration()
        // A burst of 800 bytes: one 100-character line to two members costs (100 + overhead) x 2.
        configuration.chatBudgetBytesPerSecond = 400
        var table = Table.seated(configuration: configuration)
        let line = String(repeating: "a", count: 100)
        let first = table.say(.chat(line), from: table.ana, at: 1)
        #expect(Self.count("broadcast", in: first) == 1)
        let second = table.say(.chat(line), from: table.ana, at: 1)
        #expect(second == ["send 1 error:room-busy"])
        // The bucket refills with time.
        let later = table.say(.chat(line), from: table.ana, at: 3)
        #expect(Self.count("broadcast", in: later) == 1)
    }

    @Test func reactionGoesOutsideTheState() {
        var table = Table.seated()
        let seq = table.machine.publication.seq
        let effects = table.say(.react(emoji: "🎉"), from: table.bob, at: 1)
        #expect(effects == ["send-to-each reaction"])
        #expect(table.machine.publication.seq == seq)
    }

    // MARK: Turns

    @Test func awayTurnPassesOnTick() throws {
        var table = Table.seated()
        let (holder, _) = try table.turnLinks()
        let away = try #require(table.machine.game.currentTurn)
        let left = table.apply(.disconnected(linkID: holder.id), at: 1)
        let awaySeconds = RoomConfiguration().awayTurnSeconds
        #expect(left.contains("schedule \(awaySeconds + RoomMachine.timerSlack)"))
        let passed = table.apply(.tick, at: 1 + awaySeconds + 0.01)
        #expect(table.machine.game.currentTurn != away)
        #expect(table.lastChatLine?.hasSuffix("turn was skipped: disconnected") == true)
        #expect(Self.count("broadcast", in: passed) == 1)
    }
}
