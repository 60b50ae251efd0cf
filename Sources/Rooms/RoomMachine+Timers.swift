import WordGames

/// What happens by itself, on the room's timer: seats whose grace ran out, silent connections, away turns
/// passed on, and the room's own end once nobody is left.
extension RoomMachine {
    /// How long the room lives once nobody is connected: short when nobody but its creator ever joined it.
    var emptyGraceSeconds: Double {
        membership.creatorOnly
            ? min(configuration.creatorOnlyRoomGraceSeconds, configuration.emptyRoomGraceSeconds)
            : configuration.emptyRoomGraceSeconds
    }

    /// Wakes the room at the next moment something happens by itself: a turn or round deadline, a seat's grace
    /// period ending, a silent connection, or the room's own disposal.
    mutating func scheduleTimer(now: Double, into effects: inout [RoomEffect]) {
        var next = game.nextDeadline
        if let grace = membership.graceDeadline(resumeGraceSeconds: configuration.resumeGraceSeconds) {
            next = min(next ?? .infinity, grace)
        }
        if let emptySince = membership.emptySince {
            next = min(next ?? .infinity, emptySince + emptyGraceSeconds)
        }
        if let away = turns.awayDeadline(membership: membership, awaySeconds: configuration.awayTurnSeconds) {
            next = min(next ?? .infinity, away)
        }
        if let silence = membership.silenceDeadline(silenceSeconds: configuration.silenceSeconds) {
            next = min(next ?? .infinity, silence)
        }
        guard next != turns.timerDeadline else { return }
        turns.timerDeadline = next
        guard let next else {
            effects.append(.cancelTimer)
            return
        }
        // A little late rather than early: woken before the deadline, the room would find nothing due.
        effects.append(.schedule(after: max(0, next - now) + Self.timerSlack))
    }

    /// How long after a deadline the timer fires.
    static let timerSlack = 0.005

    /// Notes who has the turn; returns whether it is held by a player who is away.
    mutating func noteTurn(now: Double) -> Bool {
        if let known = turns.noted(gameVersion: gameVersion, membersVersion: membership.version) { return known }
        let current = game.currentTurn
        return turns.note(current: current, gameVersion: gameVersion, membership: membership, now: now)
    }

    /// Passes the turns of players who are away past their grace; true when any was passed.
    mutating func skipAwayTurns(now: Double) -> Bool {
        var skippedAny = false
        // Each pass moves the turn on by one; no more passes than players.
        for _ in 0..<max(1, membership.members.count) {
            guard let deadline = turns.awayDeadline(membership: membership, awaySeconds: configuration.awayTurnSeconds),
                  now >= deadline, let skipped = try? game.skipTurn(now: now) else { break }
            announce("\(displayName(of: skipped))'s turn was skipped: disconnected", .skip, now: now)
            skippedAny = true
            guard noteTurn(now: now) else { break }
        }
        return skippedAny
    }

    /// Removes the members whose seat waited `resumeGraceSeconds` for a resume in vain.
    mutating func releaseExpiredSeats(now: Double) {
        while let index = membership.expiredSeat(now: now, resumeGraceSeconds: configuration.resumeGraceSeconds) {
            removeForGood(index, now: now, notice: "\(membership.members[index].name) left", .leave)
        }
    }

    /// Closes the connections silent for `silenceSeconds` (a frozen or hidden page answers WebSocket pings but
    /// not the heartbeat); their members are away from now on, as after any disconnect.
    mutating func silenceQuietLinks(now: Double, into effects: inout [RoomEffect]) {
        let silence = configuration.silenceSeconds
        guard let deadline = membership.silenceDeadline(silenceSeconds: silence), now >= deadline else { return }
        for (linkID, heard) in membership.lastHeard where now >= heard + silence {
            membership.lastHeard[linkID] = nil
            guard let index = membership.index(linkID: linkID) else { continue }
            if let link = membership.members[index].link { effects.append(.close(link, .silent)) }
            membership.disconnect(index, now: now)
        }
    }

    /// Disposes of the room once nobody has been connected for the grace period.
    mutating func disposeIfAbandoned(now: Double, into effects: inout [RoomEffect]) -> Bool {
        guard let emptySince = membership.emptySince, now >= emptySince + emptyGraceSeconds else { return false }
        dispose(into: &effects)
        return true
    }

    /// Ends the room for good: the timer stops, the registry forgets it and the data directory drops it.
    mutating func dispose(into effects: inout [RoomEffect]) {
        disposed = true
        effects.append(.cancelTimer)
        effects.append(.disposed)
        publication.persistedVersion += 1
        effects.append(.forget(version: publication.persistedVersion))
    }
}
