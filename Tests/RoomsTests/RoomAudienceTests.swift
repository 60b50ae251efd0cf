import JSON
import Runtime
import Synchronization
import Testing
import WordGames
@testable import Rooms
import RoomsTestSupport

/// What a room hands its audience: every patch once, in order, to the links connected now (admitted before their
/// first patch, dismissed when they go); messages for one member (welcomes, replays, reactions) go to its link.
@Suite struct RoomAudienceTests {
    /// Records what it is told, in order, and sends nothing.
    final class RecordingAudience: RoomAudience, @unchecked Sendable {
        enum Event: Equatable {
            case admit(UInt64)
            case dismiss(UInt64)
            case publish(seq: Int, except: UInt64?)
        }
        private(set) var events: [Event] = []
        private(set) var members: Set<UInt64> = []

        func admit(_ link: any ClientLink) {
            events.append(.admit(link.id))
            members.insert(link.id)
        }

        func dismiss(_ linkID: UInt64) {
            events.append(.dismiss(linkID))
            members.remove(linkID)
        }

        func publish(_ message: ServerMessage, except: UInt64?) {
            let parsed = try! JSONParser().parse(message.json)
            events.append(.publish(seq: parsed["seq"]!.intValue!, except: except))
        }

        var published: [Int] {
            events.compactMap { if case .publish(let seq, _) = $0 { seq } else { nil } }
        }
    }

    /// The audiences a registry made, held weakly so a test sees when a room lets its audience go.
    final class Audiences: Sendable {
        private let made = Mutex<[Weak]>([])
        struct Weak: @unchecked Sendable { weak var audience: RecordingAudience? }

        var factory: @Sendable () -> any RoomAudience {
            { [self] in
                let audience = RecordingAudience()
                made.withLock { $0.append(Weak(audience: audience)) }
                return audience
            }
        }

        var count: Int { made.withLock { $0.count } }
        var first: RecordingAudience? { made.withLock { $0.first?.audience } }
    }

    struct Fixture {
        let registry: RoomRegistry
        let room: Room
        let host = MemoryLink()
        let timers = ManualTimers(start: 1_000_000)
        let audiences = Audiences()

        init() async throws {
            registry = RoomRegistry(lists: RoomTests.lists, seed: 11, clock: timers.clock, timers: timers,
                                    audiences: audiences.factory)
            room = try await registry.create(.snowman, isPublic: true, settings: [:], creator: host, name: "Ana")
            await room.settled()
        }

        func join(_ link: MemoryLink, name: String) async {
            room.join(link, name: name, token: nil, lastSeq: nil, spectator: false)
            await room.settled()
        }

        func chat(_ lines: String...) async {
            for line in lines { room.receive(.chat(line), from: host.id) }
            await room.settled()
        }
    }

    @Test func everyPatchIsPublishedOnceInOrderAndNoLinkIsSentOne() async throws {
        let fixture = try await Fixture()
        let bob = MemoryLink()
        await fixture.join(bob, name: "Bob")
        await fixture.chat("one", "two", "three")
        let audience = try #require(fixture.audiences.first)
        #expect(fixture.audiences.count == 1, "one audience per room")
        let seqs = audience.published
        #expect(seqs.count >= 4)
        #expect(seqs == Array(seqs.first!...seqs.last!), "in publish order, without gaps")
        #expect(audience.members == [fixture.host.id, bob.id])
        for link in [fixture.host, bob] {
            #expect(link.drain().allSatisfy { $0["type"]?.stringValue != "patch" }, "patches only through the audience")
        }
    }

    @Test func aJoinerIsAdmittedLeftOutOfItsJoinsPatchAndGetsTheNext() async throws {
        let fixture = try await Fixture()
        let audience = try #require(fixture.audiences.first)
        let bob = MemoryLink()
        await fixture.join(bob, name: "Bob")
        let joinPublish = try #require(audience.events.last)
        guard case .publish(_, let except) = joinPublish else { Issue.record("the join publishes"); return }
        #expect(except == bob.id, "the joiner gets a welcome with the state instead")
        #expect(audience.events.contains(.admit(bob.id)))
        #expect(bob.drain().first?["type"]?.stringValue == "welcome")
        await fixture.chat("after the join")
        guard case .publish(_, nil) = audience.events.last else { Issue.record("a patch to everyone"); return }
        #expect(audience.members.contains(bob.id))
    }

