import Foundation
import JSON
import Runtime
import Testing
import WordGames
@testable import Rooms
import RoomsTestSupport

/// The party round's room features: the room's `status`, the kinds of the room's own chat lines, reactions,
/// renames, seat moves, and Word Scramble's breaks (Ready, rounds played, result notices).
@Suite struct PartyRoomTests {
    typealias Fixture = RoomTests.Fixture

    /// Three rounds of 30 seconds with 5-second breaks: short enough to walk through by hand.
    static let quickScramble: JSONObject = ["rounds": 3, "roundSeconds": 30, "breakSeconds": 5]
    /// A round's 30 seconds and a little: the room's timer fires just after a deadline.
    static let roundAndABit = 30.01

    /// The room's own lines as (notice, text), oldest first.
    static func notices(_ state: JSONValue) -> [(notice: String?, text: String)] {
        (state["chat"]?.arrayValue ?? []).filter { $0["system"]?.boolValue == true }.map {
            ($0["notice"]?.stringValue, $0["text"]?.stringValue ?? "")
        }
    }

    static func noticeTexts(_ state: JSONValue, _ kind: String) -> [String] {
        notices(state).filter { $0.notice == kind }.map(\.text)
    }

    /// Words the current round's root offers (the shown ones, as the game lists them).
    static func words(in state: JSONValue) throws -> [String] {
        let root = try #require(state["scramble"]?["root"]?.stringValue).lowercased()
        return RoomTests.lists.lexicon.words(spelledFrom: root, minimumLength: 3)
            .filter { $0 != root && RoomTests.lists.lexicon.isShown($0) }
    }

    // MARK: Status

    @Test func theStateSaysWhetherTheRoomIsWaitingPlayingOrFinished() async throws {
        var fixture = try await Fixture(.scramble, settings: Self.quickScramble)
        try await fixture.sync([fixture.host])
        #expect(fixture.views[fixture.host.id]?.state["status"]?.stringValue == "waiting")
        fixture.room.receive(.newGame, from: fixture.host.id)
        try await fixture.sync([fixture.host])
        #expect(fixture.views[fixture.host.id]?.state["status"]?.stringValue == "playing")
        // Three rounds and two breaks later.
        // The room arms its next timer on its own thread after one fires: settle after each step, or a step can
        // pass before the next deadline is set.
        for _ in 0..<3 {
            await fixture.timers.advance(by: 30) { await fixture.room.settled() }
            await fixture.room.settled()
            await fixture.timers.advance(by: 5) { await fixture.room.settled() }
            await fixture.room.settled()
        }
        try await fixture.sync([fixture.host])
        #expect(fixture.views[fixture.host.id]?.state["scramble"]?["phase"]?.stringValue == "finished")
        #expect(fixture.views[fixture.host.id]?.state["status"]?.stringValue == "finished")
        let snowman = try await Fixture(.snowman)
        #expect(await snowman.room.snapshot().state["status"]?.stringValue == "playing")
    }

    // MARK: Notices

    @Test func joinsAreAnnouncedOnceAndResumesAreNot() async throws {
        var fixture = try await Fixture()
        let bob = fixture.join("Bob")
        try await fixture.sync([fixture.host, bob])
        let token = try #require(fixture.views[bob.id]?.token)
        fixture.room.disconnected(bob.id)
        let back = MemoryLink()
        fixture.room.join(back, name: nil, token: ResumeToken(token), lastSeq: nil, spectator: false)
        let cleo = fixture.join("Cleo", spectator: true)
        try await fixture.sync([fixture.host])
        let state = try #require(fixture.views[fixture.host.id]?.state)
        // The creator's own join is not announced: nobody was there to hear it.
        #expect(Self.notices(state).map(\.text) == ["Bob joined", "Cleo joined"])
        #expect(Self.notices(state).map(\.notice) == ["join", "join"])
        let line = try #require(state["chat"]?.arrayValue?.first)
        #expect(line["player"]?.isNull == true)
        #expect(line["name"]?.isNull == true)
        _ = cleo
    }

