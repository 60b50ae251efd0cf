import JSON
import Testing
import WordGames
@testable import Bots

/// The bots send each game's typed move as the server decodes it.
@Suite struct JSONValueEncoderTests {
    @Test func encodesEachGamesMoveAsTheWireHasIt() throws {
        let encoder = JSONValueEncoder()
        #expect(try encoder.encode(SnowmanGame.Move(letter: "e")) == ["type": "guess", "letter": "e"])
        #expect(try encoder.encode(ScrambleGame.Move.word("toast")) == ["type": "word", "word": "toast"])
        #expect(try encoder.encode(ScrambleGame.Move.ready) == ["type": "ready"])
    }

    private struct Nested: Encodable {
        var name = "a"
        var count = 3
        var ratio = 0.5
        var flags = [true, false]
        var inner = ["x": 1]
        var none: String? = nil
    }

    @Test func encodesNumbersListsNestedObjectsAndNulls() throws {
        let value = try JSONValueEncoder().encode(Nested())
        #expect(value == ["name": "a", "count": 3, "ratio": 0.5, "flags": [true, false], "inner": ["x": 1]])
        var withNull = Nested()
        withNull.none = "b"
        #expect(try JSONValueEncoder().encode(withNull)["none"] == "b")
    }

    @Test func aRoundTripThroughTheWriterAndParserKeepsTheMove() throws {
        let message = try JSONValueEncoder().encode(SnowmanGame.Move(letter: "q"))
        var bytes: [UInt8] = []
        JSONWriter().write(message, into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self).contains("\"letter\":\"q\""))
    }
}
