import JSON

/// What the server's operator can do to a room from the dashboard (`/admin`): look at it, lock it, remove a
/// member, close it. Each runs on the room's executor, in order with the room's other inputs, and reports back
/// from there.
extension Room {
    /// How an operator's action on a room ended.
    public enum AdminOutcome: Sendable, Equatable {
        case done
        /// The room was disposed of (or closed) before the action reached it.
        case roomGone
        /// No member has the id given.
        case noSuchMember
    }

    /// Runs `body` on the room's executor, or reports `roomGone` when the room is already disposed of.
    private nonisolated func administer(_ completion: @escaping @Sendable (AdminOutcome) -> Void,
                                        _ body: @escaping @Sendable (isolated Room) -> AdminOutcome) {
        executor.execute { [self] in
            self.assumeIsolated { room in
                completion(room.machine.disposed ? .roomGone : body(room))
            }
        }
    }

    /// The room as the operator sees it: the public state every member has, plus who is connected (which the
    /// state does not say) and the room's own counters. Nil once the room is gone.
    public nonisolated func adminInspect(_ completion: @escaping @Sendable (JSONValue?) -> Void) {
        executor.execute { [self] in
            self.assumeIsolated { room in
                completion(room.machine.disposed ? nil : room.machine.adminView())
            }
        }
    }

    /// Locks the room to newcomers (joins get `room-locked`; resumes still work), or unlocks it. Members see the
    /// state's `locked` change, as when the host does it.
    public nonisolated func adminSetLocked(_ locked: Bool, completion: @escaping @Sendable (AdminOutcome) -> Void) {
        administer(completion) { room in
            var effects = room.takeEffectBuffer()
            room.machine.adminSetLocked(locked, now: room.clock(), into: &effects)
            room.run(&effects)
            return .done
        }
    }

    /// Removes a member as the host's `kick` does: they get `kicked` (saying the operator did it) and close 4001,
    /// and their browser and token are banned from the room (the host can lift it with `unban`).
    public nonisolated func adminRemove(member id: String, completion: @escaping @Sendable (AdminOutcome) -> Void) {
        administer(completion) { room in
            var effects = room.takeEffectBuffer()
            let found = room.machine.adminRemove(member: id, now: room.clock(), into: &effects)
            room.run(&effects)
            return found ? .done : .noSuchMember
        }
    }

    /// Closes the room: every connected member gets `room-closed` and close 4001, and the room is disposed of
    /// (gone from the lobby, the registry and the data directory).
    public nonisolated func adminClose(completion: @escaping @Sendable (AdminOutcome) -> Void) {
        administer(completion) { room in
            var effects = room.takeEffectBuffer()
            room.machine.adminClose(into: &effects)
            room.run(&effects)
            return .done
        }
    }
}
