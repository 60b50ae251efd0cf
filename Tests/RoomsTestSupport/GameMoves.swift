import JSON
import Rooms

/// The registered games and their moves by name, for tests: the server itself names no game outside its folder.
extension GameKind {
    public static let snowman = GameKind(rawValue: "snowman")!
    public static let scramble = GameKind(rawValue: "scramble")!
}

extension ClientMessage {
    /// Snowman's `guess`: `{"type":"guess","letter":"e"}`.
    public static func guess(_ letter: String) -> ClientMessage {
        .move(GameMove(type: "guess", fields: ["letter": JSONValue(letter)]))
    }

    /// Word Scramble's `word`: `{"type":"word","word":"toast"}`.
    public static func word(_ word: String) -> ClientMessage {
        .move(GameMove(type: "word", fields: ["word": JSONValue(word)]))
    }

    /// Word Scramble's `ready`, between rounds: `{"type":"ready"}`.
    public static let ready = ClientMessage.move(GameMove(type: "ready", fields: [:]))
}
