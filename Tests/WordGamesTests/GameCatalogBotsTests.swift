import Foundation
import Testing
@testable import WordGames

/// Every registered game can be played by the load tester, and its bot fits the game.
@Suite struct GameCatalogBotsTests {
    @Test func everyGameOfTheCatalogHasABot() {
        #expect(GameCatalog.gamesWithoutBot.isEmpty)
        #expect(GameCatalog.bots.map { $0.gameID } == GameCatalog.games.map { $0.id })
        for game in GameCatalog.games {
            #expect(GameCatalog.bot(forGame: game.id)?.gameID == game.id)
        }
        #expect(GameCatalog.bot(forGame: "chess") == nil)
    }

    @Test func hostSettingsAreSettingsOfTheGameWithinTheirBounds() {
        for bot in GameCatalog.bots {
            let specs = GameCatalog.games.first { $0.id == bot.gameID }?.settingSpecs ?? []
            for (key, value) in bot.hostSettings {
                let spec = specs.first { $0.key == key }
                #expect(spec != nil, "\(bot.gameID) has no setting \(key)")
                if let spec { #expect(spec.range.contains(value), "\(bot.gameID).\(key) = \(value)") }
            }
        }
    }

    /// The list a bot times its moves by is a list of the game's public view, as the wire shows it.
    @Test func movesShowInAListOfThePublicView() throws {
        let lists = try Fixtures.bundled.get()
        for game in GameCatalog.games {
            let bot = try #require(GameCatalog.bot(forGame: game.id))
            let view = try #require(try Self.encodedView(of: game, lists: lists))
            #expect(view[bot.shownIn] is [Any], "\(game.id).\(bot.shownIn) is not a list")
        }
    }

    private static func encodedView<Game: GamePlugin>(of game: Game.Type, lists: WordLists) throws -> [String: Any]? {
        var random = SplitMix64(seed: 1)
        let instance = try Game(settings: nil, lists: lists, now: 0, using: &random)
        let data = try JSONEncoder().encode(instance.publicView)
        return try JSONSerialization.jsonObject(with: data) as? [String: Any]
    }
}
