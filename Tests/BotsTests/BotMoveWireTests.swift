import JSON
import Testing
import WordGames
@testable import Bots

/// The bots send each game's typed move (encoded by the JSON module's `JSONValueEncoder`) as the server decodes it.
@Suite struct BotMoveWireTests {
    @Test func encodesEachGamesMoveAsTheWireHasIt() throws {
        let encoder = JSONValueEncoder()
        #expect(try encoder.encode(SnowmanGame.Move(letter: "e")) == ["type": "guess", "letter": "e"])
        #expect(try encoder.encode(ScrambleGame.Move.word("toast")) == ["type": "word", "word": "toast"])
        #expect(try encoder.encode(ScrambleGame.Move.ready) == ["type": "ready"])
    }

    @Test func aRoundTripThroughTheWriterAndParserKeepsTheMove() throws {
        let message = try JSONValueEncoder().encode(SnowmanGame.Move(letter: "q"))
        var bytes: [UInt8] = []
        JSONWriter().write(message, into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self).contains("\"letter\":\"q\""))
    }
}
