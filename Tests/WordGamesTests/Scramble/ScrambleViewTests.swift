import Testing
@testable import WordGames

@Suite struct ScrambleViewTests {
    @Test func lobbyViewShowsPlayersAndWaits() {
        var game = ScrambleGame(lexicon: Fixtures.problemsLexicon, roots: ["problems"])
        #expect(game.view.statusLine == "Waiting for players to join")
        #expect(!game.view.canStartMatch)
        game.addPlayer(Fixtures.player("alice"), now: 0)
        let view = game.view
        #expect(view.phase == .lobby)
        #expect(view.statusLine == "Waiting for the host to start the match")
        #expect(view.canStartMatch)
        #expect(view.root == nil)
        #expect(view.totalWords == nil)
        #expect(view.scoreboard == [ScoreLine(player: "alice", name: "Alice", score: 0, rank: 1)])
    }

    @Test func roundViewCountsButNeverListsTheWordsLeft() throws {
        var game = try Fixtures.scramble()
        try game.submit("probe", by: "alice", now: 1)
        let view = game.view
        #expect(view.phase == .playing)
        #expect(view.root == "PROBLEMS")
        #expect(view.totalWords == Fixtures.problemsSolutions.count)
        #expect(view.found.map(\.word) == ["probe"])
        #expect(view.lastRound == nil)
        #expect(view.statusLine == "Round 1 of 6 — find words of 3+ letters in PROBLEMS")
        #expect(view.phaseEndsAt == 90)
        #expect(view.players == [
            ScrambleView.PlayerLine(id: "alice", name: "Alice", score: 5),
            ScrambleView.PlayerLine(id: "bob", name: "Bob", score: 0),
        ])

        let json = Fixtures.everything(in: view)
        for word in Fixtures.problemsSolutions.subtracting(["probe"]) {
            #expect(!json.contains("\"\(word)\""), "\(word) leaked")
        }
    }

    @Test func intermissionViewRevealsTheMissedWords() throws {
        var game = try Fixtures.scramble(settings: try ScrambleSettings(breakSeconds: 10))
        try game.submit("probe", by: "alice", now: 1)
        game.tick(now: 90)
        let view = game.view
        #expect(view.phase == .intermission)
        #expect(view.statusLine == "Round 1 of 6 is over — round 2 starts soon")
        let lastRound = try #require(view.lastRound)
        #expect(Set(lastRound.missed) == Fixtures.problemsSolutions.subtracting(["probe"]))
        #expect(lastRound.found.map(\.word) == ["probe"])
        #expect(view.phaseEndsAt == 100)
        #expect(!view.canStartMatch)
    }

    @Test func finishedViewShowsTheWinner() throws {
        var game = try Fixtures.scramble(settings: try ScrambleSettings(rounds: 3))
        try game.submit("probe", by: "alice", now: 1)
        try game.submit("mob", by: "bob", now: 2)
        game.tick(now: 1_000)
        let view = game.view
        #expect(view.phase == .finished)
        #expect(view.statusLine == "Match over — Alice wins with 5 points!")
        #expect(view.finalScoreboard?.map(\.player) == ["alice", "bob"])
        #expect(view.lastRound?.number == 3)
        #expect(view.canStartMatch)
    }

    @Test func finishedViewAnnouncesTiesAndEmptyMatches() throws {
        var tie = try Fixtures.scramble(settings: try ScrambleSettings(rounds: 3), players: ["alice", "bob", "carol"])
        try tie.submit("robe", by: "alice", now: 1)
        try tie.submit("lobe", by: "bob", now: 2)
        try tie.submit("romp", by: "carol", now: 3)
        tie.tick(now: 1_000)
        #expect(tie.view.statusLine == "Match over — Alice, Bob and Carol tie with 4 points!")

        var empty = try Fixtures.scramble(settings: try ScrambleSettings(rounds: 3))
        empty.tick(now: 1_000)
        #expect(empty.view.statusLine == "Match over — no words found")
    }

    @Test func showsCurrentAndNextSettings() throws {
        var game = try Fixtures.scramble()
        let next = try ScrambleSettings(rounds: 10, roundSeconds: 45, minWordLength: 4)
        game.updateSettings(next)
        let view = game.view
        #expect(view.settings == .standard)
        #expect(view.nextSettings == next)
        #expect(view.totalRounds == 6)
        #expect(view.minWordLength == 3)
    }
}
