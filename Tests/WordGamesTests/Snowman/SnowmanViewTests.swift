import Testing
@testable import WordGames

@Suite struct SnowmanViewTests {
    @Test func hidesTheSecretWhileThePlayIsOn() throws {
        var game = try Fixtures.snowman(word: "SNOWMAN")
        try game.guess("N", by: "alice", now: 0)
        let view = game.view
        #expect(view.word == nil)
        #expect(view.positions.map(\.letter) == [nil, "N", nil, nil, nil, nil, "N"])
        #expect(view.positions.allSatisfy { !$0.isMissed })
        let json = Fixtures.everything(in: view)
        #expect(!json.contains("SNOWMAN"))
        for hidden in ["S", "O", "W", "M", "A"] {
            #expect(!json.contains("\"\(hidden)\""), "\(hidden) leaked")
        }
    }

    @Test func revealsUnguessedLettersAsMissedWhenLost() throws {
        var game = try Fixtures.snowman(word: "SNOWMAN", settings: try SnowmanSettings(maxWrongGuesses: 3))
        for letter in ["N", "B", "C", "D"] {
            try game.guess(letter, by: try #require(game.turn), now: 0)
        }
        let view = game.view
        #expect(view.status == .lost)
        #expect(view.word == "SNOWMAN")
        #expect(view.positions.map(\.letter) == ["S", "N", "O", "W", "M", "A", "N"])
        #expect(view.positions.map(\.isMissed) == [true, false, true, true, true, true, false])
        #expect(view.statusLine == "The snowman melted. The word was SNOWMAN")
    }

    @Test func showsTheWordWhenWonWithoutMissedLetters() throws {
        var game = try Fixtures.snowman(word: "SNOW")
        for (letter, player) in zip(["S", "N", "O", "W"], ["alice", "bob", "alice", "bob"]) {
            try game.guess(letter, by: PlayerID(player), now: 0)
        }
        let view = game.view
        #expect(view.word == "SNOW")
        #expect(view.positions.allSatisfy { $0.letter != nil && !$0.isMissed })
        #expect(view.statusLine == "Solved by Bob! The word was SNOW")
        #expect(view.canStartNextGame)
        #expect(view.turn == nil)
    }

    @Test func statusLineSaysWhoseTurnItIs() throws {
        var game = try Fixtures.snowman(players: [])
        #expect(game.view.statusLine == "Waiting for players to join")
        game.addPlayer(Fixtures.player("alice"), now: 0)
        game.addPlayer(Fixtures.player("bob"), now: 0)
        #expect(game.view.statusLine == "Alice's turn — guess a letter")
        try game.guess("Q", by: "alice", now: 0)
        #expect(game.view.statusLine == "Bob's turn — guess a letter")
    }

    @Test func listsPlayersWithScoresAndTurn() throws {
        var game = try Fixtures.snowman(word: "SNOWMAN", settings: try SnowmanSettings(turnSeconds: 15))
        try game.guess("N", by: "alice", now: 3)
        let view = game.view
        #expect(view.players == [
            SnowmanView.PlayerLine(id: "alice", name: "Alice", score: 2),
            SnowmanView.PlayerLine(id: "bob", name: "Bob", score: 0),
        ])
        #expect(view.turn == "bob")
        #expect(view.turnDeadline == 18)
        #expect(view.guesses == [SnowmanGame.Guess(letter: "N", player: "alice", revealedPositions: 2, bonus: 0)])
        #expect(view.wrongGuesses == 0)
        #expect(view.maxWrongGuesses == 7)
        #expect(!view.canStartNextGame)
    }

    @Test func showsCurrentAndNextSettings() throws {
        var game = try Fixtures.snowman()
        let next = try SnowmanSettings(maxWrongGuesses: 4)
        game.updateSettings(next)
        #expect(game.view.settings == SnowmanView.Settings(.standard))
        #expect(game.view.nextSettings == SnowmanView.Settings(next))
        #expect(game.view.nextSettings.maxWrongGuesses == 4)
        #expect(game.view.maxWrongGuesses == 7)
    }
}
