import Testing
@testable import WordGames

/// Unshown words (the lexicon's crude or grim words): accepted when typed, never listed by the game.
@Suite struct UnshownWordsTests {
    /// `Fixtures.problemsLexicon` with two of PROBLEMS's words standing in for unshown ones.
    static let lexicon = Lexicon(
        words: ["problems", "problem", "probe", "robe", "slob", "mob", "sob", "rob", "zebra"],
        unshown: ["slob", "mob", "zebra", "notaword"])
    static let shownSolutions: Set<String> = ["problem", "probe", "robe", "sob", "rob"]

    static func game() throws -> ScrambleGame {
        var game = ScrambleGame(lexicon: lexicon, roots: ["problems"])
        game.addPlayer(Fixtures.player("alice"), now: 0)
        game.addPlayer(Fixtures.player("bob"), now: 0)
        var generator = SplitMix64(seed: 1)
        try game.startMatch(now: 0, using: &generator)
        return game
    }

    @Test func theLexiconAcceptsUnshownWordsButSaysNotToShowThem() {
        let lexicon = Self.lexicon
        #expect(lexicon.count == 9)
        #expect(lexicon.contains("slob") && !lexicon.isShown("slob"))
        #expect(lexicon.contains("sob") && lexicon.isShown("sob"))
        #expect(lexicon.unshown == ["slob", "mob", "zebra"], "words outside the lexicon are ignored")
        #expect(lexicon.words(spelledFrom: "problems", minimumLength: 3).contains("mob"),
                "spelling still finds every word")
        #expect(Lexicon(words: ["mob"]).isShown("mob"), "nothing is unshown by default")
    }

    @Test func missedWordsNeverListAnUnshownWord() throws {
        var game = try Self.game()
        #expect(Set(game.solutions) == Self.shownSolutions)
        #expect(game.totalWords == Self.shownSolutions.count)
        try game.submit("probe", by: "alice", now: 10)
        game.tick(now: 90)

        let summary = try #require(game.view.lastRound)
        #expect(Set(summary.missed) == Self.shownSolutions.subtracting(["probe"]))
        #expect(!summary.missed.contains("slob") && !summary.missed.contains("mob"))
        #expect(summary.totalWords == summary.found.count + summary.missed.count)
    }

    @Test func anUnshownWordIsAcceptedAndScoredWhenTyped() throws {
        var game = try Self.game()
        let found = try game.submit(" SLOB ", by: "bob", now: 10)
        #expect(found.word == "slob" && found.points == 4)
        #expect(game.scores["bob"] == 4)
        #expect(game.view.found.map(\.word) == ["slob"], "the player typed it: it is shown as found")
        #expect(game.totalWords == Self.shownSolutions.count + 1, "a found unshown word joins the total")
        #expect(throws: ScrambleGame.Rejection.alreadyFound(word: "slob", by: "Bob", byYou: false)) {
            try game.submit("slob", by: "alice", now: 11)
        }
        game.tick(now: 90)

        let summary = try #require(game.completedRounds.last)
        #expect(summary.found.map(\.word) == ["slob"])
        #expect(Set(summary.missed) == Self.shownSolutions, "mob stays unlisted")
        #expect(summary.totalWords == summary.found.count + summary.missed.count)
    }

    @Test func aRestoredRoundDropsWordsThatBecameUnshown() throws {
        let everyWordShown = Lexicon(words: Self.lexicon.words(spelledFrom: "problems"))
        var game = ScrambleGame(lexicon: everyWordShown, roots: ["problems"])
        game.addPlayer(Fixtures.player("alice"), now: 0)
        var generator = SplitMix64(seed: 1)
        try game.startMatch(now: 0, using: &generator)
        #expect(game.solutions.contains("slob"))

        var restored = try ScrambleGame(snapshot: game.snapshot, lexicon: Self.lexicon, roots: ["problems"])
        #expect(Set(restored.solutions) == Self.shownSolutions)
        restored.tick(now: 90)
        #expect(Set(try #require(restored.completedRounds.last).missed) == Self.shownSolutions)
    }

    /// On the bundled lists: a root that offers a blocked word never lists it, yet a player may still type it.
    @Test func bundledRootsNeverListABlockedWordAsMissed() throws {
        let lists = try Fixtures.bundled.get()
        let blocklist = try Blocklist.repository()
        let offering = lists.roots.filter { root in
            lists.lexicon.words(spelledFrom: root, minimumLength: 3).contains { $0 != root && blocklist.blocks($0) }
        }
        #expect(offering.count > 50, "roots offering a blocked word: \(offering.count)")

        for root in offering.prefix(200) {
            let settings = try ScrambleSettings(minWordLength: 3)
            var game = ScrambleGame(lexicon: lists.lexicon, roots: [root], settings: settings)
            game.addPlayer(Fixtures.player("alice"), now: 0)
            var generator = SplitMix64(seed: 1)
            try game.startMatch(now: 0, using: &generator)
            let blocked = lists.lexicon.words(spelledFrom: root, minimumLength: 3).filter(blocklist.blocks)
            #expect(!game.solutions.contains(where: blocklist.blocks), "\(root)")
            let typed = try #require(blocked.first)
            #expect(try game.submit(typed, by: "alice", now: 1).word == typed, "\(root): \(typed) is accepted")
            game.tick(now: Double(game.settings.roundSeconds))

            let summary = try #require(game.view.lastRound)
            let listed = summary.missed.filter(blocklist.blocks)
            #expect(listed.isEmpty, "\(root) lists \(listed) as missed")
            #expect(summary.totalWords == summary.found.count + summary.missed.count)
        }
    }
}
