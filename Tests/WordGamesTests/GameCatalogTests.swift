import Foundation
import Testing
import WordGames

/// Every registered game is whole: its folder has its protocol appendix, the core protocol links it, and its
/// settings and moves hold together.
@Suite struct GameCatalogTests {
    private static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// The game's folder under `Sources/WordGames`: the one whose name is its id, ignoring case.
    private static func folder(of id: String) throws -> URL {
        let games = sources.appendingPathComponent("WordGames")
        let names = try FileManager.default.contentsOfDirectory(atPath: games.path)
        let name = try #require(names.first { $0.lowercased() == id }, "no folder for \(id)")
        return games.appendingPathComponent(name)
    }

    @Test func everyGameHasItsProtocolAppendixLinkedFromTheCoreProtocol() throws {
        let core = try String(contentsOf: Self.sources.appendingPathComponent("Rooms/PROTOCOL.md"), encoding: .utf8)
        for game in GameCatalog.games {
            let folder = try Self.folder(of: game.id)
            let appendix = folder.appendingPathComponent("PROTOCOL.md")
            #expect(FileManager.default.fileExists(atPath: appendix.path), "\(game.id) has no PROTOCOL.md")
            #expect(core.contains("(../WordGames/\(folder.lastPathComponent)/PROTOCOL.md)"),
                    "Sources/Rooms/PROTOCOL.md does not link \(game.id)'s appendix")
        }
    }

    @Test func idsMovesAndSettingsAreUniqueAndTheirInitialValuesInRange() {
        var ids = Set<String>()
        var moves = Set<String>()
        for game in GameCatalog.games {
            #expect(ids.insert(game.id).inserted, "two games are called \(game.id)")
            #expect(game.id == game.id.lowercased() && !game.id.isEmpty)
            #expect(!game.moveTypes.isEmpty, "\(game.id) has no moves")
            for move in game.moveTypes {
                #expect(moves.insert(move.type).inserted, "two games declare the move \(move.type)")
            }
            var keys = Set<String>()
            for spec in game.settingSpecs {
                #expect(keys.insert(spec.key).inserted, "\(game.id) declares \(spec.key) twice")
                #expect(spec.range.contains(spec.initial) && spec.step > 0)
            }
        }
    }
}
