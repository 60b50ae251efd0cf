import Dispatch
import JSON
import Rooms
import Transport
import Runtime

/// The public room list of every instance, through Redis: each instance writes its own public rooms under
/// `wordrooms:rooms:<shard>` with a short expiry, refreshed every couple of seconds, and `GET /api/rooms` reads
/// them all. An instance that stops simply drops out when its key expires.
final class SharedLobby: Sendable {
    static let keyPrefix = "wordrooms:rooms:"
    static let refreshSeconds = 2
    static let expirySeconds = 10

    private let worker = ThreadExecutor(name: "redis")
    private let client: UncheckedBox<RedisClient>
    private let registry: RoomRegistry
    private let key: String

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

    /// `{"rooms": [...]}` with the public rooms of every instance (this instance's own when Redis is down),
    /// handed to `completion` from the lobby's thread or the registry's.
    func withAllRoomsJSON(_ completion: @escaping @Sendable ([UInt8]) -> Void) {
        worker.execute { [self] in
            guard let fetched = fetchAll() else {
                registry.withPublicRooms { completion(RoomSummary.listJSON($0)) }
                return
            }
            let sorted = fetched.sorted {
                let (left, right) = ($0["players"]?.intValue ?? 0, $1["players"]?.intValue ?? 0)
                return left != right ? left > right : ($0["code"]?.stringValue ?? "") < ($1["code"]?.stringValue ?? "")
            }
            completion(JSONWriter().serialize(["rooms": .array(sorted)]))
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
