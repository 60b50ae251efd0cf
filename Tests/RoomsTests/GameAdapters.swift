import JSON
@testable import Rooms
import WordGames

/// The framework's adapter of each registered game, by the names the room tests use.
typealias SnowmanRoomGame = PluginRoomGame<SnowmanGame>
typealias ScrambleRoomGame = PluginRoomGame<ScrambleGame>

extension GameMove {
    /// A move of one argument as the tests write it: Snowman's letter, Word Scramble's word (none for `ready`).
    init(type: String, text: String) {
        switch type {
        case "guess": self.init(type: type, fields: ["letter": JSONValue(text)])
        case "ready": self.init(type: type, fields: [:])
        default: self.init(type: type, fields: ["word": JSONValue(text)])
        }
    }
}
