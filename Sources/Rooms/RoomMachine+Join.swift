import JSON
import WordGames

/// Coming into a room: joins, resumes, a browser taking its seat back, and what someone about to join sees.
/// See PROTOCOL.md, "Seats follow the browser".
extension RoomMachine {
    /// Seats the joiner, or refuses with an `error` saying why.
    ///
    /// - Returns: Whether the connection is now a member.
    mutating func join(_ request: JoinRequest, now: Double, into effects: inout [RoomEffect]) -> Bool {
        let link = request.link
        if let refusal = refusal(of: request) {
            effects.append(.send(link, .error(refusal.refusing("join"))))
            return false
        }
        if let token = request.token, let index = membership.members.firstIndex(where: { $0.token.matches(token) }) {
            resume(index, link: link, lastSeq: request.lastSeq, client: request.client, now: now, into: &effects)
            return true
        }
        // The browser's seat, for a tab without a token (or whose token another tab's takeover replaced).
        if let seated = rejoinByClient(request, now: now, into: &effects) { return seated }
        guard let rawName = request.name else {
            guard request.token != nil else { return false }
            effects.append(.send(link, .error(RoomError(.seatExpired(room: code)).refusing("join"))))
            return false
        }
        let cleaned: String
        do {
            cleaned = try newcomerName(rawName, request: request)
        } catch {
            effects.append(.send(link, .error(error.refusing("join"))))
            return false
        }
        // The first member ever is the creator; anyone after them makes the room a real one (a creator who
        // comes back gets their past id, so the counter stays at one).
        let firstEver = membership.memberCounter == 0
        var member = Member(
            id: membership.newMemberID(spectator: request.spectator, client: request.client),
            name: NameRules.distinct(cleaned, among: membership.members.map(\.name)),
            token: ResumeToken.random(), client: request.client, isSpectator: request.spectator, link: link,
            disconnectedAt: nil)
        member.address = link.address
        membership.creatorOnly = firstEver || (membership.creatorOnly && membership.memberCounter == 1)
        // The room's first member created it: nobody is there to hear that they joined.
        if !membership.members.isEmpty { announce("\(member.name) joined", .join, now: now) }
        membership.members.append(member)
        // A browser back in its old id may come with another name: its standings take the new one.
        if let client = request.client, membership.pastSeats[client] == member.id {
            game.renamePlayer(member.id, to: member.name)
        }
        if !request.spectator {
            game.addPlayer(Player(id: member.id, name: member.name), now: now)
            if hostControls.host == nil { makeHost(member.id, now: now, announced: membership.members.count > 1) }
        }
        membership.emptySince = nil
        publish(now: now, except: link.id, into: &effects)
        effects.append(.send(link, welcome(member, withState: true, now: now)))
        return true
    }

    /// A ban on the joiner's token or browser: refused before anything else.
    private func refusal(of request: JoinRequest) -> RoomError? {
        hostControls.bans(token: request.token, client: request.client) ? RoomError(.banned(room: code)) : nil
    }

    /// The cleaned name of a newcomer, once the room has a seat for them.
    ///
    /// - Throws: Why a new seat is refused: banned address, locked room, bad name, crowded address, no seat left.
    private func newcomerName(_ rawName: String, request: JoinRequest) throws(RoomError) -> String {
        let address = request.link.address
        // A new seat only: members of a removed player's network already in the room may still resume.
        if hostControls.isBanned(address: address) { throw RoomError(.banned(room: code)) }
        guard !hostControls.locked else { throw RoomError(.roomLocked(room: code)) }
        let cleaned = try NameRules.clean(rawName)
        if let address, membership.connected(from: address) >= configuration.maxMembersPerAddress {
            throw RoomError(.tooManyMembersFromAddress(room: code, limit: configuration.maxMembersPerAddress))
        }
        let (players, spectators) = membership.headcount()
        if request.spectator {
            guard spectators < configuration.maxSpectators else {
                throw RoomError(.noSpectatorSeats(room: code, maxSpectators: configuration.maxSpectators))
            }
        } else {
            guard players < configuration.maxPlayers else {
                throw RoomError(.noPlayerSeats(room: code, maxPlayers: configuration.maxPlayers))
            }
        }
        return cleaned
    }

