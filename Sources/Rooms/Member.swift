import WordGames

/// A person in a room: a player with a seat, or a spectator. Survives dropped connections until the grace
/// period ends.
struct Member: Sendable {
    let id: PlayerID
    var name: String
    let token: ResumeToken
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

    init(id: PlayerID, name: String, token: ResumeToken, isSpectator: Bool, link: (any ClientLink)?,
         disconnectedAt: Double?) {
        self.id = id
        self.name = name
        self.token = token
        self.isSpectator = isSpectator
        self.link = link
        self.linkID = link?.id
        self.disconnectedAt = disconnectedAt
    }
}

/// One line of room chat.
struct ChatLine: Equatable, Sendable, Codable {
    let id: Int
    let player: PlayerID
    let name: String
    let text: String
    let at: Double
}
