import JSON
import Runtime
import Synchronization
import Testing
import WordGames
@testable import Rooms
import RoomsTestSupport

/// What a room hands its broadcast stream: every patch in order, before anyone is sent it, only when a member
/// follows the stream; fresh starts where members join or resume; replays outside the stream.
@Suite struct BroadcastStreamTests {
    /// Records what it is given and marks each message as encoded in the stream.
    final class RecordingStream: BroadcastStream, @unchecked Sendable {
        private(set) var appended: [(seq: Int, restart: Bool)] = []

        func append(_ message: ServerMessage, restart: Bool) {
            let parsed = try! JSONParser().parse(message.json)
            appended.append((parsed["seq"]!.intValue!, restart))
            message.streamForm = Marker(seq: parsed["seq"]!.intValue!)
        }
    }

    final class Marker: Sendable {
        let seq: Int
        init(seq: Int) { self.seq = seq }
    }

    /// The streams a registry made, held weakly so a test sees when a room lets its stream go.
    final class Streams: Sendable {
        private let made = Mutex<[Weak]>([])
        struct Weak: @unchecked Sendable { weak var stream: RecordingStream? }

        var factory: @Sendable () -> any BroadcastStream {
            { [self] in
                let stream = RecordingStream()
                made.withLock { $0.append(Weak(stream: stream)) }
                return stream
            }
        }

        var count: Int { made.withLock { $0.count } }
        var first: RecordingStream? { made.withLock { $0.first?.stream } }
    }

    /// A client that negotiated compression: it follows the stream; it records how each message was sent.
    final class FollowingLink: ClientLink, @unchecked Sendable {
        private static let counter = Mutex<UInt64>(1 << 40)
        let id: UInt64
        let followsBroadcastStream: Bool
        /// Whether a message had a stream form is noted as it is sent: the room drops the form afterwards.
        private let log = Mutex<[(message: ServerMessage, outside: Bool, streamed: Bool)]>([])

        init(follows: Bool = true) {
            id = Self.counter.withLock { $0 += 1; return $0 }
            followsBroadcastStream = follows
        }

        func send(_ message: ServerMessage) {
            let streamed = message.streamForm != nil
            log.withLock { $0.append((message, false, streamed)) }
        }

        func sendOutsideStream(_ message: ServerMessage) {
            let streamed = message.streamForm != nil
            log.withLock { $0.append((message, true, streamed)) }
        }
        func close(_ reason: CloseReason) {}

        func drain() -> [(type: String, seq: Int?, streamed: Bool, outside: Bool, json: JSONValue)] {
            log.withLock { entries in
                defer { entries.removeAll() }
                return entries.map { entry in
                    let json = try! JSONParser().parse(entry.message.json)
                    return (json["type"]!.stringValue!, json["seq"]?.intValue, entry.streamed, entry.outside, json)
                }
            }
        }
    }

    struct Fixture {
        let registry: RoomRegistry
        let room: Room
        let host: FollowingLink
        let timers = ManualTimers(start: 1_000_000)
        let streams = Streams()

        init(hostFollows: Bool) async throws {
            registry = RoomRegistry(lists: RoomTests.lists, seed: 11, clock: timers.clock, timers: timers,
                                    broadcastStreams: streams.factory)
            host = FollowingLink(follows: hostFollows)
            room = try await registry.create(.snowman, isPublic: true, settings: [:], creator: host, name: "Ana")
            await room.settled()
        }

        func join(_ link: FollowingLink, name: String) async {
            room.join(link, name: name, token: nil, lastSeq: nil, spectator: false)
            await room.settled()
        }
    }

    @Test func aRoomNobodyFollowsMakesNoStream() async throws {
        let fixture = try await Fixture(hostFollows: false)
        let bob = FollowingLink(follows: false)
        await fixture.join(bob, name: "Bob")
        fixture.room.receive(.chat("hello"), from: fixture.host.id)
        await fixture.room.settled()
        #expect(fixture.streams.count == 0)
        #expect(fixture.host.drain().allSatisfy { !$0.streamed })
    }

