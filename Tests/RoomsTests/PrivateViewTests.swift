import JSON
@testable import Rooms
import RoomsTestSupport
import Testing
import WordGames

/// Per-player private views, decided by `RoomMachine` without sockets: a test game (`SecretHandsGame`, never
/// registered) deals each player a hand only they may see. Each test reads the messages every link would get
/// (as `Room` would deliver the machine's effects) and looks in their raw JSON for anyone else's secret.
@Suite struct PrivateViewTests {
    typealias HandsRoomGame = PluginRoomGame<SecretHandsGame>
    static let lists = try! WordLists.bundled()

    /// A link as the machine sees one: an id. Sending through it is a bug (the machine returns effects).
    final class FakeLink: ClientLink {
        let id: UInt64
        init(_ id: UInt64) { self.id = id }
        func send(_ message: ServerMessage) { Issue.record("the machine sent to link \(id) itself") }
        func close(_ reason: CloseReason) { Issue.record("the machine closed link \(id) itself") }
    }

    /// One message as a link gets it: its raw JSON, and whether it went outside the broadcast stream.
    struct Delivered {
        var text: String
        var outsideStream: Bool
        var json: JSONValue { try! JSONParser().parse(Array(text.utf8)) }
        var type: String? { json["type"]?.stringValue }
    }

    /// A room of the test game, with Ana (`p1`, host), Bob (`p2`) and Cleo watching (`s3`), all connected.
    struct Table {
        var machine: RoomMachine
        let ana = FakeLink(1), bob = FakeLink(2), cleo = FakeLink(3)
        /// Everything each link got so far, in order.
        var inbox: [UInt64: [Delivered]] = [:]
        var now = 0.0

        init(game: some RoomGame = HandsRoomGame(game: SecretHandsGame()), seat: Bool = true) {
            machine = RoomMachine(code: RoomCode("QHTW")!, game: game, isPublic: true, key: nil,
                                  configuration: RoomConfiguration(), seed: 3)
            guard seat else { return }
            join(ana, "Ana")
            join(bob, "Bob")
            join(cleo, "Cleo", spectator: true)
        }

        /// Applies `input` and delivers its effects as `Room` would: a broadcast to every connected member but
        /// the one excepted (through the room's audience, the shared stream), a send to its link (outside it). A queued publish runs at once.
        mutating func apply(_ input: RoomMachine.Input) {
            now += 1
            var effects = machine.apply(input, now: now)
            while !effects.isEmpty {
                var again: [RoomEffect] = []
                for effect in effects {
                    switch effect {
                    // A message for one member never travels in the room's shared (compressed) stream.
                    case .send(let link, let message): deliver(message, to: link.id, outside: true)
                    case .broadcast(let message, let except):
                        for member in machine.membership.members {
                            if let link = member.link, link.id != except { deliver(message, to: link.id, outside: false) }
                        }
                    case .sendToEach(let message):
                        for member in machine.membership.members {
                            if let link = member.link { deliver(message, to: link.id, outside: true) }
                        }
                    case .publishSoon: machine.publishIfQueued(now: now, into: &again)
                    default: break
                    }
                }
                effects = again
            }
        }

        private mutating func deliver(_ message: ServerMessage, to id: UInt64, outside: Bool) {
            inbox[id, default: []].append(Delivered(text: String(decoding: message.json, as: UTF8.self),
                                                    outsideStream: outside))
        }

        mutating func join(_ link: FakeLink, _ name: String?, spectator: Bool = false, token: ResumeToken? = nil,
                           lastSeq: Int? = nil) {
            apply(.join(.init(link: link, name: name, token: token, lastSeq: lastSeq, spectator: spectator,
                              client: nil)))
        }

        mutating func say(_ message: ClientMessage, from link: FakeLink) {
            apply(.message(linkID: link.id, message, receivedAt: 0))
        }

        /// What `link` got since the last call.
        mutating func drain(_ link: FakeLink) -> [Delivered] {
            defer { inbox[link.id] = [] }
            return inbox[link.id] ?? []
        }

        func token(of id: String) -> ResumeToken {
            machine.membership.members.first { $0.id.rawValue == id }!.token
        }
    }

    static func hand(_ id: String, _ name: String, deal: Int) -> JSONValue {
        try! JSONValueEncoder(writesNilMembers: true).encode(SecretHandsGame.hand(of: PlayerID(id), name: name,
                                                                                   deal: deal))
    }

