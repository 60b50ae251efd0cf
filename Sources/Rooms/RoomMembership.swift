import WordGames

/// A room's people: the members and their seats, the ids browsers had here before, and the heartbeat each
/// connection keeps. Part of `RoomMachine`; knows nothing of the game or of links beyond their ids.
struct RoomMembership {
    /// Browsers whose last member id is remembered after their seat went; past this, one is forgotten for each
    /// new one (a party fits many times over).
    static let maxPastSeats = 256

    var members: [Member] = [] {
        didSet {
            version &+= 1
            var online = 0
            for member in members where member.linkID != nil { online += 1 }
            connected = online
        }
    }
    /// Bumped on every change to `members`: the key of the state builder's kept JSON for them.
    private(set) var version = 0
    /// Members with a live connection (counted on every change to `members`).
    private(set) var connected = 0
    /// Ids handed out so far: the next member is `p` or `s` and the next number.
    var memberCounter = 0
    /// The member id each browser last had here, for seats given up (expired or left): a browser that sits down
    /// again gets its id back, so the evening's totals stay one row per person.
    var pastSeats: [ClientID: PlayerID] = [:]
    /// When the room last heard from each connection that keeps the heartbeat (it sent a `ping` while seated),
    /// by link id: one silent past `silenceSeconds` is closed and its member is away.
    var lastHeard: [UInt64: Double] = [:]
    /// Nobody but the room's creator has ever joined it: once they are gone it expires after
    /// `creatorOnlyRoomGraceSeconds`.
    var creatorOnly = false
    /// When the room became empty (nobody connected), for disposal after the grace period.
    var emptySince: Double?

    /// The member with id `id`.
    func index(id: PlayerID) -> Int? {
        for index in members.indices where members[index].id == id { return index }
        return nil
    }

    /// The member connected through `linkID`.
    func index(linkID: UInt64) -> Int? {
        for index in members.indices where members[index].linkID == linkID { return index }
        return nil
    }

    /// The member whose id is written `raw` (as moves name members).
    func index(named raw: String) -> Int? {
        for index in members.indices where members[index].id.rawValue == raw { return index }
        return nil
    }

    /// Players and spectators in the room.
    func headcount() -> (players: Int, spectators: Int) {
        var spectators = 0
        for index in members.indices where members[index].isSpectator { spectators += 1 }
        return (members.count - spectators, spectators)
    }

    /// Whether any member has a live connection.
    var anyoneConnected: Bool { connected > 0 }

    /// Connected members whose last connection came from `address`.
    func connected(from address: String) -> Int {
        var fromThere = 0
        for index in members.indices where members[index].linkID != nil && members[index].address == address {
            fromThere += 1
        }
        return fromThere
    }

    /// Whether the browser `client` has a seat here.
    func seats(_ client: ClientID) -> Bool {
        for index in members.indices where members[index].client == client { return true }
        return false
    }

    /// The id of a new member: the one this browser last had here when nobody has it now, else the next one of
    /// the role it joins as (`p` or `s` and the member counter).
    mutating func newMemberID(spectator: Bool, client: ClientID?) -> PlayerID {
        if let client, let past = pastSeats[client], index(id: past) == nil { return past }
        memberCounter += 1
        return PlayerID((spectator ? "s" : "p") + String(memberCounter))
    }

    /// Remembers the id of a member who is gone for good, for its browser's next seat (unless the browser still
    /// has another seat here, a spectator's in a second tab).
    mutating func rememberDeparture(of member: Member) {
        if let linkID = member.linkID { lastHeard[linkID] = nil }
        guard let client = member.client, !seats(client) else { return }
        if pastSeats[client] == nil, pastSeats.count >= Self.maxPastSeats, let any = pastSeats.keys.first {
            pastSeats[any] = nil
        }
        pastSeats[client] = member.id
    }

    /// Marks the member at `index` away from `now` (its connection is gone or closed).
    mutating func disconnect(_ index: Int, now: Double) {
        members[index].link = nil
        members[index].disconnectedAt = now
    }

    // MARK: Heartbeat

    /// A heartbeat from `linkID`: a member's connection starts keeping it with its first one.
    mutating func noteHeard(_ linkID: UInt64, now: Double) {
        guard index(linkID: linkID) != nil else { return }
        lastHeard[linkID] = now
    }

    /// Any message from `linkID` counts as a heartbeat once the connection keeps one.
    mutating func heardFrom(_ linkID: UInt64, now: Double) {
        if !lastHeard.isEmpty, lastHeard[linkID] != nil { lastHeard[linkID] = now }
    }

    /// When the quietest connection that keeps the heartbeat runs out of time, or nil when none keeps it.
    func silenceDeadline(silenceSeconds: Double) -> Double? {
        guard !lastHeard.isEmpty else { return nil }
        var oldest = Double.infinity
        for heard in lastHeard.values where heard < oldest { oldest = heard }
        return oldest + silenceSeconds
    }

    /// The soonest end of a resume grace among the seats whose connection dropped.
    func graceDeadline(resumeGraceSeconds: Double) -> Double? {
        var next: Double?
        for index in members.indices {
            if let at = members[index].disconnectedAt { next = min(next ?? .infinity, at + resumeGraceSeconds) }
        }
        return next
    }

    /// The first seat whose resume grace is over at `now`.
    func expiredSeat(now: Double, resumeGraceSeconds: Double) -> Int? {
        for index in members.indices {
            if let at = members[index].disconnectedAt, now >= at + resumeGraceSeconds { return index }
        }
        return nil
    }
}
