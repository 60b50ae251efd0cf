import Testing
import JSON
@testable import Rooms
import RoomsTestSupport

/// A private room's key: 96 bits from `SecureRandom`, 16 base64url characters.
@Suite struct RoomKeyTests {
    @Test func randomKeysAreSixteenBase64URLCharactersAndDiffer() {
        let keys = (0..<500).map { _ in RoomKey.random() }
        #expect(Set(keys).count == keys.count)
        for key in keys {
            #expect(key.rawValue.utf8.count == 16)
            #expect(RoomKey(key.rawValue) == key)
        }
    }

    @Test(arguments: ["", "short", "AAAAAAAAAAAAAAA", "AAAAAAAAAAAAAAAAA", "AAAAAAAAAAAAAAA=", "AAAAAAAA AAAAAAA",
                      "AAAAAAAAAAAAAAA/"])
    func refusesWhatIsNotAKey(text: String) {
        #expect(RoomKey(text) == nil)
    }

    @Test func matchesOnlyItself() throws {
        let key = try #require(RoomKey("abcDEF0123456-_x"))
        #expect(key.matches(RoomKey("abcDEF0123456-_x")))
        #expect(!key.matches(RoomKey("abcDEF0123456-_y")))
        #expect(!key.matches(nil))
    }

    @Test func aPrivateRoomHasAKeyThatIsSavedWithIt() async throws {
        let registry = RoomRegistry(lists: RoomTests.lists)
        let secret = try await registry.create(.snowman, isPublic: false, settings: [:], creator: MemoryLink(),
                                               name: "Ana")
        let open = try await registry.create(.snowman, isPublic: true, settings: [:], creator: MemoryLink(),
                                             name: "Bo")
        let key = try #require(secret.key)
        #expect(open.key == nil)
        #expect(await registry.room(secret.code, key: nil) == nil, "the code alone finds nothing")
        #expect(await registry.room(secret.code, key: RoomKey("AAAAAAAAAAAAAAAA")) == nil)
        #expect(await registry.room(secret.code, key: key) === secret)
        #expect(await registry.room(open.code, key: nil) === open)
        let saved = await secret.record(version: 1).json
        let restored = try RoomRecord(saved: saved, format: 3)
        #expect(restored.key == key.rawValue)
    }

    /// `--bench-keyless-rooms`: the shared benchmark client joins private rooms by code, as before keys.
    @Test func withoutKeysAPrivateRoomOpensByItsCode() async throws {
        var configuration = RoomConfiguration()
        configuration.privateRoomKeys = false
        let registry = RoomRegistry(lists: RoomTests.lists, configuration: configuration)
        let room = try await registry.create(.snowman, isPublic: false, settings: [:], creator: MemoryLink(),
                                             name: "Ana")
        #expect(room.key == nil)
        #expect(await registry.room(room.code, key: nil) === room)
    }
}
