import WordGames

/// A person in a room: a player with a seat, or a spectator. Survives dropped connections until the grace
/// period ends.
struct Member: Sendable {
    let id: PlayerID
    var name: String
    let token: ResumeToken
    let isSpectator: Bool
    /// The live connection, nil while disconnected.
    var link: (any ClientLink)?
    /// When the connection dropped; the seat is released `resumeGraceSeconds` later.
    var disconnectedAt: Double?
}

/// One line of room chat.
struct ChatLine: Equatable, Sendable, Codable {
    let id: Int
    let player: PlayerID
    let name: String
    let text: String
    let at: Double
}
