import WordGames

/// What a room keeps of its players' private views (`GamePlugin.PrivateView`): for each connected player whose
/// client holds one, the record their next `private` operations are diffed against. Part of `RoomPublication`.
///
/// Rooms of games without private views (`enabled` false) keep nothing here and skip it on every publish.
struct PrivateViews {
    /// Whether the room's game has private views; set once, when the machine is made.
    var enabled = false
    /// Per player whose client holds a private view: the game's record of it (`RoomGame.privateOperations`).
    /// A player without an entry holds none (or `null`).
    var kept: [PlayerID: AnyObject] = [:]
    /// The game and member versions when the private views were last brought up to date: a change of neither
    /// (a chat line, a reaction) leaves them alone.
    var versions = (game: -1, members: -1)
}