    /// A join without a token that matches a seat, from a browser (`client`) that has a seat here: resumes that
    /// seat when nobody holds it, or when the join asks to take it over; refuses with `seat-in-use` while another
    /// connection holds it. A spectator's join then gets a spectator's member of its own (a second tab watching).
    ///
    /// - Returns: Whether the connection is now a member, or nil when the browser has no seat to come back to
    ///   (the join goes on as a newcomer's).
    private mutating func rejoinByClient(_ request: JoinRequest, now: Double,
                                         into effects: inout [RoomEffect]) -> Bool? {
        guard let client = request.client else { return nil }
        // Its player's seat before a spectator's seat it opened to watch from another tab.
        var found: Int?
        for index in membership.members.indices where membership.members[index].client == client {
            if found == nil || (membership.members[found!].isSpectator && !membership.members[index].isSpectator) {
                found = index
            }
        }
        guard let index = found else { return nil }
        if membership.members[index].link != nil && !request.takeover {
            // Watching from this tab: a spectator's member of its own beside the seat the other tab keeps.
            if request.spectator { return nil }
            effects.append(.send(request.link, .error(RoomError(.seatInUse(room: code), move: "join"))))
            return false
        }
        if let old = membership.members[index].linkID { membership.lastHeard[old] = nil }
        // The seat moves to this tab: the tab that had it (asleep, or told `replaced`) no longer resumes it by
        // itself, its token gets `seat-in-use` and the player chooses again there.
        membership.members[index].token = ResumeToken.random()
        resume(index, link: request.link, lastSeq: nil, client: client, now: now, into: &effects)
        return true
    }

    /// Gives the seat at `index` to `link`: the link that had it is told `replaced` and closed, and the resumer
    /// gets what it missed (or the whole state), then the change its return causes.
    mutating func resume(_ index: Int, link: any ClientLink, lastSeq: Int?, client: ClientID?, now: Double,
                         into effects: inout [RoomEffect]) {
        if let client { membership.members[index].client = client }
        membership.members[index].address = link.address
        if let old = membership.members[index].link, old.id != link.id {
            effects.append(.send(old, .error(RoomError(.replaced(room: code)))))
            effects.append(.close(old, .replaced))
        }
        membership.members[index].link = link
        membership.members[index].disconnectedAt = nil
        membership.emptySince = nil
        // A seq from before a restart other than the saved one may name a state this process never had.
        let trusted = membership.members[index].restoredSeq.map { $0 == lastSeq } ?? true
        membership.members[index].restoredSeq = nil
        let member = membership.members[index]
        if trusted, let lastSeq, let missed = publication.history.messages(after: lastSeq, lastSeq: publication.seq) {
            effects.append(.send(link, welcome(member, withState: false, seq: lastSeq, now: now)))
            for message in missed { effects.append(.send(link, message)) }
        } else {
            effects.append(.send(link, welcome(member, withState: true, now: now)))
        }
        publishSoon(into: &effects)
    }

    /// Publishes once the inputs queued now have been applied: when a restart or a network drop brings a whole
    /// room back (or takes it away) at once, its members' comings and goings make one patch instead of one each
    /// (a storm of 10,000 resumes made 10,000 patches, each diffed and sent to the room). Alone, the patch goes
    /// out at once, since nothing else is queued; any publish before it carries the change.
    mutating func publishSoon(into effects: inout [RoomEffect]) {
        guard !publication.publishQueued else { return }
        publication.publishQueued = true
        effects.append(.publishSoon)
    }

    /// The publish `publishSoon` queued, unless a publish since carried the change.
    mutating func publishIfQueued(now: Double, into effects: inout [RoomEffect]) {
        guard publication.publishQueued, !disposed else { return }
        publish(now: now, into: &effects)
        // Publishing settles the game: a player gone who was the last not Ready starts the next round, whose
        // deadline must be on the timer (as `apply` does after every input).
        scheduleTimer(now: now, into: &effects)
    }

    /// `{"type":"room",...}`: what someone about to join needs to know.
    func peekMessage(client: ClientID?) -> ServerMessage {
        let (players, spectators) = membership.headcount()
        var object: JSONObject = [
            "type": "room", "code": JSONValue(code.rawValue), "game": JSONValue(kind.rawValue),
            "players": JSONValue(players), "spectators": JSONValue(spectators),
            "maxPlayers": JSONValue(configuration.maxPlayers), "locked": JSONValue(hostControls.locked),
            "full": JSONValue(players >= configuration.maxPlayers), "status": JSONValue(game.status),
        ]
        if let client, membership.seats(client) { object["seated"] = true }
        return ServerMessage.object(object)
    }

    /// `withState`: with the whole state (written once per `seq`, see `RoomPublication.text`), or `resumed` for
    /// a member whose missed patches follow.
    mutating func welcome(_ member: Member, withState: Bool, seq overrideSeq: Int? = nil,
                          now: Double) -> ServerMessage {
        var object: JSONObject = [
            "type": "welcome",
            "code": JSONValue(code.rawValue),
            "you": JSONValue(member.id.rawValue),
            "token": JSONValue(member.token.description),
            "seq": JSONValue(overrideSeq ?? publication.seq),
            "serverTime": JSONValue(now),
        ]
        // Every member may invite: the link they share carries the key.
        if let key { object["key"] = JSONValue(key.rawValue) }
        if let privateView = privateState(of: member) { object["private"] = privateView }
        guard withState else {
            object["resumed"] = true
            return ServerMessage.object(object)
        }
        return ServerMessage.object(object, state: stateText())
    }
}
