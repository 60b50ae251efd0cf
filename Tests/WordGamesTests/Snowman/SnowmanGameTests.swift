import Testing
@testable import WordGames

@Suite struct SnowmanGameTests {
    // MARK: Starting

    @Test func firstGameStartsWithASecretFromTheList() throws {
        var generator = SplitMix64(seed: 3)
        let words = try WordList(["igloo", "mitten", "snowflake"])
        let game = SnowmanGame(words: words, now: 0, using: &generator)
        #expect(words.words.contains(String(game.secret)))
        #expect(game.status == .inProgress)
        #expect(game.gameNumber == 1)
        #expect(game.turn == nil)
        #expect(game.guesses.isEmpty)
    }

    @Test func newGameStartsOnlyAfterTheCurrentOneIsOver() throws {
        var game = try Fixtures.snowman(word: "ICED")
        var generator = SplitMix64(seed: 4)
        #expect(throws: SnowmanGame.Rejection.gameInProgress) { try game.startNextGame(now: 1, using: &generator) }
        try Fixtures.solve(&game, now: 1)
        #expect(game.status == .won)
        try game.startNextGame(now: 2, using: &generator)
        #expect(game.gameNumber == 2)
        #expect(game.status == .inProgress)
        #expect(game.guesses.isEmpty)
        #expect(game.wrongGuesses == 0)
        #expect(game.scores.isEmpty)
        #expect(game.revealed == [false, false, false, false])
    }