    @Test func leavingRemovalsExpiredSeatsAndHostChangesAreAnnounced() async throws {
        var fixture = try await Fixture()
        let bob = fixture.join("Bob")
        let cleo = fixture.join("Cleo")
        let dan = fixture.join("Dan")
        try await fixture.sync([fixture.host, bob, cleo, dan])
        fixture.room.receive(.kick(player: "p4"), from: fixture.host.id)
        fixture.room.receive(.makeHost(player: "p2"), from: fixture.host.id)
        // Bob, the host now, leaves: hosting passes to Ana, the longest-present connected player.
        fixture.room.receive(.leave, from: bob.id)
        // A mere disconnect is not announced; the seat expiring is.
        fixture.room.disconnected(cleo.id)
        try await fixture.sync([fixture.host])
        #expect(Self.noticeTexts(fixture.views[fixture.host.id]!.state, "leave") == ["Bob left"])
        await fixture.timers.advance(by: RoomConfiguration().resumeGraceSeconds + 1) { await fixture.room.settled() }
        try await fixture.sync([fixture.host])
        let state = try #require(fixture.views[fixture.host.id]?.state)
        #expect(Self.noticeTexts(state, "kick") == ["Dan was removed by the host"])
        #expect(Self.noticeTexts(state, "host") == ["Bob is now the host", "Ana is now the host"])
        #expect(Self.noticeTexts(state, "leave") == ["Bob left", "Cleo left"])
        #expect(state["host"]?.stringValue == "p1")
    }

    @Test func skipLinesAreSkipNotices() async throws {
        var fixture = try await Fixture()
        let bob = fixture.join("Bob")
        try await fixture.sync([bob])
        fixture.room.receive(.skip, from: fixture.host.id)
        try await fixture.sync([bob])
        #expect(Self.noticeTexts(fixture.views[bob.id]!.state, "skip") == ["Ana's turn was skipped by the host"])
    }

    // MARK: Reactions

    @Test func aReactionReachesEveryConnectedMemberOutsideTheState() async throws {
        var fixture = try await Fixture()
        let bob = fixture.join("Bob")
        let cleo = fixture.join("Cleo", spectator: true)
        let away = fixture.join("Dan")
        try await fixture.sync([fixture.host, bob, cleo, away])
        fixture.room.disconnected(away.id)
        await fixture.room.settled()
        for link in [fixture.host, bob, cleo] { _ = link.drainMessages() }
        let (seqBefore, stateBefore) = await fixture.room.snapshot()
        // Spectators may react too.
        fixture.room.receive(.react(emoji: "🎉"), from: cleo.id)
        await fixture.room.settled()
        var sent: [ServerMessage] = []
        for link in [fixture.host, bob, cleo] {
            let messages = link.drainMessages()
            try #require(messages.count == 1)
            sent.append(messages[0])
        }
        #expect(sent.allSatisfy { $0 === sent[0] }, "one message object for every member")
        #expect(String(decoding: sent[0].json, as: UTF8.self) == #"{"type":"reaction","player":"s3","emoji":"🎉"}"#)
        #expect(away.drainMessages().isEmpty)
        let (seqAfter, stateAfter) = await fixture.room.snapshot()
        #expect(seqAfter == seqBefore, "no seq")
        #expect(stateAfter == stateBefore, "not in the state")
    }

    @Test func aReactionIsNotReplayedOnResume() async throws {
        var fixture = try await Fixture()
        let bob = fixture.join("Bob")
        try await fixture.sync([fixture.host, bob])
        let token = try #require(fixture.views[bob.id]?.token)
        let seq = try #require(fixture.views[bob.id]?.seq)
        fixture.room.disconnected(bob.id)
        fixture.room.receive(.react(emoji: "👍"), from: fixture.host.id)
        let back = MemoryLink()
        fixture.room.join(back, name: nil, token: ResumeToken(token), lastSeq: seq, spectator: false)
        await fixture.room.settled()
        let types = back.drain().compactMap { $0["type"]?.stringValue }
        #expect(types.first == "welcome")
        #expect(!types.contains("reaction"))
        let entry = await fixture.room.journalEntry()
        #expect(!String(decoding: entry.payload, as: UTF8.self).contains("👍"), "not journaled")
    }

