import WordGames

/// A person in a room: a player with a seat, or a spectator. Survives dropped connections until the grace
/// period ends.
struct Member: Sendable {
    let id: PlayerID
    var name: String
    /// A new one when another tab of the browser takes the seat (`RoomMachine+Join.swift`): the old tab's no longer
    /// resumes it behind the new tab's back.
    var token: ResumeToken
    /// The browser's own id, when it sent one: what a removal bans besides the token.
    var client: ClientID?
    /// The address bucket of the member's last connection (`ClientLink.address`): what their removal bans
    /// besides the token and the browser id; nil from loopback.
    var address: String?
    /// Changes only by a `seat` move; the id keeps the prefix of the role the member joined with.
    var isSpectator: Bool
    /// The live connection, nil while disconnected.
    var link: (any ClientLink)? {
        didSet { linkID = link?.id }
    }
    /// `link?.id`, kept beside it: rooms look members up by it on every message, and reading it through the
    /// existential would retain and release the link each time.
    private(set) var linkID: UInt64?
    /// When the connection dropped; the seat is released `resumeGraceSeconds` later.
    var disconnectedAt: Double?
    /// The `seq` the room was saved at, for a member restored from the data directory who has not been back
    /// since: the seq their client names comes from the old process, and only this one is known to mean the same
    /// state here (a crash loses the last changes, and a graceful stop may send some after the save, so the
    /// restored room numbers other states with the seqs that followed). nil once they are back.
    var restoredSeq: Int?

    init(id: PlayerID, name: String, token: ResumeToken, client: ClientID? = nil, isSpectator: Bool,
         link: (any ClientLink)?, disconnectedAt: Double?) {
        self.id = id
        self.name = name
        self.token = token
        self.client = client
        self.isSpectator = isSpectator
        self.link = link
        self.linkID = link?.id
        self.disconnectedAt = disconnectedAt
    }
}

/// One line of room chat: said by a member, or announced by the room itself (`player` and `name` nil), such as
/// a skipped turn.
struct ChatLine: Equatable, Sendable {
    let id: Int
    let player: PlayerID?
    let name: String?
    let text: String
    let at: Double
    /// What kind of announcement a line of the room's own is (nil for members' lines, and for the room's lines
    /// saved before notices had kinds).
    var notice: ChatNotice? = nil

    var isSystem: Bool { player == nil }
}

/// The kind of a room's own chat line, `notice` on the wire, so that clients can style or count them.
enum ChatNotice: String, Sendable, Hashable, CaseIterable {
    /// "Bob joined": a member's first join (not a resume).
    case join
    /// "Bob left": left for good, or the seat expired (not a mere disconnect).
    case leave
    /// "Bob was removed by the host".
    case kick
    /// "Cleo is now the host".
    case host
    /// A turn skipped or run out ("Bob ran out of time").
    case skip
    /// A game's or round's result, in the game's words (`RoomGame.resultNotice`).
    case result
    /// "Cleo is now playing" / "Bob is now watching".
    case seat
    /// "Bob is now Bobby".
    case rename
}

/// Someone the host removed: kept out of the room for its life, by resume token, by browser id and by address
/// bucket (new seats only), until the host lifts it. Only `id` and `name` are ever shown.
struct Ban: Equatable, Sendable {
    /// `b1`, `b2`... in the order of removal.
    let id: String
    let name: String
    let token: ResumeToken
    let client: ClientID?
    /// The removed member's address bucket: nobody new joins from it while the ban holds (members already in the
    /// room from there may still resume). nil from loopback.
    var address: String? = nil

    func matches(token other: ResumeToken?, client otherClient: ClientID?) -> Bool {
        if let other, token.matches(other) { return true }
        if let client, let otherClient, client == otherClient { return true }
        return false
    }
}
