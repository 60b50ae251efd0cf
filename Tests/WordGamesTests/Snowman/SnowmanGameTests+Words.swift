import Testing
@testable import WordGames

extension SnowmanGameTests {
    /// Two packs that share no word: general (winter words) and animals.
    static func twoPacks() throws -> [WordPack] {
        [
            .general(try WordList(["igloo", "mitten", "scarf"])),
            WordPack(id: "animals", title: "Animals", words: try WordList(["otter", "badger", "heron"])),
        ]
    }

    /// Ten custom words, none in either pack.
    static func customWords() throws -> CustomWordList {
        try #require(try CustomWordList.parse("kettle, teapot, spoon, ladle, whisk, saucer, plate, bowl, pitcher, tray"))
    }

    /// The secrets of `games` games in a row, each solved, with `settings` from the first.
    static func secrets(_ games: Int, settings: SnowmanSettings, seed: UInt64 = 5) throws -> [String] {
        var generator = SplitMix64(seed: seed)
        var game = SnowmanGame(packs: try twoPacks(), settings: settings, now: 0, using: &generator)
        game.addPlayer(Fixtures.player("alice"), now: 0)
        var secrets: [String] = []
        for _ in 0..<games {
            secrets.append(String(game.secret))
            try Fixtures.solve(&game, now: 0)
            try game.startNextGame(now: 0, using: &generator)
        }
        return secrets
    }

    @Test func secretsComeFromTheChosenPack() throws {
        let animals = Set(try Self.twoPacks()[1].words.words)
        let drawn = try Self.secrets(30, settings: try SnowmanSettings(pack: "animals"))
        #expect(Set(drawn).isSubset(of: animals))
        #expect(Set(drawn).count == animals.count, "every word of the pack comes up in 30 games")
    }

    @Test func anUnknownPackDrawsFromTheFirst() throws {
        let general = Set(try Self.twoPacks()[0].words.words)
        let drawn = try Self.secrets(10, settings: try SnowmanSettings(pack: "sports"))
        #expect(Set(drawn).isSubset(of: general))
    }

    @Test func theGeneralPackDrawsAsBeforePacksExisted() throws {
        // Same seed, same draws as a table made from the word list alone: existing rooms keep their secrets.
        let words = try WordList(["igloo", "mitten", "scarf"])
        var old = SplitMix64(seed: 11)
        var new = SplitMix64(seed: 11)
        let before = SnowmanGame(words: words, now: 0, using: &old)
        let after = SnowmanGame(packs: try Self.twoPacks(), settings: try SnowmanSettings(pack: "general"), now: 0,
                                using: &new)
        #expect(after.secret == before.secret)
        #expect(old.next() == new.next())
    }

    @Test func customWordsAloneOrMixedWithThePack() throws {
        let custom = try Self.customWords()
        let animals = Set(try Self.twoPacks()[1].words.words)
        let onlyCustom = try Self.secrets(40, settings: try SnowmanSettings(pack: "animals", wordSource: .custom,
                                                                            customWords: custom))
        #expect(Set(onlyCustom).isSubset(of: Set(custom.words)))
        let mixed = Set(try Self.secrets(80, settings: try SnowmanSettings(pack: "animals", wordSource: .mixed,
                                                                           customWords: custom)))
        #expect(mixed.isSubset(of: animals.union(custom.words)))
        #expect(!mixed.isDisjoint(with: animals) && !mixed.isDisjoint(with: custom.words), "both kinds come up")
        let pack = try Self.secrets(20, settings: try SnowmanSettings(pack: "animals", wordSource: .pack,
                                                                      customWords: custom))
        #expect(Set(pack).isSubset(of: animals), "the list is kept but not used")
    }

    @Test func withoutCustomWordsTheSourceIsThePack() throws {
        #expect(try SnowmanSettings(wordSource: .custom).wordSource == .pack)
        #expect(try SnowmanSettings(wordSource: .mixed, customWords: try Self.customWords()).wordSource == .mixed)
    }

    @Test func aNewPackAppliesFromTheNextGame() throws {
        var generator = SplitMix64(seed: 2)
        var game = SnowmanGame(packs: try Self.twoPacks(), now: 0, using: &generator)
        game.addPlayer(Fixtures.player("alice"), now: 0)
        game.updateSettings(try SnowmanSettings(pack: "animals"))
        #expect(["IGLOO", "MITTEN", "SCARF"].contains(String(game.secret)))
        #expect(game.view.settings.pack == "general")
        #expect(game.view.nextSettings.pack == "animals")
        try Fixtures.solve(&game, now: 1)
        try game.startNextGame(now: 2, using: &generator)
        #expect(["OTTER", "BADGER", "HERON"].contains(String(game.secret)))
        #expect(game.view.settings.pack == "animals")
    }

    @Test func theViewCountsTheHostsWordsButNeverHoldsThem() throws {
        var game = try Fixtures.snowman()
        let custom = try Self.customWords()
        game.updateSettings(try SnowmanSettings(wordSource: .custom, customWords: custom))
        let view = game.view
        #expect(view.nextSettings.customWords == 10)
        #expect(view.nextSettings.wordSource == .custom)
        #expect(view.settings.customWords == 0)
        let everything = Fixtures.everything(in: view)
        for word in custom.words {
            #expect(!everything.contains(word), "\(word) is in the view")
        }
        #expect(Fixtures.everything(in: game.nextSettings).contains("KETTLE"), "the check can see a word")
    }

    // MARK: Names and results

    @Test func renamingAPlayerRenamesEveryLineThatShowsThem() throws {
        var game = try Fixtures.snowman(word: "ICED")
        try Fixtures.solve(&game, now: 0)
        var generator = SplitMix64(seed: 1)
        try game.startNextGame(now: 1, using: &generator)
        game.renamePlayer("alice", to: "Ally")
        game.renamePlayer("nobody", to: "Ghost")
        #expect(game.players.map(\.name) == ["Ally", "Bob"])
        #expect(game.view.players.first?.name == "Ally")
        #expect(game.history.first?.scores.first { $0.player == "alice" }?.name == "Ally")
        #expect(game.leaderboard.first { $0.player == "alice" }?.name == "Ally")
        #expect(!Fixtures.everything(in: game.view).contains("Alice"))
        #expect(!Fixtures.everything(in: game.view).contains("Ghost"))
    }

    @Test func aPlayerWhoLeftIsRenamedInTheHistory() throws {
        var game = try Fixtures.snowman(word: "ICED")
        try Fixtures.solve(&game, now: 0)
        game.removePlayer("bob", now: 1)
        game.renamePlayer("bob", to: "Bobby")
        #expect(game.history.first?.scores.first { $0.player == "bob" }?.name == "Bobby")
        #expect(game.leaderboard.first { $0.player == "bob" }?.name == "Bobby")
        #expect(game.players.map(\.name) == ["Alice"])
    }

    @Test func theResultLineSaysWhoSolvedItOrThatTheSnowmanMelted() throws {
        var won = try Fixtures.snowman(word: "ICED", players: ["alice"])
        #expect(won.resultLine == nil)
        try Fixtures.solve(&won, now: 0)
        #expect(won.resultLine == "Alice solved ICED")

        var lost = try Fixtures.snowman(word: "ICED", settings: try SnowmanSettings(maxWrongGuesses: 3))
        for letter in ["Q", "W", "Z"] {
            try lost.guess(letter, by: try #require(lost.turn), now: 0)
        }
        #expect(lost.resultLine == "The snowman melted — the word was ICED")
    }
}