    @Test(arguments: ["🙂", "", "👍👍", "thumbs", "❤"])
    func onlyTheFixedEmojiAreReactions(emoji: String) async throws {
        var fixture = try await Fixture()
        let view = try await fixture.hostView(after: .react(emoji: emoji))
        view.expectLastError("bad-reaction", move: "react")
        #expect(view.other.isEmpty)
    }

    @Test func everyEmojiOfTheSetIsAccepted() async throws {
        var fixture = try await Fixture()
        for emoji in Reaction.emoji {
            fixture.room.receive(.react(emoji: emoji), from: fixture.host.id)
            // The room reads its clock when it gets to the message.
            await fixture.room.settled()
            await fixture.timers.advance(by: 3) { await fixture.room.settled() }
        }
        try await fixture.sync([fixture.host])
        let view = try #require(fixture.views[fixture.host.id])
        #expect(view.errors.isEmpty)
        #expect(view.other.compactMap { $0["emoji"]?.stringValue } == ["👍", "😂", "😮", "🎉", "❤️", "👏", "😱", "🔥"])
    }

    @Test func theSixthReactionInTenSecondsIsRefusedUntilTheOldestIsTenSecondsOld() async throws {
        var fixture = try await Fixture()
        let bob = fixture.join("Bob")
        try await fixture.sync([fixture.host, bob])
        for _ in 0..<5 {
            fixture.room.receive(.react(emoji: "🔥"), from: bob.id)
            await fixture.room.settled()
            await fixture.timers.advance(by: 1) { await fixture.room.settled() }
        }
        fixture.room.receive(.react(emoji: "🔥"), from: bob.id)
        // Another member has a budget of their own.
        fixture.room.receive(.react(emoji: "😂"), from: fixture.host.id)
        try await fixture.sync([fixture.host, bob])
        let refused = try #require(fixture.views[bob.id]?.errors.last)
        #expect(refused["code"]?.stringValue == "too-many-reactions")
        #expect(refused["title"]?.stringValue == "Too many reactions")
        #expect(refused["message"]?.stringValue == "You can send 5 reactions every 10 seconds. Try again in 5 seconds.")
        #expect(fixture.views[fixture.host.id]?.other.count == 6, "five of Bob's and Ana's own")
        #expect(fixture.views[fixture.host.id]?.errors.isEmpty == true)
        await fixture.timers.advance(by: 5) { await fixture.room.settled() }
        fixture.room.receive(.react(emoji: "🔥"), from: bob.id)
        try await fixture.sync([fixture.host, bob])
        #expect(fixture.views[bob.id]?.errors.count == 1)
        #expect(fixture.views[fixture.host.id]?.other.count == 7)
    }

    // MARK: Renames

    /// Bob joins the Word Scramble room of `fixture`, the host starts a round and Bob sends a word of it (which the
    /// room has not handled yet); returns Bob's link.
    private static func bobFindsAWord(in fixture: inout Fixture) async throws -> MemoryLink {
        let bob = fixture.join("Bob")
        fixture.room.receive(.newGame, from: fixture.host.id)
        try await fixture.sync([fixture.host, bob])
        let word = try #require(try words(in: fixture.views[bob.id]!.state).first)
        fixture.room.receive(.word(word), from: bob.id)
        return bob
    }

    @Test func aRenameShowsInTheMembersTheGameAndTheChat() async throws {
        var fixture = try await Fixture(.scramble, settings: Self.quickScramble)
        let bob = try await Self.bobFindsAWord(in: &fixture)
        fixture.room.receive(.rename(name: "  Bobby  "), from: bob.id)
        try await fixture.sync([fixture.host, bob])
        let state = try #require(fixture.views[fixture.host.id]?.state)
        #expect(state["members"]?[1]?["name"]?.stringValue == "Bobby")
        #expect(state["members"]?[1]?["id"]?.stringValue == "p2")
        #expect(state["scramble"]?["scores"]?[1]?["name"]?.stringValue == "Bobby")
        #expect(state["scramble"]?["found"]?[0]?["name"]?.stringValue == "Bobby")
        #expect(Self.noticeTexts(state, "rename") == ["Bob is now Bobby"])
        #expect(state == (await fixture.room.snapshot()).state)
    }

