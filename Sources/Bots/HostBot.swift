import JSON

/// The player who creates its room: it connects first, and its welcome gives the room the code its other bots
/// join by. As the room's host it also starts each next game (see `PlayerBot`).
final class HostBot: PlayerBot, @unchecked Sendable {
    /// Short rounds so that matches cycle within a run (with the 10-second breaks load runs were measured with,
    /// not the default 20); no turn timer, so Snowman turns wait for the bot.
    static let scrambleSettings: JSONValue = ["rounds": 3, "roundSeconds": 30, "minWordLength": 3,
                                                      "breakSeconds": 10]
    static let snowmanSettings: JSONValue = ["maxWrongGuesses": 7]

    override func enterRoom() -> Bool {
        phase = .joining
        send(["type": "create", "game": .string(room.game.rawValue), "name": .string(name),
              "settings": room.game == .scramble ? Self.scrambleSettings : Self.snowmanSettings])
        return true
    }

    override func joined(code: String, now: UInt64) {
        worker.stats.roomsCreated += 1
        room.code = code
        room.createdAt = now
        worker.roomReady(room)
    }

    override func entryFailed() {
        if room.code == nil { worker.stats.roomsFailed += 1 }
    }
}