    /// `view` with the operations of every `private` message in `messages` applied, in order.
    static func applyingPrivate(_ messages: [Delivered], to view: JSONValue) throws -> JSONValue {
        var view = view
        for message in messages where message.type == "private" {
            try JSONPatch(json: message.json["ops"]!).apply(to: &view)
        }
        return view
    }

    /// Nothing `link` got holds a hand but its own player's (`own`, nil for a spectator).
    static func expectNoOtherSecrets(_ messages: [Delivered], own: String?,
                                     sourceLocation: SourceLocation = #_sourceLocation) {
        for message in messages {
            for id in ["p1", "p2", "p3", "s3"] where id != own {
                #expect(!message.text.contains("hand-\(id)-"), "\(message.text)", sourceLocation: sourceLocation)
            }
        }
    }

    // MARK: Welcome

    @Test func eachWelcomeCarriesOnlyTheJoinersOwnPrivateView() throws {
        var table = Table()
        let ana = table.drain(table.ana), bob = table.drain(table.bob), cleo = table.drain(table.cleo)
        let anaWelcome = try #require(ana.first { $0.type == "welcome" })
        let bobWelcome = try #require(bob.first { $0.type == "welcome" })
        let cleoWelcome = try #require(cleo.first { $0.type == "welcome" })
        #expect(anaWelcome.json["private"] == Self.hand("p1", "Ana", deal: 0))
        #expect(bobWelcome.json["private"] == Self.hand("p2", "Bob", deal: 0))
        #expect(cleoWelcome.json["private"] == nil)
        Self.expectNoOtherSecrets(ana, own: "p1")
        Self.expectNoOtherSecrets(bob, own: "p2")
        Self.expectNoOtherSecrets(cleo, own: nil)
        // A newcomer's welcome is their view: no `private` message for it, before or after.
        #expect(!ana.contains { $0.type == "private" } && !bob.contains { $0.type == "private" })
        #expect(!cleo.contains { $0.type == "private" })
    }

    // MARK: Changes