    @Test func aSpectatorWhoPlayedIsRenamedInTheGameToo() async throws {
        var fixture = try await Fixture(.scramble, settings: Self.quickScramble)
        let bob = try await Self.bobFindsAWord(in: &fixture)
        fixture.room.receive(.seat(role: .spectator, player: nil), from: bob.id)
        fixture.room.receive(.rename(name: "Rob"), from: bob.id)
        try await fixture.sync([fixture.host])
        let state = try #require(fixture.views[fixture.host.id]?.state)
        #expect(state["scramble"]?["found"]?[0]?["name"]?.stringValue == "Rob")
        #expect(state["scramble"]?["scoreboard"]?.arrayValue?.contains { $0["name"]?.stringValue == "Rob" } == true)
    }

    @Test func theSameNameChangesNothingAndGetsNoAnswer() async throws {
        var fixture = try await Fixture()
        try await fixture.sync([fixture.host])
        let seq = await fixture.room.snapshot().seq
        fixture.room.receive(.rename(name: " Ana "), from: fixture.host.id)
        await fixture.room.settled()
        #expect(fixture.host.drain().isEmpty)
        #expect(await fixture.room.snapshot().seq == seq)
    }

    @Test func aTakenNameGetsASuffixAsAtJoin() async throws {
        var fixture = try await Fixture()
        let bob = fixture.join("Bob")
        fixture.room.receive(.rename(name: "ANA"), from: bob.id)
        try await fixture.sync([bob])
        #expect(fixture.views[bob.id]!.memberNames == ["Ana", "ANA (2)"])
    }

    @Test(arguments: RoomTests.badNames)
    func aBadNameIsRefusedAsAtJoin(name: String) async throws {
        var fixture = try await Fixture()
        let view = try await fixture.hostView(after: .rename(name: name))
        view.expectLastError("bad-name", move: "rename")
        #expect(view.state["members"]?[0]?["name"]?.stringValue == "Ana")
    }

    // MARK: Seats

    @Test func aSpectatorTakesAFreeSeatBetweenGamesButNotDuringOne() async throws {
        var fixture = try await Fixture(.scramble, settings: Self.quickScramble)
        let cleo = fixture.join("Cleo", spectator: true)
        let dan = fixture.join("Dan", spectator: true)
        fixture.room.receive(.seat(role: .player, player: nil), from: cleo.id)
        try await fixture.sync([fixture.host, cleo])
        var state = try #require(fixture.views[fixture.host.id]?.state)
        #expect(state["members"]?[1]?["role"]?.stringValue == "player")
        #expect(state["members"]?[1]?["id"]?.stringValue == "s2", "ids do not change")
        #expect(state["scramble"]?["scores"]?.arrayValue?.map { $0["player"]!.stringValue! } == ["p1", "s2"])
        #expect(Self.noticeTexts(state, "seat") == ["Cleo is now playing"])
        fixture.room.receive(.newGame, from: fixture.host.id)
        fixture.room.receive(.seat(role: .player, player: nil), from: dan.id)
        try await fixture.sync([fixture.host, dan])
        try #require(fixture.views[dan.id]).expectLastError("game-in-progress", move: "seat")
        // The host may seat anyone at any time.
        fixture.room.receive(.seat(role: .player, player: "s3"), from: fixture.host.id)
        try await fixture.sync([fixture.host])
        state = try #require(fixture.views[fixture.host.id]?.state)
        #expect(state["members"]?[2]?["role"]?.stringValue == "player")
        #expect(Self.noticeTexts(state, "seat") == ["Cleo is now playing", "Dan is now playing"])
    }

