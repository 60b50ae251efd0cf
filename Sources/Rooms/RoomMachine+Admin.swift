import JSON
import WordGames

/// What the server's operator does to a room from the dashboard (`/admin`), as the machine sees it; `Room`'s
/// admin entry points run these in order with the room's other inputs.
extension RoomMachine {
    /// The room as the operator sees it: the public state every member has, plus who is connected (which the
    /// state does not say) and the room's own counters.
    func adminView() -> JSONValue {
        var people: [JSONValue] = []
        for index in membership.members.indices {
            let member = membership.members[index]
            people.append([
                "id": JSONValue(member.id.rawValue), "name": JSONValue(member.name),
                "spectator": JSONValue(member.isSpectator), "host": JSONValue(member.id == hostControls.host),
                "connected": JSONValue(member.linkID != nil),
            ])
        }
        return [
            "code": JSONValue(code.rawValue), "game": JSONValue(kind.rawValue), "status": JSONValue(game.status),
            "locked": JSONValue(hostControls.locked), "public": JSONValue(isPublic),
            "seq": JSONValue(publication.seq), "moves": JSONValue(movesPlayed), "members": .array(people),
            "state": state,
        ]
    }

    /// Locks the room to newcomers, or unlocks it; members see the state's `locked` change.
    mutating func adminSetLocked(_ locked: Bool, now: Double, into effects: inout [RoomEffect]) {
        guard hostControls.locked != locked else { return }
        hostControls.locked = locked
        publish(now: now, into: &effects)
    }

    /// Removes a member as the host's `kick` does, saying the operator did it.
    ///
    /// - Returns: false when no member has the id `id`.
    mutating func adminRemove(member id: String, now: Double, into effects: inout [RoomEffect]) -> Bool {
        guard let index = membership.index(named: id) else { return false }
        remove(index, error: RoomError(.removedByOperator(room: code)), close: .removedByOperator,
               notice: "was removed by the server's operator", now: now, into: &effects)
        publish(now: now, into: &effects)
        return true
    }

    /// Closes the room: every connected member gets `room-closed` and is closed, and the room is disposed of.
    mutating func adminClose(into effects: inout [RoomEffect]) {
        let error = ServerMessage.error(RoomError(.closedByOperator(room: code)))
        for index in membership.members.indices {
            guard let link = membership.members[index].link else { continue }
            effects.append(.send(link, error))
            effects.append(.close(link, .roomClosed))
        }
        dispose(into: &effects)
    }
}
