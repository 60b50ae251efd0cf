/// The registry's side of the operator dashboard (`/admin`): one cheap look at every room a second, and rooms
/// by code for the dashboard's actions.
extension RoomRegistry {
    /// One room as the dashboard's table lists it; read on the registry's thread without entering the room (its
    /// lobby summary, kept up to date by the room, and counters it keeps readable from any thread).
    public struct AdminEntry: Sendable, Equatable {
        public var code: RoomCode
        public var game: GameKind
        public var players: Int
        public var spectators: Int
        /// Members (players and spectators) with a live connection; the seat counts above include those whose
        /// connection dropped and whose seat is kept for a resume.
        public var connected: Int
        /// `waiting`, `playing` or `finished`; empty before the room's first summary arrived; `saved` for a room
        /// restored at start that nobody has needed yet (`DormantRoom`: its seats and moves read 0 until it wakes).
        public var status: String
        public var isPublic: Bool
        public var locked: Bool
        /// Moves played since the room was opened in this process.
        public var moves: Int
        /// When the room was created or restored, on the registry's clock.
        public var openedAt: Double

        public init(code: RoomCode, game: GameKind, players: Int, spectators: Int, connected: Int, status: String,
                    isPublic: Bool, locked: Bool, moves: Int, openedAt: Double) {
            self.code = code
            self.game = game
            self.players = players
            self.spectators = spectators
            self.connected = connected
            self.status = status
            self.isPublic = isPublic
            self.locked = locked
            self.moves = moves
            self.openedAt = openedAt
        }
    }

    /// Every room's entry, reported from the registry's thread. Costs one dictionary walk: no room is entered
    /// and no connection is looked at, so it can run every second with thousands of rooms.
    public nonisolated func withAdminEntries(_ body: @escaping @Sendable ([AdminEntry]) -> Void) {
        executor.execute { [self] in
            self.assumeIsolated { registry in body(registry.adminEntries()) }
        }
    }

    private func adminEntries() -> [AdminEntry] {
        var entries: [AdminEntry] = []
        entries.reserveCapacity(rooms.count + dormant.count)
        for (code, room) in rooms {
            let summary = summaries[code]
            entries.append(AdminEntry(
                code: code, game: room.kind, players: summary?.players ?? 0, spectators: summary?.spectators ?? 0,
                connected: room.connectedNow.load(ordering: .relaxed), status: summary?.status ?? "", isPublic: room.isPublic,
                locked: room.lockedNow.load(ordering: .relaxed), moves: room.movesPlayed.load(ordering: .relaxed),
                openedAt: room.openedAt))
        }
        // Restored at start and not needed since: listed from their records' front, with nothing running yet.
        for (code, room) in dormant {
            guard let head = room.head else { continue }
            entries.append(AdminEntry(
                code: code, game: head.kind, players: 0, spectators: 0, connected: 0, status: "saved",
                isPublic: head.isPublic, locked: false, moves: 0, openedAt: restoredAt))
        }
        return entries
    }
}
