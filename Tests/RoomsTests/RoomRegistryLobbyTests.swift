import Runtime
import Synchronization
import Testing
@testable import Rooms
import RoomsTestSupport

/// The registry's lobby listing: served as built while no room changes, rebuilt at most ten times a second for
/// requests, and the subscribers' page kept in step.
@Suite struct RoomRegistryLobbyTests {
    private static func listing(_ registry: RoomRegistry) async -> LobbyListing {
        await withCheckedContinuation { continuation in
            registry.withLobbyListing { continuation.resume(returning: $0) }
        }
    }

    @Test func requestsShareOneListingUntilARoomChanges() async throws {
        let fixture = try await RoomTests.Fixture()
        let first = await Self.listing(fixture.registry)
        #expect(first.entries.map(\.code) == [fixture.room.code.rawValue])
        // Nothing changed: every request gets the same listing, from any thread, its pages cached.
        #expect(fixture.registry.latestLobbyListing() === first)
        #expect(await Self.listing(fixture.registry) === first)

        // Bob joins: the listing is out of date, and a request within 0.1 s of the last build waits for the next.
        let bob = fixture.join("Bob")
        await fixture.room.settled()
        _ = await fixture.registry.count
        #expect(fixture.registry.latestLobbyListing() == nil)
        let answered = Mutex<[LobbyListing]>([])
        for _ in 0..<3 {
            fixture.registry.withLobbyListing { listing in answered.withLock { $0.append(listing) } }
        }
        _ = await fixture.registry.count
        #expect(answered.withLock { $0.isEmpty })
        await fixture.timers.advance(by: RoomRegistry.lobbyRebuildInterval) { _ = await fixture.registry.count }
        let rebuilt = answered.withLock { $0 }
        // One rebuild answered all three, with Bob counted.
        #expect(rebuilt.count == 3)
        #expect(rebuilt.allSatisfy { $0 === rebuilt[0] })
        #expect(rebuilt.first?.entries.first?.players == 2)
        #expect(rebuilt.first?.version == first.version + 1)
        #expect(fixture.registry.latestLobbyListing() === rebuilt.first)
        _ = bob
    }

    @Test func subscribersGetTheFirstPageThenADelta() async throws {
        let fixture = try await RoomTests.Fixture()
        let watcher = MemoryLink()
        await fixture.registry.subscribe(watcher, game: .snowman)
        let whole = watcher.drain()
        #expect(whole.map { $0["type"]?.stringValue } == ["lobby"])
        #expect(whole.first?["rooms"]?.arrayValue?.count == 1)

        _ = fixture.join("Bob")
        await fixture.room.settled()
        _ = await fixture.registry.count
        #expect(watcher.drain().isEmpty, "updates wait for the coalescing timer")
        await fixture.timers.advance(by: RoomRegistry.lobbyUpdateInterval) { _ = await fixture.registry.count }
        let delta = watcher.drain()
        #expect(delta.map { $0["type"]?.stringValue } == ["lobby-delta"])
        #expect(delta.first?["rooms"]?[0]?["players"]?.intValue == 2)

        await fixture.registry.unsubscribe(watcher.id)
        _ = fixture.join("Cleo")
        await fixture.room.settled()
        await fixture.timers.advance(by: RoomRegistry.lobbyUpdateInterval) { _ = await fixture.registry.count }
        #expect(watcher.drain().isEmpty)
    }
}