    @Test func privateOperationsFollowThePatchAndAreTheDiffOfTheView() throws {
        var table = Table()
        _ = (table.drain(table.ana), table.drain(table.bob), table.drain(table.cleo))
        let seq = table.machine.publication.seq
        table.say(.newGame, from: table.ana)
        for (link, id, name) in [(table.ana, "p1", "Ana"), (table.bob, "p2", "Bob")] {
            let got = table.drain(link)
            #expect(got.map(\.type) == ["patch", "private"])
            #expect(got.last?.outsideStream == true)
            #expect(try Self.applyingPrivate(got, to: Self.hand(id, name, deal: 0)) == Self.hand(id, name, deal: 1))
            Self.expectNoOtherSecrets(got, own: id)
        }
        let cleo = table.drain(table.cleo)
        #expect(cleo.map(\.type) == ["patch"])
        Self.expectNoOtherSecrets(cleo, own: nil)
        // One change, one seq: the private operations are not in the history.
        #expect(table.machine.publication.seq == seq + 1)
        let history = try #require(table.machine.publication.history.messages(after: seq,
                                                                              lastSeq: table.machine.publication.seq))
        #expect(history.allSatisfy { !String(decoding: $0.json, as: UTF8.self).contains("hand-") })
    }

    @Test func aRenameChangesOnlyThatPlayersPrivateView() throws {
        var table = Table()
        _ = (table.drain(table.ana), table.drain(table.bob), table.drain(table.cleo))
        table.say(.rename(name: "Anna"), from: table.ana)
        let ana = table.drain(table.ana)
        #expect(ana.map(\.type) == ["patch", "private"])
        #expect(try Self.applyingPrivate(ana, to: Self.hand("p1", "Ana", deal: 0)) == Self.hand("p1", "Anna", deal: 0))
        #expect(table.drain(table.bob).map(\.type) == ["patch"])
    }

    @Test func privateOperationsGoAloneWhenOnlyPrivateViewsChanged() throws {
        var table = Table()
        _ = (table.drain(table.ana), table.drain(table.bob), table.drain(table.cleo))
        let seq = table.machine.publication.seq
        table.say(.settings(["reverse": 1]), from: table.ana)
        #expect(table.machine.publication.seq == seq)
        for (link, id, name) in [(table.ana, "p1", "Ana"), (table.bob, "p2", "Bob")] {
            let got = table.drain(link)
            #expect(got.map(\.type) == ["private"])
            var reversed = SecretHandsGame.hand(of: PlayerID(id), name: name, deal: 0)
            reversed.letters.reverse()
            let expected = try JSONValueEncoder(writesNilMembers: true).encode(reversed)
            #expect(try Self.applyingPrivate(got, to: Self.hand(id, name, deal: 0)) == expected)
        }
        #expect(table.drain(table.cleo).isEmpty)
    }

    @Test func aChatLineLeavesPrivateViewsAlone() {
        var table = Table()
        _ = (table.drain(table.ana), table.drain(table.bob), table.drain(table.cleo))
        table.say(.chat("hi"), from: table.bob)
        #expect(table.drain(table.ana).map(\.type) == ["patch"])
        #expect(table.drain(table.bob).map(\.type) == ["patch"])
    }

    // MARK: Seats and departures

    @Test func aPlayerWhoBecomesASpectatorLosesTheirPrivateViewAndGetsItBackWhenSeated() throws {
        var table = Table()
        _ = (table.drain(table.ana), table.drain(table.bob), table.drain(table.cleo))
        table.say(.seat(role: .spectator, player: nil), from: table.bob)
        let watching = table.drain(table.bob)
        #expect(watching.map(\.type) == ["patch", "private"])
        #expect(try Self.applyingPrivate(watching, to: Self.hand("p2", "Bob", deal: 0)) == .null)
        #expect(watching.last?.json["ops"] == [["op": "replace", "path": "", "value": .null]])
        // Watching, Bob hears of no deal.
        table.say(.newGame, from: table.ana)
        #expect(table.drain(table.bob).map(\.type) == ["patch"])
        table.say(.seat(role: .player, player: nil), from: table.bob)
        let seated = table.drain(table.bob)
        #expect(seated.map(\.type) == ["patch", "private"])
        #expect(try Self.applyingPrivate(seated, to: .null) == Self.hand("p2", "Bob", deal: 1))
        Self.expectNoOtherSecrets(seated, own: "p2")
    }

    @Test func aSpectatorGetsNoPrivateViewEvenWhenTheGameStillHasOne() throws {
        var table = Table(game: HandsRoomGame(game: SecretHandsGame(keepsHandsOfLeavers: true)))
        _ = (table.drain(table.ana), table.drain(table.bob), table.drain(table.cleo))
        table.say(.seat(role: .spectator, player: nil), from: table.bob)
        let game = try #require(table.machine.game as? HandsRoomGame)
        #expect(game.game.privateView(for: "p2") != nil, "the game still has Bob's hand")
        let watching = table.drain(table.bob)
        #expect(watching.last?.json["ops"] == [["op": "replace", "path": "", "value": .null]])
        table.say(.rename(name: "Bobby"), from: table.bob)
        table.say(.resync, from: table.bob)
        let later = table.drain(table.bob)
        #expect(later.map(\.type) == ["patch", "snapshot"])
        #expect(later.last?.json["private"] == nil)
        Self.expectNoOtherSecrets(later, own: nil)
    }

    @Test func aPlayerWhoLeavesOrIsKickedGetsNothingMore() {
        var table = Table()
        table.say(.leave, from: table.bob)
        table.say(.kick(player: "s3"), from: table.ana)
        _ = (table.drain(table.ana), table.drain(table.bob), table.drain(table.cleo))
        table.say(.newGame, from: table.ana)
        #expect(table.drain(table.bob).isEmpty)
        #expect(table.drain(table.cleo).isEmpty)
        #expect(table.drain(table.ana).map(\.type) == ["patch", "private"])
        #expect(Array(table.machine.publication.privateViews.kept.keys) == [PlayerID("p1")])
    }

    // MARK: Resume, resync, restart

    @Test func aResumedWelcomeBringsTheWholePrivateViewBack() throws {
        var table = Table()
        table.apply(.disconnected(linkID: table.bob.id))
        let seq = table.machine.publication.seq
        table.say(.newGame, from: table.ana)
        #expect(table.machine.publication.privateViews.kept[PlayerID("p2")] == nil)
        _ = table.drain(table.bob)
        let again = FakeLink(4)
        table.join(again, nil, token: table.token(of: "p2"), lastSeq: seq)
        let got = table.drain(again)
        let welcome = try #require(got.first)
        #expect(welcome.type == "welcome" && welcome.json["resumed"] == true)
        #expect(welcome.json["private"] == Self.hand("p2", "Bob", deal: 1))
        #expect(!got.contains { $0.type == "private" })
        Self.expectNoOtherSecrets(got, own: "p2")
        // And the next change is diffed from there.
        table.say(.newGame, from: table.ana)
        #expect(try Self.applyingPrivate(table.drain(again), to: Self.hand("p2", "Bob", deal: 1))
                == Self.hand("p2", "Bob", deal: 2))
    }

    @Test func aSnapshotCarriesThePlayersPrivateViewAndNoneForSpectators() throws {
        var table = Table()
        table.say(.newGame, from: table.ana)
        _ = (table.drain(table.bob), table.drain(table.cleo))
        table.say(.resync, from: table.bob)
        table.say(.resync, from: table.cleo)
        let bob = try #require(table.drain(table.bob).first)
        #expect(bob.type == "snapshot" && bob.json["private"] == Self.hand("p2", "Bob", deal: 1))
        let cleo = try #require(table.drain(table.cleo).first)
        #expect(cleo.type == "snapshot" && cleo.json["private"] == nil)
        #expect(!cleo.text.contains("hand-"))
    }

    @Test func aRestoredRoomRecomputesPrivateViewsFromTheGame() throws {
        var table = Table()
        table.say(.newGame, from: table.ana)
        let record = table.machine.record(version: 1)
        let saved = try RoomRecord(saved: record.json, format: JournalEntry.format)
        var restored = Table(game: try HandsRoomGame(snapshot: saved.snapshot, lists: Self.lists), seat: false)
        var effects: [RoomEffect] = []
        try restored.machine.restore(from: saved, now: 10, into: &effects)
        restored.now = 10
        let again = FakeLink(5)
        restored.join(again, nil, token: table.token(of: "p1"), lastSeq: saved.seq)
        let welcome = try #require(restored.drain(again).first)
        #expect(welcome.json["private"] == Self.hand("p1", "Ana", deal: 1))
        restored.say(.newGame, from: again)
        #expect(try Self.applyingPrivate(restored.drain(again), to: Self.hand("p1", "Ana", deal: 1))
                == Self.hand("p1", "Ana", deal: 2))
    }

    // MARK: Games without private views

    @Test func gamesWithoutPrivateViewsKeepAndSendNothingPerPlayer() throws {
        #expect(!SnowmanRoomGame.hasPrivateViews && !ScrambleRoomGame.hasPrivateViews)
        #expect(HandsRoomGame.hasPrivateViews)
        var random = SplitMix64(seed: 7)
        var table = Table(game: SnowmanRoomGame(game: SnowmanGame(words: Self.lists.secrets, now: 0, using: &random)))
        table.say(.resync, from: table.bob)
        for link in [table.ana, table.bob, table.cleo] {
            #expect(!table.drain(link).contains { $0.json["private"] != nil || $0.type == "private" })
        }
        #expect(!table.machine.publication.privateViews.enabled)
        #expect(table.machine.publication.privateViews.kept.isEmpty)
    }

    // MARK: The adapter

    @Test func privateOperationsGiveTheNewViewFromTheOld() throws {
        var adapter = HandsRoomGame(game: SecretHandsGame())
        var kept: AnyObject?
        #expect(adapter.privateState(for: "p1", kept: &kept) == nil && kept == nil)
        // Appearing: the whole view at the root.
        adapter.addPlayer(Player(id: "p1", name: "Ana"), now: 0)
        let appeared = adapter.privateOperations(for: "p1", kept: &kept)
        #expect(appeared == [.replace(path: .root, value: Self.hand("p1", "Ana", deal: 0))])
        var view = try JSONPatch(appeared).apply(to: .null)
        #expect(adapter.privateOperations(for: "p1", kept: &kept).isEmpty)
        var random = SplitMix64(seed: 1)
        for deal in 1...3 {
            try adapter.startNext(now: 0, using: &random)
            adapter.renamePlayer("p1", to: "Ana \(deal)")
            let operations = adapter.privateOperations(for: "p1", kept: &kept)
            #expect(!operations.isEmpty && operations.allSatisfy { !$0.path.tokens.isEmpty })
            view = try JSONPatch(operations).apply(to: view)
            #expect(view == Self.hand("p1", "Ana \(deal)", deal: deal))
        }
        // Going: `null` at the root, and nothing kept.
        adapter.removePlayer("p1", now: 0)
        #expect(adapter.privateOperations(for: "p1", kept: &kept) == [.replace(path: .root, value: .null)])
        #expect(kept == nil)
    }
}
