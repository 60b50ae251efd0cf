import WordGames

/// A person in a room: a player with a seat, or a spectator. Survives dropped connections until the grace
/// period ends.
struct Member: Sendable {
    let id: PlayerID
    var name: String
    let token: ResumeToken
    /// The browser's own id, when it sent one: what a removal bans besides the token.
    var client: ClientID?
    let isSpectator: Bool
    /// The live connection, nil while disconnected.
    var link: (any ClientLink)? {
        didSet { linkID = link?.id }
    }
    /// `link?.id`, kept beside it: rooms look members up by it on every message, and reading it through the
    /// existential would retain and release the link each time.
    private(set) var linkID: UInt64?
    /// When the connection dropped; the seat is released `resumeGraceSeconds` later.
    var disconnectedAt: Double?

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

    var isSystem: Bool { player == nil }
}

/// Someone the host removed: kept out of the room for its life, by resume token and by browser id, until the
/// host lifts it. Only `id` and `name` are ever shown.
struct Ban: Equatable, Sendable {
    /// `b1`, `b2`... in the order of removal.
    let id: String
    let name: String
    let token: ResumeToken
    let client: ClientID?

    func matches(token other: ResumeToken?, client otherClient: ClientID?) -> Bool {
        if let other, token.matches(other) { return true }
        if let client, let otherClient, client == otherClient { return true }
        return false
    }
}