    @Test func everyPatchGoesThroughTheStreamInOrderBeforeAnyoneGetsIt() async throws {
        let fixture = try await Fixture(hostFollows: true)
        let bob = FollowingLink(follows: false)
        await fixture.join(bob, name: "Bob")
        for line in ["one", "two", "three"] {
            fixture.room.receive(.chat(line), from: fixture.host.id)
        }
        await fixture.room.settled()
        let stream = try #require(fixture.streams.first)
        #expect(fixture.streams.count == 1, "one stream per room")
        let seqs = stream.appended.map(\.seq)
        #expect(seqs == Array(seqs.first!...seqs.last!), "in publish order, without gaps")
        #expect(stream.appended.first?.restart == true, "a new stream starts fresh")
        #expect(stream.appended.dropFirst().allSatisfy { !$0.restart })
        // Both members get the same stream messages, the one that does not follow included: it takes the plain
        // form, which the transport chooses per connection.
        let hostPatches = fixture.host.drain().filter { $0.type == "patch" }
        let bobPatches = bob.drain().filter { $0.type == "patch" }
        #expect(hostPatches.map(\.seq) == Array(seqs.suffix(hostPatches.count)))
        #expect(hostPatches.allSatisfy { $0.streamed && !$0.outside })
        #expect(bobPatches.allSatisfy { $0.streamed })
    }

    @Test func aJoinerOrAResumerMakesTheNextPatchAFreshStart() async throws {
        let fixture = try await Fixture(hostFollows: true)
        fixture.room.receive(.chat("before"), from: fixture.host.id)
        await fixture.room.settled()
        let stream = try #require(fixture.streams.first)
        let bob = FollowingLink()
        await fixture.join(bob, name: "Bob")
        let welcome = try #require(bob.drain().first)
        #expect(welcome.type == "welcome" && !welcome.streamed, "a welcome is never a stream message")
        let countBefore = stream.appended.count
        fixture.room.receive(.chat("after the join"), from: fixture.host.id)
        await fixture.room.settled()
        #expect(stream.appended[countBefore].restart, "the first patch Bob can read the stream from")
        #expect(bob.drain().first?.streamed == true)

        // Bob drops, misses two patches, and resumes: the replays are sent outside the stream, and the patch
        // his return causes starts the stream afresh.
        let token = try #require(welcome.json["token"]?.stringValue)
        let seq = stream.appended.last!.seq
        fixture.room.disconnected(bob.id)
        fixture.room.receive(.chat("while away"), from: fixture.host.id)
        fixture.room.receive(.chat("still away"), from: fixture.host.id)
        await fixture.room.settled()
        let back = FollowingLink()
        let appendedBefore = stream.appended.count
        fixture.room.join(back, name: nil, token: ResumeToken(token), lastSeq: seq, spectator: false)
        await fixture.room.settled()
        let received = back.drain()
        #expect(received.first?.type == "welcome")
        let replays = received.dropFirst().filter { $0.outside }
        #expect(replays.count >= 2 && replays.allSatisfy { $0.type == "patch" })
        #expect(replays.allSatisfy { !$0.streamed }, "the history keeps its patches without their stream form")
        let live = received.filter { $0.type == "patch" && !$0.outside }
        #expect(live.count == 1)
        #expect(stream.appended[appendedBefore].restart)
        #expect(stream.appended[appendedBefore].seq == live.first?.seq)
    }

    @Test func aDisposedRoomLetsItsStreamGo() async throws {
        let fixture = try await Fixture(hostFollows: true)
        fixture.room.receive(.chat("hello"), from: fixture.host.id)
        await fixture.room.settled()
        #expect(fixture.streams.first != nil)
        fixture.room.disconnected(fixture.host.id)
        await fixture.room.settled()
        // Second by second: the room keeps one timer (the turn, the seat, then the disposal) and sets the next on its
        // own thread once one fires, so a single long advance could return before the disposal timer exists.
        for _ in 0...Int(RoomConfiguration().emptyRoomGraceSeconds) {
            await fixture.timers.advance(by: 1) { await fixture.room.settled() }
            await fixture.room.settled()
        }
        #expect(await fixture.registry.count == 0)
        #expect(fixture.streams.first == nil, "the room still exists as an object, but its stream is gone")
    }
}