    @Test func aResumerReplacesItsLinkAndGetsItsReplaysDirectly() async throws {
        let fixture = try await Fixture()
        let audience = try #require(fixture.audiences.first)
        let bob = MemoryLink()
        await fixture.join(bob, name: "Bob")
        let welcome = try #require(bob.drain().first)
        let token = try #require(welcome["token"]?.stringValue)
        await fixture.chat("before")
        let seq = try #require(audience.published.last)
        fixture.room.disconnected(bob.id)
        await fixture.chat("while away", "still away")
        #expect(audience.events.contains(.dismiss(bob.id)), "a dropped link is dismissed by the next publish")
        #expect(!audience.members.contains(bob.id))

        let back = MemoryLink()
        let publishedBefore = audience.published.count
        fixture.room.join(back, name: nil, token: ResumeToken(token), lastSeq: seq, spectator: false)
        await fixture.room.settled()
        let received = back.drain()
        #expect(received.first?["type"]?.stringValue == "welcome")
        let replays = received.dropFirst().filter { $0["type"]?.stringValue == "patch" }
        #expect(replays.count >= 2, "what Bob missed, sent to his link alone")
        #expect(audience.members.contains(back.id))
        #expect(audience.published.count == publishedBefore + 1, "his return is one patch, to everyone")
    }

    @Test func aMemberWhoLeavesIsDismissedBeforeTheNextPatch() async throws {
        let fixture = try await Fixture()
        let audience = try #require(fixture.audiences.first)
        let bob = MemoryLink()
        await fixture.join(bob, name: "Bob")
        await fixture.chat("hello")
        #expect(audience.members.contains(bob.id))
        fixture.room.receive(.leave, from: bob.id)
        await fixture.room.settled()
        await fixture.chat("bye")
        let dismissed = try #require(audience.events.firstIndex(of: .dismiss(bob.id)))
        let lastPublish = try #require(audience.events.lastIndex { if case .publish = $0 { true } else { false } })
        #expect(dismissed < lastPublish)
        #expect(audience.members == [fixture.host.id])
    }

    @Test func reactionsGoToEachLinkOutsideTheAudience() async throws {
        let fixture = try await Fixture()
        let audience = try #require(fixture.audiences.first)
        let bob = MemoryLink()
        await fixture.join(bob, name: "Bob")
        _ = fixture.host.drainMessages()
        _ = bob.drainMessages()
        let eventsBefore = audience.events.count
        fixture.room.receive(.react(emoji: "🎉"), from: bob.id)
        await fixture.room.settled()
        let sent = [fixture.host.drainMessages(), bob.drainMessages()]
        #expect(sent.allSatisfy { $0.count == 1 })
        #expect(sent[0].first === sent[1].first, "one message object for every member")
        #expect(audience.events.count == eventsBefore, "a reaction is no patch: it does not go through the audience")
    }

    @Test func aDisposedRoomLetsItsAudienceGo() async throws {
        let fixture = try await Fixture()
        await fixture.chat("hello")
        #expect(fixture.audiences.first != nil)
        fixture.room.disconnected(fixture.host.id)
        await fixture.room.settled()
        // Second by second: the room keeps one timer (the turn, the seat, then the disposal) and sets the next on
        // its own thread once one fires, so a single long advance could return before the disposal timer exists.
        for _ in 0...Int(RoomConfiguration().emptyRoomGraceSeconds) {
            await fixture.timers.advance(by: 1) { await fixture.room.settled() }
            await fixture.room.settled()
        }
        #expect(await fixture.registry.count == 0)
        #expect(fixture.audiences.first == nil, "the room still exists as an object, but its audience is gone")
    }
}