    @Test func settingsApplyToTheNextGameOnly() throws {
        var game = try Fixtures.snowman(word: "ICED")
        game.updateSettings(try SnowmanSettings(maxWrongGuesses: 3, turnSeconds: 20))
        #expect(game.settings == .standard)
        #expect(game.nextSettings.maxWrongGuesses == 3)
        for letter in ["Q", "W", "R"] {
            try game.guess(letter, by: try #require(game.turn), now: 1)
        }
        #expect(game.status == .inProgress, "the running game keeps its limit of 7")
        #expect(game.turnDeadline == nil, "the running game keeps having no timer")

        try Fixtures.solve(&game, now: 2)
        var generator = SplitMix64(seed: 1)
        try game.startNextGame(now: 10, using: &generator)
        #expect(game.settings.maxWrongGuesses == 3)
        #expect(game.turnDeadline == 30)
    }

    // MARK: Guess validation

    @Test func rejectsGuessesOnceTheGameIsOver() throws {
        var won = try Fixtures.snowman(word: "ICED")
        try Fixtures.solve(&won, now: 0)
        #expect(throws: SnowmanGame.Rejection.gameOver(.won)) { try won.guess("Z", by: try #require(won.turn), now: 0) }

        var lost = try Fixtures.snowman(word: "ICED", settings: try SnowmanSettings(maxWrongGuesses: 3))
        for letter in ["A", "B", "F"] {
            try lost.guess(letter, by: try #require(lost.turn), now: 0)
        }
        #expect(throws: SnowmanGame.Rejection.gameOver(.lost)) { try lost.guess("I", by: "alice", now: 0) }
    }

    @Test func rejectsSpectatorsAndUnknownPlayers() throws {
        var game = try Fixtures.snowman()
        #expect(throws: SnowmanGame.Rejection.notAPlayer) { try game.guess("S", by: "mallory", now: 0) }
        game.removePlayer("bob", now: 0)
        #expect(throws: SnowmanGame.Rejection.notAPlayer) { try game.guess("S", by: "bob", now: 0) }
    }

    @Test func rejectsGuessesOutOfTurn() throws {
        var game = try Fixtures.snowman()
        #expect(throws: SnowmanGame.Rejection.notYourTurn(current: Fixtures.player("alice"))) {
            try game.guess("S", by: "bob", now: 0)
        }
        #expect(game.guesses.isEmpty)
    }

    @Test(arguments: ["", "   ", "7", "?", "é", "ß", "—", "😀", "1abc"])
    func rejectsInputThatDoesNotStartWithALetter(input: String) throws {
        var game = try Fixtures.snowman()
        let typed = input.first { !$0.isWhitespace }.map(String.init) ?? ""
        #expect(throws: SnowmanGame.Rejection.notALetter(typed)) { try game.guess(input, by: "alice", now: 0) }
        #expect(game.turn == "alice")
        #expect(game.wrongGuesses == 0)
    }

    @Test(arguments: [("s", "S"), ("Snow", "S"), ("  w", "W"), ("nope", "N")])
    func usesTheFirstLetterTypedUppercased(input: String, letter: String) throws {
        var game = try Fixtures.snowman()
        #expect(try game.guess(input, by: "alice", now: 0).letter == letter)
        #expect(game.guesses.map(\.letter) == [letter])
    }

    @Test func rejectsRepeatedLetter() throws {
        var game = try Fixtures.snowman()
        try game.guess("S", by: "alice", now: 0)
        #expect(throws: SnowmanGame.Rejection.alreadyGuessed("S")) { try game.guess("s", by: "bob", now: 0) }
        try game.guess("Z", by: "bob", now: 0)
        #expect(throws: SnowmanGame.Rejection.alreadyGuessed("Z")) { try game.guess("zebra", by: "alice", now: 0) }
        #expect(game.wrongGuesses == 1)
        #expect(game.turn == "alice")
    }

    // MARK: Revealing, winning and losing

    @Test func revealsEveryPositionOfARepeatedLetter() throws {
        var game = try Fixtures.snowman(word: "BANANA")
        let guess = try game.guess("a", by: "alice", now: 0)
        #expect(guess.revealedPositions == 3)
        #expect(guess.points == 3)
        #expect(game.revealed == [false, true, false, true, false, true])
        let positions = game.view.positions
        #expect(positions.map(\.letter) == [nil, "A", nil, "A", nil, "A"])
        #expect(positions.map(\.id) == [0, 1, 2, 3, 4, 5])
    }

    @Test func wrongGuessCountsOneAndScoresNothing() throws {
        var game = try Fixtures.snowman()
        let guess = try game.guess("Q", by: "alice", now: 0)
        #expect(!guess.isCorrect)
        #expect(guess.points == 0)
        #expect(game.wrongGuesses == 1)
        #expect(game.scores["alice", default: 0] == 0)
    }

    @Test(arguments: [3, 7, 10])
    func losesExactlyAtTheWrongGuessLimit(limit: Int) throws {
        var game = try Fixtures.snowman(word: "ICED", settings: try SnowmanSettings(maxWrongGuesses: limit))
        let wrongLetters = "ABFGHJKLMNOPQR".map(String.init)
        for letter in wrongLetters.prefix(limit - 1) {
            try game.guess(letter, by: try #require(game.turn), now: 0)
        }
        #expect(game.wrongGuesses == limit - 1)
        #expect(game.status == .inProgress)

        try game.guess(wrongLetters[limit - 1], by: try #require(game.turn), now: 0)
        #expect(game.wrongGuesses == limit)
        #expect(game.status == .lost)
        #expect(game.turnDeadline == nil)
    }

    @Test func sixWrongGuessesWithTheDefaultLimitStillPlay() throws {
        var game = try Fixtures.snowman(word: "ICED")
        for letter in ["A", "B", "F", "G", "H", "J"] {
            try game.guess(letter, by: try #require(game.turn), now: 0)
        }
        #expect(game.status == .inProgress)
        try game.guess("I", by: try #require(game.turn), now: 0)
        #expect(game.status == .inProgress)
        try game.guess("K", by: try #require(game.turn), now: 0)
        #expect(game.status == .lost)
    }

    @Test func winsWhenEveryLetterIsGuessedAndPaysTheBonus() throws {
        var game = try Fixtures.snowman(word: "SNOWMAN")
        #expect(try game.guess("S", by: "alice", now: 0).points == 1)
        #expect(try game.guess("N", by: "bob", now: 0).points == 2)
        #expect(try game.guess("O", by: "alice", now: 0).points == 1)
        #expect(try game.guess("W", by: "bob", now: 0).points == 1)
        #expect(try game.guess("M", by: "alice", now: 0).points == 1)
        #expect(game.status == .inProgress)
        let last = try game.guess("A", by: "bob", now: 0)
        #expect(last.revealedPositions == 1)
        #expect(last.bonus == SnowmanGame.solveBonus)
        #expect(last.points == 1 + SnowmanGame.solveBonus)
        #expect(game.status == .won)
        #expect(game.solver == "bob")
        #expect(game.scores == ["alice": 3, "bob": 4 + SnowmanGame.solveBonus])
    }

    @Test func solveBonusIsFivePoints() {
        #expect(SnowmanGame.solveBonus == 5)
    }

    // MARK: Turns

    @Test func playersTakeTurnsInJoinOrder() throws {
        var game = try Fixtures.snowman(players: ["alice", "bob", "carol"])
        var order: [PlayerID] = []
        for letter in ["Q", "S", "Z", "N", "X"] {
            let turn = try #require(game.turn)
            order.append(turn)
            try game.guess(letter, by: turn, now: 0)
        }
        #expect(order == ["alice", "bob", "carol", "alice", "bob"])
    }

    @Test func latecomersJoinAtTheEndOfTheOrder() throws {
        var game = try Fixtures.snowman(players: ["alice", "bob"])
        try game.guess("S", by: "alice", now: 0)
        game.addPlayer(Fixtures.player("carol"), now: 0)
        try game.guess("N", by: "bob", now: 0)
        #expect(game.turn == "carol")
        #expect(game.players.map(\.id) == ["alice", "bob", "carol"])
    }

    @Test func firstPlayerToJoinAnEmptyTableGetsTheTurn() throws {
        var game = try Fixtures.snowman(players: [])
        #expect(game.turn == nil)
        #expect(throws: SnowmanGame.Rejection.notAPlayer) { try game.guess("S", by: "alice", now: 0) }
        game.addPlayer(Fixtures.player("bob"), now: 0)
        #expect(game.turn == "bob")
    }

    @Test func addingAnExistingPlayerRenamesThem() throws {
        var game = try Fixtures.snowman(players: ["alice", "bob"])
        game.addPlayer(Player(id: "alice", name: "Ally"), now: 0)
        #expect(game.players == [Player(id: "alice", name: "Ally"), Fixtures.player("bob")])
        #expect(game.turn == "alice")
    }

    @Test func removingThePlayerWhoseTurnItIsPassesTheTurnOn() throws {
        var game = try Fixtures.snowman(players: ["alice", "bob", "carol"])
        game.removePlayer("alice", now: 0)
        #expect(game.turn == "bob")
        try game.guess("S", by: "bob", now: 0)
        #expect(game.turn == "carol")
        game.removePlayer("carol", now: 0)
        #expect(game.turn == "bob", "the turn wraps around to the first player")
    }

    @Test func removingAnotherPlayerKeepsTheTurn() throws {
        var game = try Fixtures.snowman(players: ["alice", "bob", "carol"])
        try game.guess("S", by: "alice", now: 0)
        game.removePlayer("alice", now: 0)
        #expect(game.turn == "bob")
        game.removePlayer("carol", now: 0)
        #expect(game.turn == "bob")
        try game.guess("N", by: "bob", now: 0)
        #expect(game.turn == "bob", "a lone player keeps the turn")
    }

    @Test func removingEveryoneLeavesNoTurnUntilSomeoneJoins() throws {
        var game = try Fixtures.snowman(players: ["alice", "bob"])
        game.removePlayer("alice", now: 0)
        game.removePlayer("bob", now: 0)
        game.removePlayer("nobody", now: 0)
        #expect(game.turn == nil)
        #expect(game.players.isEmpty)
        game.addPlayer(Fixtures.player("alice"), now: 0)
        #expect(game.turn == "alice")
    }

    @Test func playerWhoLeavesAndRejoinsKeepsTheirPoints() throws {
        var game = try Fixtures.snowman(players: ["alice", "bob"])
        try game.guess("N", by: "alice", now: 0)
        game.removePlayer("alice", now: 0)
        game.addPlayer(Fixtures.player("alice"), now: 0)
        #expect(game.scores["alice"] == 2)
        #expect(game.players.map(\.id) == ["bob", "alice"])
    }

    @Test func nextGameStartsWithThePlayerAfterTheLastGuesser() throws {
        var game = try Fixtures.snowman(word: "ICED", players: ["alice", "bob", "carol"])
        try Fixtures.solve(&game, now: 0)
        #expect(game.guesses.map(\.player) == ["alice", "bob", "carol", "alice"])
        var generator = SplitMix64(seed: 1)
        try game.startNextGame(now: 1, using: &generator)
        #expect(game.turn == "bob")
        for (letter, player) in zip(["I", "Q", "C", "E", "D"], ["bob", "carol", "alice", "bob", "carol"]) {
            try game.guess(letter, by: PlayerID(player), now: 1)
        }
        try game.startNextGame(now: 2, using: &generator)
        #expect(game.turn == "alice")
    }

    // MARK: Turn timer

    @Test func noTurnTimerByDefault() throws {
        var game = try Fixtures.snowman()
        #expect(game.turnDeadline == nil)
        #expect(game.tick(now: 1_000_000).isEmpty)
        #expect(game.turn == "alice")
    }

    @Test func turnTimerSkipsAnIdlePlayer() throws {
        var game = try Fixtures.snowman(
            settings: try SnowmanSettings(turnSeconds: 10), players: ["alice", "bob", "carol"])
        #expect(game.turnDeadline == 10)
        #expect(game.tick(now: 9.99).isEmpty)
        #expect(game.tick(now: 10) == ["alice"])
        #expect(game.turn == "bob")
        #expect(game.turnDeadline == 20)
        #expect(game.wrongGuesses == 0, "a skip is not a wrong guess")
    }

    @Test func lateTickSkipsFromTheMissedDeadlines() throws {
        var game = try Fixtures.snowman(
            settings: try SnowmanSettings(turnSeconds: 10), players: ["alice", "bob", "carol"])
        #expect(game.tick(now: 35) == ["alice", "bob", "carol"])
        #expect(game.turn == "alice")
        #expect(game.turnDeadline == 40)
    }

    @Test func guessAfterTheDeadlineIsOutOfTurnEvenBeforeATick() throws {
        var game = try Fixtures.snowman(settings: try SnowmanSettings(turnSeconds: 10))
        #expect(throws: SnowmanGame.Rejection.notYourTurn(current: Fixtures.player("bob"))) {
            try game.guess("S", by: "alice", now: 10)
        }
        try game.guess("S", by: "bob", now: 12)
        #expect(game.turn == "alice")
        #expect(game.turnDeadline == 22, "each guess restarts the timer for the next player")
    }

    @Test func timerRestartsWhenTheCurrentPlayerLeaves() throws {
        var game = try Fixtures.snowman(
            settings: try SnowmanSettings(turnSeconds: 10), players: ["alice", "bob", "carol"])
        game.removePlayer("alice", now: 7)
        #expect(game.turn == "bob")
        #expect(game.turnDeadline == 17)
        game.removePlayer("carol", now: 8)
        #expect(game.turnDeadline == 17)
    }

    @Test func timerStopsWithoutPlayersAndWhenTheGameEnds() throws {
        var game = try Fixtures.snowman(word: "ICED", settings: try SnowmanSettings(turnSeconds: 10))
        game.removePlayer("alice", now: 1)
        game.removePlayer("bob", now: 1)
        #expect(game.turnDeadline == nil)
        game.addPlayer(Fixtures.player("carol"), now: 5)
        #expect(game.turnDeadline == 15)
        try Fixtures.solve(&game, now: 6)
        #expect(game.turnDeadline == nil)
        #expect(game.tick(now: 100).isEmpty)
    }

    // MARK: History

    @Test func finishedGamesGoIntoTheHistory() throws {
        var game = try Fixtures.snowman(word: "ICED", players: ["alice", "bob", "carol"])
        try game.guess("I", by: "alice", now: 0)
        game.removePlayer("alice", now: 0)
        try game.guess("Q", by: "bob", now: 0)
        game.addPlayer(Fixtures.player("dave"), now: 0)
        try game.guess("C", by: "carol", now: 0)
        try game.guess("E", by: "dave", now: 0)
        try game.guess("D", by: "bob", now: 0)

        let record = try #require(game.history.last)
        #expect(game.history.count == 1)
        #expect(record.gameNumber == 1)
        #expect(record.word == "ICED")
        #expect(record.result == .won)
        #expect(record.solver == "bob")
        #expect(record.wrongGuesses == 1)
        #expect(record.maxWrongGuesses == 7)
        #expect(record.scores == [
            ScoreLine(player: "bob", name: "Bob", score: 1 + SnowmanGame.solveBonus, rank: 1),
            ScoreLine(player: "alice", name: "Alice", score: 1, rank: 2),
            ScoreLine(player: "carol", name: "Carol", score: 1, rank: 2),
            ScoreLine(player: "dave", name: "Dave", score: 1, rank: 2),
        ])
    }

    @Test func lostGamesAreRecordedToo() throws {
        var game = try Fixtures.snowman(word: "ICED", settings: try SnowmanSettings(maxWrongGuesses: 3))
        for letter in ["A", "B", "F"] {
            try game.guess(letter, by: try #require(game.turn), now: 0)
        }
        let record = try #require(game.history.last)
        #expect(record.result == .lost)
        #expect(record.solver == nil)
        #expect(record.word == "ICED")
        #expect(record.scores.map(\.score) == [0, 0])
    }

    @Test func historyKeepsTheMostRecentGames() throws {
        var game = try Fixtures.snowman(word: "ICED", players: ["alice"])
        var generator = SplitMix64(seed: 1)
        for _ in 0..<(SnowmanGame.historyLimit + 3) {
            try Fixtures.solve(&game, now: 0)
            try game.startNextGame(now: 0, using: &generator)
        }
        #expect(game.history.count == SnowmanGame.historyLimit)
        #expect(game.history.first?.gameNumber == 4)
        #expect(game.history.last?.gameNumber == SnowmanGame.historyLimit + 3)
    }

    // MARK: Reproducibility and secrecy

    @Test func sameSeedGivesTheSameWords() throws {
        let words = try Fixtures.bundled.get().secrets
        func secrets(seed: UInt64) throws -> [String] {
            var generator = SplitMix64(seed: seed)
            var game = SnowmanGame(words: words, now: 0, using: &generator)
            game.addPlayer(Fixtures.player("alice"), now: 0)
            var secrets = [String(game.secret)]
            for _ in 0..<9 {
                try Fixtures.solve(&game, now: 0)
                try game.startNextGame(now: 0, using: &generator)
                secrets.append(String(game.secret))
            }
            return secrets
        }
        let first = try secrets(seed: 99)
        #expect(try secrets(seed: 99) == first)
        #expect(try secrets(seed: 100) != first)
        #expect(Set(first).count > 1)
    }

    @Test func dumpingAGameDoesNotRevealTheSecret() throws {
        let game = try Fixtures.snowman(word: "SNOWMAN")
        var output = ""
        dump(game, to: &output)
        #expect(!output.contains("SNOWMAN"))
        #expect(!output.contains("\"S\""))
    }

    @Test func rejectionsHaveDistinctCodesAndHelpfulText() {
        let rejections: [SnowmanGame.Rejection] = [
            .gameOver(.won), .notAPlayer, .notYourTurn(current: Fixtures.player("alice")), .notALetter("7"),
            .alreadyGuessed("E"), .gameInProgress, .gameNotStarted,
        ]
        #expect(Set(rejections.map(\.code)).count == rejections.count)
        #expect(rejections.allSatisfy { !$0.title.isEmpty && !$0.message.isEmpty })
        #expect(SnowmanGame.Rejection.notYourTurn(current: Fixtures.player("alice")).message
            == "It's Alice's turn. Wait for yours.")
        #expect(SnowmanGame.Rejection.alreadyGuessed("E").message == "E has already been guessed. Try another letter.")
        #expect(SnowmanGame.Rejection.notALetter("").message == "Type a letter from A to Z.")
        #expect(SnowmanGame.Rejection.notALetter("7").message == "\"7\" is not a letter from A to Z.")
        #expect(SnowmanGame.Rejection.gameOver(.lost).message
            == "The snowman has melted. Start a new game to play again.")
    }
}
