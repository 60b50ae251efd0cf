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
                completion(room.disposed ? .roomGone : body(room))
            }
        }
    }

    /// The room as the operator sees it: the public state every member has, plus who is connected (which the
    /// state does not say) and the room's own counters. Nil once the room is gone.
    public nonisolated func adminInspect(_ completion: @escaping @Sendable (JSONValue?) -> Void) {
        executor.execute { [self] in
            self.assumeIsolated { room in
                completion(room.disposed ? nil : room.adminView())
            }
        }
    }

    private func adminView() -> JSONValue {
        var people: [JSONValue] = []
        for index in members.indices {
            let member = members[index]
            people.append([
                "id": JSONValue(member.id.rawValue), "name": JSONValue(member.name),
                "spectator": JSONValue(member.isSpectator), "host": JSONValue(member.id == host),
                "connected": JSONValue(member.linkID != nil),
            ])
        }
        return [
            "code": JSONValue(code.rawValue), "game": JSONValue(kind.rawValue), "status": JSONValue(game.status),
            "locked": JSONValue(locked), "public": JSONValue(isPublic), "seq": JSONValue(seq),
            "moves": JSONValue(movesPlayed.load(ordering: .relaxed)), "members": .array(people), "state": state,
        ]
    }

    /// Locks the room to newcomers (joins get `room-locked`; resumes still work), or unlocks it. Members see the
    /// state's `locked` change, as when the host does it.
    public nonisolated func adminSetLocked(_ locked: Bool, completion: @escaping @Sendable (AdminOutcome) -> Void) {
        administer(completion) { room in
            guard room.locked != locked else { return .done }
            room.locked = locked
            room.publish(now: room.clock())
            return .done
        }
    }

    /// Removes a member as the host's `kick` does: they get `kicked` (saying the operator did it) and close 4001,
    /// and their browser and token are banned from the room (the host can lift it with `unban`).
    public nonisolated func adminRemove(member id: String, completion: @escaping @Sendable (AdminOutcome) -> Void) {
        administer(completion) { room in
            guard let index = room.members.firstIndex(where: { $0.id.rawValue == id }) else { return .noSuchMember }
            let removed = room.members[index]
            let now = room.clock()
            room.banCounter += 1
            room.bans.append(Ban(id: "b\(room.banCounter)", name: removed.name, token: removed.token,
                                 client: removed.client, address: removed.address))
            if room.bans.count > room.configuration.maxBans {
                room.bans.removeFirst(room.bans.count - room.configuration.maxBans)
            }
            removed.link?.send(.error(RoomError(.removedByOperator(room: room.code))))
            removed.link?.close(.removedByOperator)
            room.removeForGood(index, now: now, notice: "\(removed.name) was removed by the server's operator", .kick)
            room.publish(now: now)
            return .done
        }
    }

    /// Closes the room: every connected member gets `room-closed` and close 4001, and the room is disposed of
    /// (gone from the lobby, the registry and the data directory).
    public nonisolated func adminClose(completion: @escaping @Sendable (AdminOutcome) -> Void) {
        administer(completion) { room in
            let error = ServerMessage.error(RoomError(.closedByOperator(room: room.code)))
            for index in room.members.indices {
                guard let link = room.members[index].link else { continue }
                link.send(error)
                link.close(.roomClosed)
            }
            room.dispose()
            return .done
        }
    }
}
