import JSON
import WordGames

/// A game bot's choice as the load tester sends it.
enum GameBotMessage {
    /// Send `message`, pending as `kind` until its patch or refusal.
    case play(JSONValue, kind: PendingMoves.Move.Kind, invalidOnPurpose: Bool)
    /// See `BotChoice.noMoveLeft`.
    case noMoveLeft
    case wait
}

extension GameBot {
    /// The `type`s of the game's moves (`GamePlugin.moveTypes`).
    static var moveTypeNames: Set<String> { Set(Game.moveTypes.map(\.type)) }

    /// The `create` message of a bot host: this game, with the bot's `hostSettings`.
    static func createMessage(name: String) -> JSONValue {
        var settings: JSONValue = [:]
        for (key, value) in hostSettings { settings[key] = JSONValue(value) }
        return ["type": "create", "game": .string(gameID), "name": .string(name), "settings": settings]
    }

    /// The bot's choice (`choose`) with its move encoded for the wire.
    ///
    /// - Throws: When the game's move does not encode (a bug of the game's `Move`).
    mutating func chooseMessage(in state: JSONGameState, you: String, waiting: Int, invalidShare: Double,
                                using random: inout SplitMix64) throws -> GameBotMessage {
        switch choose(in: state, you: you, waiting: waiting, invalidShare: invalidShare, using: &random) {
        case .wait: return .wait
        case .noMoveLeft: return .noMoveLeft
        case .play(let chosen):
            let message = try JSONValueEncoder().encode(chosen.move)
            return .play(message, kind: .game(shownAs: chosen.shownAs, expectedRefusals: chosen.expectedRefusals),
                         invalidOnPurpose: chosen.invalidOnPurpose)
        }
    }
}
