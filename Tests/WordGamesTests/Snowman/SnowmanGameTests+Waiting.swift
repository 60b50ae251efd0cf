import Testing
@testable import WordGames

extension SnowmanGameTests {
    /// A table made with `waitForHost`, players Alice and Bob seated, a 30-second turn timer.
    static func waitingTable(words: [String] = ["ICED"]) throws -> SnowmanGame {
        var generator = SplitMix64(seed: 1)
        var game = SnowmanGame(packs: [.general(try WordList(words))], settings: try SnowmanSettings(turnSeconds: 30),
                               waitForHost: true, now: 0, using: &generator)
        for id: PlayerID in ["alice", "bob"] {
            game.addPlayer(Fixtures.player(id), now: 0)
        }
        return game
    }

    @Test func aWaitingTableHasNoWordTurnOrTimer() throws {
        let game = try Self.waitingTable()
        #expect(game.status == .waiting)
        #expect(game.gameNumber == 0)
        #expect(game.secret.isEmpty)
        #expect(game.turnDeadline == nil, "the turn timer only runs in a game")
        #expect(game.canStartNextGame)
        #expect(game.resultLine == nil)
        let view = game.view
        #expect(view.positions.isEmpty)
        #expect(view.turn == nil)
        #expect(view.word == nil)
        #expect(view.players.map(\.name) == ["Alice", "Bob"])
        #expect(view.statusLine == "Waiting for the host to start the game")
    }

    @Test func aWaitingTableWithoutPlayersSaysSo() throws {
        var generator = SplitMix64(seed: 1)
        let game = SnowmanGame(packs: [.general(try WordList(["ICED"]))], waitForHost: true, now: 0,
                               using: &generator)
        #expect(game.view.statusLine == "Waiting for players to join")
    }

    @Test func guessesAndSkipsWaitForTheFirstGame() throws {
        var game = try Self.waitingTable()
        #expect(throws: SnowmanGame.Rejection.gameNotStarted) { try game.guess("I", by: "alice", now: 1) }
        #expect(throws: SnowmanGame.Rejection.gameNotStarted) { try game.skipTurn(now: 1) }
        #expect(game.tick(now: 1_000).isEmpty)
        #expect(game.guesses.isEmpty)
        #expect(SnowmanGame.Rejection.gameNotStarted.code == "game-not-started")
        #expect(SnowmanGame.Rejection.gameNotStarted.message.contains("has not started"))
    }

    @Test func playersComeAndGoWhileWaiting() throws {
        var game = try Self.waitingTable()
        game.addPlayer(Fixtures.player("carol"), now: 1)
        game.removePlayer("alice", now: 2)
        #expect(game.players.map(\.id) == ["bob", "carol"])
        #expect(game.status == .waiting)
        #expect(game.turnDeadline == nil)
    }

    @Test func theHostStartsTheFirstGame() throws {
        var game = try Self.waitingTable()
        game.addPlayer(Fixtures.player("carol"), now: 1)
        game.removePlayer("alice", now: 2)
        var generator = SplitMix64(seed: 9)
        try game.startNextGame(now: 5, using: &generator)
        #expect(game.status == .inProgress)
        #expect(game.gameNumber == 1)
        #expect(String(game.secret) == "ICED")
        #expect(game.turn == "bob", "the first player still seated has the first turn")
        #expect(game.turnDeadline == 35)
        try game.guess("I", by: "bob", now: 6)
        #expect(game.view.positions.first?.letter == "I")
    }

    @Test func aWaitingTableSurvivesASnapshot() throws {
        let game = try Self.waitingTable()
        let restored = try SnowmanGame(snapshot: game.snapshot, words: try WordList(["ICED"]))
        #expect(restored.snapshot == game.snapshot)
        #expect(restored.status == .waiting)
        var broken = game.snapshot
        broken.secret = "ICED"
        broken.revealed = [false, false, false, false]
        #expect(throws: SnapshotError.self, "a waiting table has no secret") {
            try SnowmanGame(snapshot: broken, words: try WordList(["ICED"]))
        }
        var started = try Fixtures.snowman(word: "ICED").snapshot
        started.secret = ""
        started.revealed = []
        #expect(throws: SnapshotError.self, "a game in progress has one") {
            try SnowmanGame(snapshot: started, words: try WordList(["ICED"]))
        }
    }
}
