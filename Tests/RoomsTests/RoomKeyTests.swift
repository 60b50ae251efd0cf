import Testing
@testable import Rooms

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
}
