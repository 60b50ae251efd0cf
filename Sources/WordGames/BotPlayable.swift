/// A game that the load tester can play: each game of `GameCatalog.games` conforms in its own folder
/// (`<Game>Bot.swift`), and a test checks that none is left out.
public protocol BotPlayable: GamePlugin {
    /// The game's bot.
    static var bot: any GameBot.Type { get }
}
