/// Limits and grace periods of rooms. Defaults are what a host of a friends' game expects.
public struct RoomConfiguration: Sendable {
    /// Players per room (spectators not counted).
    public var maxPlayers = 16
    /// Spectators per room.
    public var maxSpectators = 256
    /// Rooms per server.
    public var maxRooms = 10_000
    /// How long a dropped player's seat and score wait for them to resume.
    public var resumeGraceSeconds: Double = 120
    /// How long a room with nobody connected lives on.
    public var emptyRoomGraceSeconds: Double = 300
    /// Chat lines kept in the room state.
    public var chatHistory = 30
    /// How long the turn of a player who disconnected waits for them before it passes to the next player.
    public var awayTurnSeconds: Double = 10
    /// How long a connection that keeps the heartbeat (it sent a `ping` while seated) may stay silent before it is
    /// closed and its member counts as away: a frozen or hidden page stops its heartbeat, not its socket.
    public var silenceSeconds: Double = 15
    /// Bans kept per room (the oldest is lifted when a host removes more).
    public var maxBans = 64
    /// Patches kept for clients that resume; a longer gap gets a snapshot.
    public var patchHistory = 256
    /// Bytes of patches kept for resumes, per room, whatever their number, packed (`PatchPacking`): a resume that
    /// missed more gets the whole state, which is then about as large as the replay would be (a busy room's state
    /// is 8-10 KB of JSON). Packed, a patch of the game loads takes 148 bytes for its 413 of JSON (0.36), so 3 KiB
    /// holds what 8 KiB of plain JSON did: about 20 patches of a benchmark room (8 bots, 8 moves a second), minutes
    /// of a friends' game.
    public var patchHistoryBytes = 3 * 1024
    /// Rooms alive at once created from one client address (its `AddressBuckets` key); loopback is not limited.
    /// One address filled the server's 10,000 rooms in 90 s by creating and leaving private rooms.
    public var maxRoomsPerAddress = 20
    /// How long a room that nobody but its creator ever joined lives on once its creator is gone, instead of
    /// `emptyRoomGraceSeconds`: such a room is an abandoned attempt (or an attack), and holds a slot of `maxRooms`.
    public var creatorOnlyRoomGraceSeconds: Double = 45
    /// What the room's chat, renames and reactions may cost in broadcast bytes a second (the message's bytes
    /// times its recipients), bursts of twice as much; beyond it the sender gets `room-busy` and nothing is sent.
    /// 250 connections of one address chatting in one room inside their own rate made the server send 3.4 GB
    /// in 15 s. 1 MiB a second is a chat line of 200 characters to 256 members about eleven times a second, and
    /// leaves room for the benchmarks' fan-out run (2 players chatting to 200 spectators, about 0.5 MB a second).
    public var chatBudgetBytesPerSecond = 1 << 20
    /// Members (players and spectators) one client address may have in a room at once; loopback is not limited.
    public var maxMembersPerAddress = 8
    /// Private rooms get a key that their link carries (`RoomKey`). Off (`--bench-keyless-rooms`) they open by
    /// their code alone, as before keys, for benchmark clients that predate them; never for real players.
    public var privateRoomKeys = true

    public init() {}
}
