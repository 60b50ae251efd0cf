import JSON
import WordGames

/// The player who creates its room: it connects first, and its welcome gives the room the code its other bots
/// join by. As the room's host it also starts each next game (see `PlayerBot`).
final class HostBot: PlayerBot, @unchecked Sendable {
    override func enterRoom() -> Bool {
        phase = .joining
        send(room.game.createMessage(name: name))
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
