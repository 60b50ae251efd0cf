import JSON
import Testing
import WordGames
@testable import Rooms
import RoomsTestSupport

/// Games plug into rooms through `RoomGame` and `GameRegistry`: their kinds, their moves on the wire, and the
/// refusals of moves and controls that belong to another game.
@Suite struct GameRegistryTests {
    @Test func everyRegisteredGameHasAKindOfItsOwn() {
        let kinds = GameRegistry.games.map { $0.kind }
        // The catalog's order, whatever games it lists; these two are the ones the other tests play.
        #expect(kinds.map(\.rawValue) == GameCatalog.games.map { $0.id })
        #expect(Array(kinds.prefix(2)) == [.snowman, .scramble])
        #expect(GameKind.allCases == kinds)
        for kind in kinds {
            #expect(GameKind(rawValue: kind.rawValue) == kind)
            #expect(GameRegistry.game(named: kind.rawValue)?.kind == kind)
        }
        #expect(GameKind(rawValue: "chess") == nil)
    }

    @Test func everyMoveBelongsToOneGame() throws {
        for game in GameRegistry.games {
            for spec in game.moves {
                let owner = try #require(GameRegistry.owner(ofMove: spec.type))
                #expect(owner.game.kind == game.kind)
                #expect(owner.spec.doing == spec.doing)
            }
        }
        #expect(GameRegistry.owner(ofMove: "guess")?.game.kind == .snowman)
        #expect(GameRegistry.owner(ofMove: "word")?.game.kind == .scramble)
        #expect(GameRegistry.owner(ofMove: "chat") == nil)
    }

    @Test(arguments: [
        (#"{"type":"guess","letter":"e"}"#, "guess", "e"),
        (#"{"type":"word","word":"toast"}"#, "word", "toast"),
    ])
    func movesParseThroughTheirGame(text: String, type: String, argument: String) throws {
        let message = try ClientMessage.parse(JSONParser().parse(text))
        #expect(message == .move(GameMove(type: type, text: argument)))
        #expect(message.type == type)
    }

    @Test(arguments: [
        (#"{"type":"guess"}"#, #""guess" needs a "letter"."#),
        (#"{"type":"word","word":null}"#, #""word" needs a "word"."#),
        (#"{"type":"guess","letter":7}"#, #""letter" in "guess" must be a string."#),
    ])
    func malformedMovesAreRefusedWithTheirGamesSentence(text: String, message: String) throws {
        let error = try refusal(text)
        #expect(error.code == "bad-message")
        #expect(error.message == message)
    }

    @Test func createNamesEveryGame() throws {
        let error = try refusal(#"{"type":"create","game":"chess","name":"Ana"}"#)
        #expect(error.message.hasPrefix(#""create" needs "game": "snowman", "scramble""#))
        for game in GameCatalog.games { #expect(error.message.contains("\"\(game.id)\"")) }
    }

    private func refusal(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> RoomError {
        do {
            let message = try ClientMessage.parse(JSONParser().parse(text))
            Issue.record("parsed as \(message)", sourceLocation: sourceLocation)
            return try #require(nil as RoomError?, sourceLocation: sourceLocation)
        } catch let error as RoomError {
            return error
        }
    }

    /// A move of another game, and `skip` in a game without turns, are refused by the room's game.
    @Test(arguments: [
        (GameKind.scramble, ClientMessage.guess("e"), "guess",
         "Guessing letters is for Snowman rooms; this room plays Word Scramble."),
        (GameKind.snowman, ClientMessage.word("toast"), "word",
         "Submitting words is for Word Scramble rooms; this room plays Snowman."),
        (GameKind.scramble, ClientMessage.skip, "skip", "Word Scramble has no turns to skip."),
    ])
    func movesOfAnotherGameAreRefused(kind: GameKind, message: ClientMessage, move: String, sentence: String)
        async throws {
        var fixture = try await RoomTests.Fixture(kind)
        try await fixture.sync([fixture.host])
        let before = await fixture.room.snapshot()
        fixture.room.receive(message, from: fixture.host.id)
        try await fixture.sync([fixture.host])
        let error = try #require(fixture.views[fixture.host.id]?.errors.last)
        #expect(error["code"]?.stringValue == "wrong-game")
        #expect(error["title"]?.stringValue == "Not in this game")
        #expect(error["message"]?.stringValue == sentence)
        #expect(error["move"]?.stringValue == move)
        #expect(await fixture.room.snapshot().seq == before.seq, "nothing changed")
    }

    /// A game's part of the state lives under its kind, next to `game`.
    @Test(arguments: [GameKind.snowman, .scramble])
    func theStateShowsTheGameUnderItsKind(kind: GameKind) async throws {
        var fixture = try await RoomTests.Fixture(kind)
        try await fixture.sync([fixture.host])
        let state = try #require(fixture.views[fixture.host.id]?.state)
        #expect(state["game"]?.stringValue == kind.rawValue)
        #expect(state[kind.rawValue]?["settings"]?.objectValue != nil)
        for other in GameKind.allCases where other != kind { #expect(state[other.rawValue] == nil) }
    }
}
