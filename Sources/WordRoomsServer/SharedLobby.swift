import Dispatch
import JSON
import Rooms
import Transport
import Runtime
import Synchronization

/// The public room list of every instance, through Redis: each instance writes its own public rooms under
/// `wordrooms:rooms:<shard>` with a short expiry, refreshed every couple of seconds, and `GET /api/rooms` reads
/// them all (at most once a second, see `listingSeconds`). An instance that stops simply drops out when its key
/// expires.
final class SharedLobby: Sendable {
    static let keyPrefix = "wordrooms:rooms:"
    static let refreshSeconds = 2
    static let expirySeconds = 10

    private let worker = ThreadExecutor(name: "redis")
    private let client: UncheckedBox<RedisClient>
    private let registry: RoomRegistry
    private let key: String
    /// The rooms of every instance as last read, and when (monotonic seconds).
    private let cached = Mutex<(listing: LobbyListing, readAt: Double)?>(nil)
    /// How long the rooms read from Redis answer requests before Redis is read again: every instance refreshes
    /// its share only every `refreshSeconds`, and reading for every request made each one a `KEYS` and an `MGET`.
    static let listingSeconds = 1.0

    init(address: String, shard: Int?, registry: RoomRegistry) {
        client = UncheckedBox(RedisClient(address: address))
        self.registry = registry
        key = Self.keyPrefix + String(shard ?? 0)
        scheduleRefresh()
    }

    /// Publishes this instance's rooms now and then every `refreshSeconds`.
    private func scheduleRefresh() {
        registry.withPublicRooms { [self] rooms in
            let value = JSONWriter().serialize(.array(rooms.map(\.json)))
            worker.execute { [self] in
                do {
                    let reply = try client.value.command("SET", key, String(decoding: value, as: UTF8.self),
                                                         "EX", String(Self.expirySeconds))
                    if case .error(let message) = reply { Log.error("Redis refused the lobby update: \(message)") }
                } catch {
                    Log.error("shared lobby: \(error)")
                }
            }
            worker.schedule(after: Double(Self.refreshSeconds)) { [weak self] in
                self?.scheduleRefresh()
            }
        }
    }

    /// The public rooms of every instance if they were read from Redis less than `listingSeconds` ago, from any
    /// thread; nil: ask `withListing`.
    func latestListing() -> LobbyListing? {
        let now = MonotonicClock.seconds()
        return cached.withLock { cached in
            guard let cached, now - cached.readAt < Self.listingSeconds else { return nil }
            return cached.listing
        }
    }

    /// Hands `completion` the public rooms of every instance (this instance's own when Redis is down), from the
    /// lobby's thread or the registry's. Requests that queue while Redis is read share the reading.
    func withListing(_ completion: @escaping @Sendable (LobbyListing) -> Void) {
        worker.execute { [self] in
            if let listing = latestListing() { return completion(listing) }
            guard let fetched = fetchAll() else {
                registry.withLobbyListing(completion)
                return
            }
            let listing = cached.withLock { cached in
                let listing = LobbyListing(version: (cached?.listing.version ?? 0) + 1,
                                           entries: fetched.compactMap(LobbyListing.Entry.init))
                cached = (listing, MonotonicClock.seconds())
                return listing
            }
            completion(listing)
        }
    }

    private func fetchAll() -> [JSONValue]? {
        do {
            guard case .array(let keys?) = try client.value.command("KEYS", Self.keyPrefix + "*") else { return nil }
            let names = keys.compactMap { value -> String? in
                if case .bulk(let bytes?) = value { return String(decoding: bytes, as: UTF8.self) }
                return nil
            }
            guard !names.isEmpty else { return [] }
            guard case .array(let values?) = try client.value.command(["MGET"] + names) else { return nil }
            var rooms: [JSONValue] = []
            for case .bulk(let bytes?) in values {
                if let list = try? JSONParser().parse(bytes).arrayValue {
                    rooms += list
                }
            }
            return rooms
        } catch {
            Log.error("shared lobby: \(error)")
            return nil
        }
    }

    /// Takes this instance's rooms out of the shared lobby at once (rather than when the key expires), then stops.
    func stop() {
        let done = DispatchSemaphore(value: 0)
        worker.execute { [self] in
            _ = try? client.value.command("DEL", key)
            done.signal()
        }
        _ = done.wait(timeout: .now() + 3)
        worker.stop()
    }
}

/// A non-Sendable value used only on one serial worker thread.
final class UncheckedBox<T>: @unchecked Sendable {
    let value: T

    init(_ value: T) {
        self.value = value
    }
}
