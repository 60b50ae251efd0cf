import WordGames

/// One person, one seat: a browser (its `client` id) that already has a seat here gets that seat back rather than
/// a second one, keeps its member id across seats it gave up (so the evening's standings stay one row per
/// person), and a connection that stops sending its heartbeat is closed, so its member is away like any
/// disconnected one. See PROTOCOL.md, "Seats follow the browser" and "Heartbeat".
extension Room {
    /// Browsers whose last member id is remembered after their seat went; past this, one is forgotten for each
    /// new one (a party fits many times over).
    static let maxPastSeats = 256

    // MARK: Seats follow the browser

    /// A join without a token that matches a seat, from a browser (`client`) that has a seat here: resumes that
    /// seat when nobody holds it, or when the join asks to take it over; refuses with `seat-in-use` while another
    /// connection holds it. A spectator's join then gets a spectator's member of its own (a second tab watching).
    ///
    /// - Returns: Whether the connection is now a member, or nil when the browser has no seat to come back to
    ///   (the join goes on as a newcomer's).
    func rejoinByClient(_ request: JoinRequest, now: Double) -> Bool? {
        guard let client = request.client else { return nil }
        // Its player's seat before a spectator's seat it opened to watch from another tab.
        var found: Int?
        for index in members.indices where members[index].client == client {
            if found == nil || (members[found!].isSpectator && !members[index].isSpectator) { found = index }
        }
        guard let index = found else { return nil }
        if members[index].link != nil && !request.takeover {
            // Watching from this tab: a spectator's member of its own beside the seat the other tab keeps.
            if request.spectator { return nil }
            request.link.send(.error(RoomError(.seatInUse(room: code), move: "join")))
            return false
        }
        if let old = members[index].linkID { lastHeard[old] = nil }
        // The seat moves to this tab: the tab that had it (asleep, or told `replaced`) no longer resumes it by
        // itself, its token gets `seat-in-use` and the player chooses again there.
        members[index].token = ResumeToken.random()
        resume(index, link: request.link, lastSeq: nil, client: client, now: now)
        return true
    }

    /// The id of a new member: the one this browser last had here when nobody has it now, else the next one of
    /// the role it joins as (`p` or `s` and the member counter).
    func newMemberID(spectator: Bool, client: ClientID?) -> PlayerID {
        if let client, let past = pastSeats[client], memberIndex(id: past) == nil { return past }
        memberCounter += 1
        return PlayerID((spectator ? "s" : "p") + String(memberCounter))
    }

    /// Remembers the id of a member who is gone for good, for its browser's next seat (unless the browser still
    /// has another seat here, a spectator's in a second tab).
    func rememberDeparture(of member: Member) {
        if let linkID = member.linkID { lastHeard[linkID] = nil }
        guard let client = member.client, !members.contains(where: { $0.client == client }) else { return }
        if pastSeats[client] == nil, pastSeats.count >= Self.maxPastSeats, let any = pastSeats.keys.first {
            pastSeats[any] = nil
        }
        pastSeats[client] = member.id
    }

    // MARK: Heartbeat

    /// A heartbeat from `linkID`: a member's connection starts keeping it with its first one.
    func noteHeard(_ linkID: UInt64, now: Double) {
        guard memberIndex(linkID: linkID) != nil else { return }
        lastHeard[linkID] = now
    }

    /// When the quietest connection that keeps the heartbeat runs out of time, or nil when none keeps it.
    func silenceDeadline() -> Double? {
        guard !lastHeard.isEmpty else { return nil }
        var oldest = Double.infinity
        for heard in lastHeard.values where heard < oldest { oldest = heard }
        return oldest + configuration.silenceSeconds
    }

    /// Closes the connections silent for `silenceSeconds` (a frozen or hidden page answers WebSocket pings but
    /// not the heartbeat); their members are away from now on, as after any disconnect.
    func silenceQuietLinks(now: Double) {
        guard let deadline = silenceDeadline(), now >= deadline else { return }
        for (linkID, heard) in lastHeard where now >= heard + configuration.silenceSeconds {
            lastHeard[linkID] = nil
            guard let index = memberIndex(linkID: linkID) else { continue }
            members[index].link?.close(.silent)
            members[index].link = nil
            members[index].disconnectedAt = now
        }
    }
}
