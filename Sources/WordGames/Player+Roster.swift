/// A game's list of players, in join order: every game adds and renames alike.
extension Array where Element == Player {
    /// Gives the player with `player.id` the name `player.name`; false when there is none.
    @discardableResult
    mutating func rename(_ player: Player) -> Bool {
        guard let index = firstIndex(where: { $0.id == player.id }) else { return false }
        self[index].name = player.name
        return true
    }

    /// Adds `player` at the end, or renames the one already here.
    mutating func addOrRename(_ player: Player) {
        if !rename(player) { append(player) }
    }
}