    @Test func aPlayerMovesToTheSpectatorsAndLeavesTheGamesPlayers() async throws {
        var fixture = try await Fixture()
        let bob = fixture.join("Bob")
        fixture.room.receive(.seat(role: .spectator, player: nil), from: bob.id)
        try await fixture.sync([fixture.host, bob])
        let state = try #require(fixture.views[fixture.host.id]?.state)
        #expect(state["members"]?[1]?["role"]?.stringValue == "spectator")
        #expect(state["snowman"]?["scores"]?.arrayValue?.map { $0["player"]!.stringValue! } == ["p1"])
        #expect(Self.noticeTexts(state, "seat") == ["Bob is now watching"])
        // Watching now: moves are refused, and asking again changes nothing.
        fixture.room.receive(.guess("e"), from: bob.id)
        fixture.room.receive(.seat(role: .spectator, player: nil), from: bob.id)
        try await fixture.sync([bob])
        #expect(fixture.views[bob.id]?.errors.map { $0["code"]!.stringValue! } == ["spectator"])
    }

    @Test func onlyTheHostMovesOthersAndTheHostStaysAPlayer() async throws {
        var fixture = try await Fixture()
        let bob = fixture.join("Bob")
        fixture.room.receive(.seat(role: .spectator, player: "p1"), from: bob.id)
        fixture.room.receive(.seat(role: .spectator, player: "p1"), from: fixture.host.id)
        fixture.room.receive(.seat(role: .spectator, player: nil), from: fixture.host.id)
        fixture.room.receive(.seat(role: .spectator, player: "p9"), from: fixture.host.id)
        try await fixture.sync([fixture.host, bob])
        #expect(fixture.views[bob.id]?.errors.map { $0["code"]!.stringValue! } == ["host-only"])
        #expect(fixture.views[fixture.host.id]?.errors.map { $0["code"]!.stringValue! }
            == ["host-must-play", "host-must-play", "no-such-player"])
        fixture.room.receive(.seat(role: .spectator, player: "p2"), from: fixture.host.id)
        try await fixture.sync([fixture.host])
        #expect(fixture.views[fixture.host.id]?.state["members"]?[1]?["role"]?.stringValue == "spectator")
    }

    @Test func aSeatNeedsAFreeOne() async throws {
        var configuration = RoomConfiguration()
        configuration.maxPlayers = 2
        var fixture = try await Fixture(.scramble, configuration: configuration)
        _ = fixture.join("Bob")
        let cleo = fixture.join("Cleo", spectator: true)
        fixture.room.receive(.seat(role: .player, player: nil), from: cleo.id)
        fixture.room.receive(.seat(role: .player, player: "s3"), from: fixture.host.id)
        try await fixture.sync([fixture.host, cleo])
        #expect(fixture.views[cleo.id]?.errors.last?["code"]?.stringValue == "room-full")
        #expect(fixture.views[fixture.host.id]?.errors.last?["code"]?.stringValue == "room-full")
        #expect(fixture.views[cleo.id]?.state["members"]?[2]?["role"]?.stringValue == "spectator")
    }

    // MARK: Word Scramble: results, Ready and rounds played

    @Test func eachRoundsResultIsAnnouncedOnceAndTheLastNamesTheWinner() async throws {
        var fixture = try await Fixture(.scramble, settings: Self.quickScramble)
        let bob = fixture.join("Bob")
        fixture.room.receive(.newGame, from: fixture.host.id)
        try await fixture.sync([fixture.host, bob])
        var roots: [String] = []
        for round in 1...3 {
            let state = try #require(fixture.views[fixture.host.id]?.state)
            roots.append(try #require(state["scramble"]?["root"]?.stringValue))
            if round < 3 {
                // Bob finds a word in rounds 1 and 2; nobody in round 3.
                let word = try #require(try Self.words(in: state).first)
                fixture.room.receive(.word(word), from: bob.id)
                await fixture.room.settled()
            }
            await fixture.timers.advance(by: Self.roundAndABit) { await fixture.room.settled() }
            try await fixture.sync([fixture.host, bob])
            // Ticks that change nothing announce nothing again.
            fixture.room.tick()
            await fixture.timers.advance(by: 5) { await fixture.room.settled() }
            try await fixture.sync([fixture.host, bob])
        }
        let state = try #require(fixture.views[fixture.host.id]?.state)
        let results = Self.noticeTexts(state, "result")
        let words = state["scramble"]!["roundsPlayed"]!.arrayValue!.map { $0["found"]!.intValue! }
        #expect(words == [1, 1, 0])
        let points = state["scramble"]!["finalScoreboard"]![0]!["score"]!.intValue!
        #expect(results.count == 3)
        #expect(results[0].hasPrefix("Round 1 · \(roots[0]): Bob found the most ("))
        #expect(results[1].hasPrefix("Round 2 · \(roots[1]): Bob found the most ("))
        #expect(results[2] == "Round 3 · \(roots[2]): nobody found a word. Bob wins the match with \(points) points")
    }

    @Test func theNextRoundStartsOnceEveryConnectedPlayerIsReady() async throws {
        var fixture = try await Fixture(.scramble, settings: ["rounds": 3, "roundSeconds": 30, "breakSeconds": 60])
        let bob = fixture.join("Bob")
        let cleo = fixture.join("Cleo", spectator: true)
        let dan = fixture.join("Dan")
        fixture.room.receive(.newGame, from: fixture.host.id)
        fixture.room.receive(ClientMessage.ready, from: bob.id)
        try await fixture.sync([fixture.host, bob, cleo, dan])
        try #require(fixture.views[bob.id]).expectLastError("not-in-break", move: "ready")
        await fixture.timers.advance(by: 30) { await fixture.room.settled() }
        // Dan is away: the room waits only on who is here.
        fixture.room.disconnected(dan.id)
        fixture.room.receive(ClientMessage.ready, from: bob.id)
        fixture.room.receive(ClientMessage.ready, from: bob.id)
        fixture.room.receive(ClientMessage.ready, from: cleo.id)
        try await fixture.sync([fixture.host, cleo])
        var scramble = try #require(fixture.views[fixture.host.id]?.state["scramble"])
        #expect(scramble["phase"]?.stringValue == "intermission")
        #expect(scramble["ready"] == ["p2"])
        #expect(fixture.views[cleo.id]?.errors.last?["code"]?.stringValue == "spectator")
        let started = fixture.timers.now
        fixture.room.receive(ClientMessage.ready, from: fixture.host.id)
        try await fixture.sync([fixture.host])
        scramble = try #require(fixture.views[fixture.host.id]?.state["scramble"])
        #expect(scramble["phase"]?.stringValue == "playing")
        #expect(scramble["round"]?.intValue == 2)
        #expect(scramble["ready"] == [])
        #expect(scramble["phaseEndsAt"]?.doubleValue == started + 30, "the round starts now, with its whole time")
    }

    /// Everyone here is Ready but one player, who then goes away: the next round starts with the patch that
    /// shows them away, and its deadline is on the room's timer (that patch waits behind queued inputs).
    @Test func theLastPlayerNotReadyGoingAwayStartsTheRoundAndItsTimer() async throws {
        var fixture = try await Fixture(.scramble, settings: ["rounds": 3, "roundSeconds": 30, "breakSeconds": 60])
        let bob = fixture.join("Bob")
        fixture.room.receive(.newGame, from: fixture.host.id)
        try await fixture.sync([fixture.host, bob])
        await fixture.timers.advance(by: 30) { await fixture.room.settled() }
        fixture.room.receive(ClientMessage.ready, from: fixture.host.id)
        try await fixture.sync([fixture.host])
        var scramble = try #require(fixture.views[fixture.host.id]?.state["scramble"])
        #expect(scramble["phase"]?.stringValue == "intermission")
        fixture.room.disconnected(bob.id)
        try await fixture.sync([fixture.host])
        scramble = try #require(fixture.views[fixture.host.id]?.state["scramble"])
        #expect(scramble["phase"]?.stringValue == "playing")
        #expect(scramble["round"]?.intValue == 2)
        // The round ends on its own, with nobody sending anything.
        await fixture.timers.advance(by: 31) { await fixture.room.settled() }
        try await fixture.sync([fixture.host])
        scramble = try #require(fixture.views[fixture.host.id]?.state["scramble"])
        #expect(scramble["phase"]?.stringValue == "intermission")
        #expect(scramble["round"]?.intValue == 2)
    }

    @Test func aBreakLastsItsSetting() async throws {
        var fixture = try await Fixture(.scramble, settings: Self.quickScramble)
        let start = fixture.timers.now
        fixture.room.receive(.newGame, from: fixture.host.id)
        fixture.room.receive(.settings(["breakSeconds": 61]), from: fixture.host.id)
        try await fixture.sync([fixture.host])
        #expect(fixture.views[fixture.host.id]?.errors.last?["code"]?.stringValue == "setting-out-of-range")
        #expect(fixture.views[fixture.host.id]?.state["scramble"]?["settings"]?["breakSeconds"]?.intValue == 5)
        await fixture.timers.advance(by: Self.roundAndABit) { await fixture.room.settled() }
        try await fixture.sync([fixture.host])
        #expect(fixture.views[fixture.host.id]?.state["scramble"]?["phase"]?.stringValue == "intermission")
        let endsAt = fixture.views[fixture.host.id]?.state["scramble"]?["phaseEndsAt"]?.doubleValue
        #expect(endsAt == start + 30 + 5)
    }

    @Test func roundsPlayedListsTheMatchsRoundsAndANewMatchClearsThem() async throws {
        var fixture = try await Fixture(.scramble, settings: Self.quickScramble)
        fixture.room.receive(.newGame, from: fixture.host.id)
        try await fixture.sync([fixture.host])
        let first = try #require(fixture.views[fixture.host.id]?.state["scramble"]?["root"]?.stringValue)
        let total = try Self.words(in: fixture.views[fixture.host.id]!.state).count
        await fixture.timers.advance(by: Self.roundAndABit) { await fixture.room.settled() }
        try await fixture.sync([fixture.host])
        let played = try #require(fixture.views[fixture.host.id]?.state["scramble"]?["roundsPlayed"]?.arrayValue)
        #expect(played.count == 1)
        #expect(played[0]["round"]?.intValue == 1)
        #expect(played[0]["root"]?.stringValue == first)
        #expect(played[0]["found"]?.intValue == 0)
        #expect(played[0]["missed"]?.arrayValue?.count == total)
        for _ in 0..<2 {
            await fixture.timers.advance(by: 5) { await fixture.room.settled() }
            await fixture.room.settled()
            await fixture.timers.advance(by: Self.roundAndABit) { await fixture.room.settled() }
            await fixture.room.settled()
        }
        fixture.room.receive(.newGame, from: fixture.host.id)
        try await fixture.sync([fixture.host])
        #expect(fixture.views[fixture.host.id]?.state["scramble"]?["matchNumber"]?.intValue == 2)
        #expect(fixture.views[fixture.host.id]?.state["scramble"]?["roundsPlayed"] == [])
    }

    @Test func aRestoredRoomDoesNotAnnounceAResultAgain() async throws {
        let (directory, timers, journal, registry) = try RoomJournalTests.freshJournaledRegistry(seed: 3)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let host = MemoryLink()
        let room = try await registry.create(.scramble, isPublic: true, settings: Self.quickScramble, creator: host,
                                             name: "Ana")
        room.receive(.newGame, from: host.id)
        await room.settled()
        await timers.advance(by: Self.roundAndABit) { await room.settled() }
        await room.settled()
        #expect(Self.noticeTexts(await room.snapshot().state, "result").count == 1)
        journal.writeSnapshot(of: [room])
        journal.stop()

        let later = ManualTimers(start: timers.now)
        let (reopened, restarted) = try RoomJournalTests.journaledRegistry(in: directory, seed: 4, timers: later)
        defer { reopened.stop() }
        #expect(await restarted.restoreSavedRooms(log: { Issue.record("logged: \($0)") }) == 1)
        let back = try #require(await restarted.room(room.code))
        await back.settled()
        #expect(Self.noticeTexts(await back.snapshot().state, "result").count == 1)
        // The next round's result is announced as usual.
        await later.advance(by: 5) { await back.settled() }
        await back.settled()
        await later.advance(by: Self.roundAndABit) { await back.settled() }
        await back.settled()
        let results = Self.noticeTexts(await back.snapshot().state, "result")
        #expect(results.count == 2)
        #expect(results.last?.hasPrefix("Round 2 · ") == true)
    }

    @Test func aSnapshotKeepsTheBreakTheReadyListAndTheResult() async throws {
        var fixture = try await Fixture(.scramble, settings: ["rounds": 3, "roundSeconds": 30, "breakSeconds": 42])
        let bob = fixture.join("Bob")
        fixture.room.receive(.newGame, from: fixture.host.id)
        await fixture.room.settled()
        await fixture.timers.advance(by: Self.roundAndABit) { await fixture.room.settled() }
        fixture.room.receive(ClientMessage.ready, from: bob.id)
        try await fixture.sync([fixture.host])
        let record = await fixture.room.record(version: 1)
        let read = try RoomRecord(saved: record.json, format: JournalEntry.format)
        #expect(read.announcedResult == 1)
        #expect(read.chat.last?.notice == .result)
        let game = try read.game(lists: RoomTests.lists)
        #expect(game.snapshot == record.snapshot)
        #expect(game.readyPlayers == [PlayerID("p2")])
        #expect(game.resultNotice?.text.hasPrefix("Round 1 · ") == true)
        #expect(game.resultNotice?.number == 1)
        #expect(game.snapshot["settings"]?["breakSeconds"]?.intValue == 42)
    }

    @Test func aSavedRoundKeepsTheCountOfWordsItLetGo() async throws {
        var fixture = try await Fixture(.scramble, settings: Self.quickScramble)
        fixture.room.receive(.newGame, from: fixture.host.id)
        await fixture.room.settled()
        let word = try #require(try Self.words(in: await fixture.room.snapshot().state).first)
        fixture.room.receive(.move(GameMove(type: "word", text: word)), from: fixture.host.id)
        await fixture.room.settled()
        // Round 1 ends, its break runs out and round 2 starts: round 1 keeps only its count.
        await fixture.timers.advance(by: Self.roundAndABit) { await fixture.room.settled() }
        await fixture.room.settled()
        await fixture.timers.advance(by: 5.01) { await fixture.room.settled() }
        await fixture.room.settled()
        #expect(await fixture.room.snapshot().state["scramble"]?["roundsPlayed"]?[0]?["found"] == 1)
        var snapshot = await fixture.room.record(version: 1).snapshot
        #expect(snapshot["completedRounds"]?[0]?["found"] == [])
        #expect(snapshot["completedRounds"]?[0]?["foundCount"] == 1)
        let game = try GameRegistry.restore("scramble", snapshot: snapshot, lists: RoomTests.lists)
        #expect(game.snapshot == snapshot)

        // Saved before the count was: the words are all there and are counted.
        snapshot["completedRounds"]![0]!["foundCount"] = nil
        let player = try #require(snapshot["players"]?[0])
        snapshot["completedRounds"]![0]!["found"] = [["word": .string(word), "player": player["id"]!,
                                                      "name": player["name"]!]]
        let old = try GameRegistry.restore("scramble", snapshot: snapshot, lists: RoomTests.lists)
        #expect(old.snapshot["completedRounds"]?[0]?["foundCount"] == 1)
    }

    @Test func aSnapshotFromBeforeBreaksStillLoads() async throws {
        var fixture = try await Fixture(.scramble, settings: Self.quickScramble)
        fixture.room.receive(.newGame, from: fixture.host.id)
        await fixture.room.settled()
        await fixture.timers.advance(by: Self.roundAndABit) { await fixture.room.settled() }
        await fixture.room.settled()
        var snapshot = await fixture.room.record(version: 1).snapshot
        for key in ["ready", "resultNumber", "resultText"] { snapshot[key] = nil }
        snapshot["settings"]!["breakSeconds"] = nil
        snapshot["nextSettings"]!["breakSeconds"] = nil
        let game = try GameRegistry.restore("scramble", snapshot: snapshot, lists: RoomTests.lists)
        #expect(game.readyPlayers == [])
        #expect(game.resultNotice == nil)
        #expect(game.snapshot["settings"]?["breakSeconds"]?.intValue == ScrambleSettings.defaultBreakSeconds)
        // An old chat line without a kind reads as one without a notice.
        let line = try ChatLine(saved: SavedObject(["id": 1, "text": "Bob ran out of time", "at": 1.5], "line"))
        #expect(line.notice == nil)
        #expect(line.isSystem)
    }
}
