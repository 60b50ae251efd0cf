import WordGames

/// Whose turn it is and when the room must wake by itself: the turn of a player who is away passes on after
/// `awayTurnSeconds`, and the soonest of all the room's deadlines is the one the timer is set for. Part of
/// `RoomMachine`.
struct RoomTurns {
    /// Who has the turn (Snowman) and since when, to pass the turn of a player who is away.
    private(set) var holder: (player: PlayerID, since: Double)?
    /// Whether `holder` is away, as of the game and member versions in `notedVersions`.
    private var holderAway = false
    private var notedVersions = (game: -1, members: -1)
    /// The deadline the timer is set for (the soonest of the room's), nil when none is.
    var timerDeadline: Double?

    /// Whether the holder is away, as noted last, when neither the game nor the members changed since; nil
    /// when `note` must look again. Most inputs change neither: the answer then stands.
    func noted(gameVersion: Int, membersVersion: Int) -> Bool? {
        notedVersions == (gameVersion, membersVersion) ? holderAway : nil
    }

    /// Notes who has the turn (`current`); returns whether it is held by a player who is away (then the machine
    /// looks at whether to pass it).
    mutating func note(current: PlayerID?, gameVersion: Int, membership: RoomMembership, now: Double) -> Bool {
        notedVersions = (gameVersion, membership.version)
        holderAway = false
        guard let current else {
            holder = nil
            return false
        }
        if holder?.player != current { holder = (current, now) }
        guard let index = membership.index(id: current) else { return false }
        holderAway = membership.members[index].linkID == nil
        return holderAway
    }

    /// When the turn of its holder, who is away, passes on: `awaySeconds` after they left or got the turn,
    /// whichever came later. Nil when nobody else is connected to take the turn (passing it would only bring it
    /// back to them, over and over).
    func awayDeadline(membership: RoomMembership, awaySeconds: Double) -> Double? {
        guard let holder, let index = membership.index(id: holder.player),
              let away = membership.members[index].disconnectedAt else { return nil }
        let members = membership.members
        var anotherPlayerHere = false
        for other in members.indices where other != index && !members[other].isSpectator
            && members[other].linkID != nil {
            anotherPlayerHere = true
            break
        }
        guard anotherPlayerHere else { return nil }
        return max(away, holder.since) + awaySeconds
    }
}
