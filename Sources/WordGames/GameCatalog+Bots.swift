extension GameCatalog {
    /// The bots of the catalog's games, in the catalog's order (games without one are left out; see
    /// `gamesWithoutBot`).
    public static var bots: [any GameBot.Type] {
        games.compactMap { ($0 as? any BotPlayable.Type)?.bot }
    }

    /// Ids of the catalog's games that have no bot: none, once each game is `BotPlayable`.
    public static var gamesWithoutBot: [String] {
        games.filter { !($0 is any BotPlayable.Type) }.map { $0.id }
    }

    /// The bot of the game `id`, if that game is in the catalog and has one.
    public static func bot(forGame id: String) -> (any GameBot.Type)? {
        bots.first { $0.gameID == id }
    }
}
