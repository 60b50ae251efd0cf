/// A spectator of a room: joins once the room exists and follows its state, checking every patch and snapshot
/// against the room's shared state, and never moves. What it measures is delivery: a move's patch reaching
/// every member (`BotStats.patchDelivery`).
final class SpectatorBot: RoomBot, @unchecked Sendable {
    override func enterRoom() -> Bool {
        join(asSpectator: true)
    }
}
