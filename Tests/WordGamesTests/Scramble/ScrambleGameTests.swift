import Testing
@testable import WordGames

@Suite struct ScrambleGameTests {
    private typealias Rejection = ScrambleGame.Rejection

    // MARK: Starting matches

    @Test func waitsInTheLobbyUntilTheHostStarts() {
        var game = ScrambleGame(lexicon: Fixtures.problemsLexicon, roots: ["problems"])
        game.addPlayer(Fixtures.player("alice"), now: 0)
        #expect(game.phase == .lobby)
        #expect(game.root == nil)
        #expect(game.tick(now: 1_000).isEmpty)
        #expect(throws: Rejection.roundNotRunning(.lobby)) { try game.submit("probe", by: "alice", now: 0) }
    }

    @Test func startingAMatchNeedsAPlayer() {
        var game = ScrambleGame(lexicon: Fixtures.problemsLexicon, roots: ["problems"])
        var generator = SplitMix64(seed: 1)
        #expect(throws: Rejection.noPlayers) { try game.startMatch(now: 0, using: &generator) }
    }

    @Test func startsRoundOneWithTheWholeRoundAhead() throws {
        let game = try Fixtures.scramble()
        #expect(game.phase == .playing)
        #expect(game.matchNumber == 1)
        #expect(game.roundNumber == 1)
        #expect(game.root == "problems")
        #expect(game.phaseEndsAt == 90)
        #expect(game.totalWords == Fixtures.problemsSolutions.count)
        #expect(Set(game.solutions) == Fixtures.problemsSolutions)
    }

    @Test func cannotStartAMatchWhileOneIsRunning() throws {
        var game = try Fixtures.scramble()
        var generator = SplitMix64(seed: 2)
        #expect(throws: Rejection.matchInProgress) { try game.startMatch(now: 5, using: &generator) }
        game.tick(now: 90)
        #expect(game.phase == .intermission)
        #expect(throws: Rejection.matchInProgress) { try game.startMatch(now: 95, using: &generator) }
    }

    // MARK: Accepting words

    @Test func acceptedWordScoresItsLength() throws {
        var game = try Fixtures.scramble()
        let found = try game.submit("probe", by: "alice", now: 1)
        #expect(found == ScrambleGame.FoundWord(word: "probe", player: "alice", name: "Alice"))
        #expect(found.length == 5)
        #expect(found.points == 5)
        #expect(game.scores == ["alice": 5])
    }

    @Test func listsFoundWordsNewestFirst() throws {
        var game = try Fixtures.scramble()
        try game.submit("probe", by: "alice", now: 1)
        try game.submit("mob", by: "bob", now: 2)
        try game.submit("slob", by: "alice", now: 3)
        #expect(game.found.map(\.word) == ["slob", "mob", "probe"])
        #expect(game.found.map(\.player) == ["alice", "bob", "alice"])
        #expect(game.scores == ["alice": 9, "bob": 3])
    }

    @Test(arguments: ["  PROBE ", "Probe", "\tprobe\n"])
    func trimsAndLowercasesSubmissions(input: String) throws {
        var game = try Fixtures.scramble()
        #expect(try game.submit(input, by: "alice", now: 1).word == "probe")
    }

    // MARK: Rejecting words

    @Test(arguments: ["", "   ", "\n"])
    func rejectsEmptyWords(input: String) throws {
        var game = try Fixtures.scramble()
        #expect(throws: Rejection.emptyWord(root: "PROBLEMS")) { try game.submit(input, by: "alice", now: 1) }
    }

    @Test(arguments: [(3, "or"), (4, "mob"), (5, "robe"), (6, "probe")])
    func rejectsWordsBelowTheMinimumLength(minimum: Int, word: String) throws {
        var game = try Fixtures.scramble(settings: try ScrambleSettings(minWordLength: minimum))
        #expect(throws: Rejection.tooShort(word: word, minimum: minimum)) { try game.submit(word, by: "alice", now: 1) }
    }

    @Test(arguments: [(3, "mob"), (4, "robe"), (5, "probe"), (6, "probes")])
    func acceptsWordsOfExactlyTheMinimumLength(minimum: Int, word: String) throws {
        var game = try Fixtures.scramble(settings: try ScrambleSettings(minWordLength: minimum))
        #expect(try game.submit(word, by: "alice", now: 1).word == word)
    }

    @Test func rejectsTheRootWordItself() throws {
        var game = try Fixtures.scramble()
        #expect(throws: Rejection.rootWord(root: "PROBLEMS")) { try game.submit("Problems", by: "alice", now: 1) }
    }

    @Test func rejectsWordsAlreadyFoundByAnyone() throws {
        var game = try Fixtures.scramble()
        try game.submit("slob", by: "alice", now: 1)
        #expect(throws: Rejection.alreadyFound(word: "slob", by: "Alice", byYou: false)) {
            try game.submit("SLOB", by: "bob", now: 2)
        }
        #expect(throws: Rejection.alreadyFound(word: "slob", by: "Alice", byYou: true)) {
            try game.submit("slob", by: "alice", now: 3)
        }
        #expect(game.scores == ["alice": 4])
    }

    @Test func rejectsALetterUsedMoreOftenThanTheRootHasIt() throws {
        var game = try Fixtures.scramble()
        let error = try #require(throws: Rejection.self) { try game.submit("boss", by: "alice", now: 1) }
        #expect(error == .cannotSpell(word: "boss", root: "PROBLEMS", problem: .tooMany(letter: "S", available: 1)))
        #expect(error.message == "You can't spell 'boss' from PROBLEMS: it has one S.")
    }

    @Test func rejectsALetterTheRootDoesNotHave() throws {
        var game = try Fixtures.scramble()
        let error = try #require(throws: Rejection.self) { try game.submit("zebra", by: "alice", now: 1) }
        #expect(error == .cannotSpell(word: "zebra", root: "PROBLEMS", problem: .missingLetter("Z")))
        #expect(error.message == "You can't spell 'zebra' from PROBLEMS: it has no Z.")
    }

    @Test(arguments: [("rob's", "'"), ("m0b", "0"), ("sob bo", " "), ("prébe", "é")])
    func rejectsCharactersThatAreNotLetters(word: String, character: String) throws {
        var game = try Fixtures.scramble()
        #expect(throws: Rejection.cannotSpell(word: word, root: "PROBLEMS", problem: .notALetter(character))) {
            try game.submit(word, by: "alice", now: 1)
        }
    }

    @Test func rejectsSpellableWordsMissingFromTheDictionary() throws {
        var game = try Fixtures.scramble()
        #expect(throws: Rejection.notAWord("sorb")) { try game.submit("sorb", by: "alice", now: 1) }
    }

    @Test func rejectsSpectators() throws {
        var game = try Fixtures.scramble()
        #expect(throws: Rejection.notAPlayer) { try game.submit("probe", by: "mallory", now: 1) }
        game.removePlayer("bob", now: 1)
        #expect(throws: Rejection.notAPlayer) { try game.submit("probe", by: "bob", now: 1) }
    }

    @Test func checksInTheDocumentedOrder() throws {
        var game = try Fixtures.scramble(settings: try ScrambleSettings(minWordLength: 4))
        try game.submit("robe", by: "alice", now: 1)
        // "zzz" is too short before it is unspellable; "robe" is a duplicate before anything else.
        #expect(throws: Rejection.tooShort(word: "zzz", minimum: 4)) { try game.submit("zzz", by: "bob", now: 1) }
        #expect(throws: Rejection.alreadyFound(word: "robe", by: "Alice", byYou: false)) {
            try game.submit("robe", by: "bob", now: 1)
        }
        // "bobs" is unspellable (one B) before it is checked against the dictionary.
        #expect(throws: Rejection.cannotSpell(word: "bobs", root: "PROBLEMS", problem: .tooMany(letter: "B", available: 1))) {
            try game.submit("bobs", by: "bob", now: 1)
        }
    }

    // MARK: Rounds and matches

    @Test func roundEndsWhenItsTimerRunsOut() throws {
        var game = try Fixtures.scramble()
        try game.submit("probe", by: "alice", now: 10)
        #expect(game.tick(now: 89.9).isEmpty)
        #expect(game.phase == .playing)
        #expect(game.tick(now: 90) == [.roundEnded(1)])
        #expect(game.phase == .intermission)
        #expect(game.phaseEndsAt == 90 + Double(ScrambleSettings.defaultBreakSeconds))

        let summary = try #require(game.completedRounds.last)
        #expect(summary.number == 1)
        #expect(summary.root == "PROBLEMS")
        #expect(summary.totalWords == Fixtures.problemsSolutions.count)
        #expect(summary.found.map(\.word) == ["probe"])
        #expect(Set(summary.missed) == Fixtures.problemsSolutions.subtracting(["probe"]))
        #expect(summary.missed.first == "problem", "missed words are listed longest first")
    }

    @Test func wordsSentAfterTheDeadlineAreRefusedEvenBeforeATick() throws {
        var game = try Fixtures.scramble()
        #expect(throws: Rejection.roundNotRunning(.intermission)) { try game.submit("probe", by: "alice", now: 90) }
        #expect(game.completedRounds.first?.found.isEmpty == true)
    }

    @Test func nextRoundStartsAutomaticallyAfterTheIntermission() throws {
        var game = try Fixtures.scramble(settings: try ScrambleSettings(breakSeconds: 10))
        game.tick(now: 90)
        #expect(game.tick(now: 99.9).isEmpty)
        #expect(game.tick(now: 100) == [.roundStarted(2)])
        #expect(game.phase == .playing)
        #expect(game.roundNumber == 2)
        #expect(game.found.isEmpty)
        #expect(game.phaseEndsAt == 190)
    }

    @Test func aRoundKeepsItsWordsUntilTheNextStartsAndThenOnlyTheirCount() throws {
        var game = try Fixtures.scramble(settings: try ScrambleSettings(rounds: 3, breakSeconds: 10),
                                         players: ["alice", "bob"])
        try game.submit("probe", by: "alice", now: 1)
        try game.submit("poems", by: "bob", now: 2)
        game.tick(now: 90)
        #expect(game.view.lastRound?.found.map(\.word) == ["poems", "probe"])
        #expect(game.view.lastRound?.foundCount == 2)
        game.tick(now: 100)
        #expect(game.completedRounds[0].found.isEmpty)
        #expect(game.view.roundsPlayed.map(\.foundCount) == [2])
        try game.submit("mob", by: "bob", now: 101)
        game.tick(now: 190)
        #expect(game.view.roundsPlayed.map(\.foundCount) == [2, 1])
        #expect(game.view.lastRound?.found.map(\.word) == ["mob"])

        let restored = try ScrambleGame(snapshot: game.snapshot, lexicon: Fixtures.problemsLexicon, roots: ["problems"])
        #expect(restored.view.roundsPlayed.map(\.foundCount) == [2, 1])
        #expect(restored.completedRounds == game.completedRounds)
    }

    @Test func matchEndsAfterItsLastRoundWithAFinalScoreboard() throws {
        var game = try Fixtures.scramble(settings: try ScrambleSettings(rounds: 3, breakSeconds: 10),
                                         players: ["alice", "bob", "carol"])
        try game.submit("probe", by: "alice", now: 1)
        game.tick(now: 100)
        try game.submit("poems", by: "bob", now: 101)
        try game.submit("mob", by: "carol", now: 102)
        game.tick(now: 200)
        try game.submit("bore", by: "alice", now: 201)
        #expect(game.tick(now: 290) == [.roundEnded(3), .matchFinished])
        #expect(game.phase == .finished)
        #expect(game.phaseEndsAt == nil)
        #expect(game.completedRounds.map(\.number) == [1, 2, 3])
        #expect(game.finalScoreboard == [
            ScoreLine(player: "alice", name: "Alice", score: 9, rank: 1),
            ScoreLine(player: "bob", name: "Bob", score: 5, rank: 2),
            ScoreLine(player: "carol", name: "Carol", score: 3, rank: 3),
        ])
        #expect(throws: Rejection.roundNotRunning(.finished)) { try game.submit("rob", by: "alice", now: 291) }
        #expect(game.tick(now: 10_000).isEmpty)
    }

    @Test func lateTickCatchesUpThroughEveryPhase() throws {
        var game = try Fixtures.scramble(settings: try ScrambleSettings(rounds: 3, roundSeconds: 30))
        #expect(game.tick(now: 1_000) == [
            .roundEnded(1), .roundStarted(2), .roundEnded(2), .roundStarted(3), .roundEnded(3), .matchFinished,
        ])
        #expect(game.phase == .finished)
    }

    @Test func finalScoreboardKeepsPlayersWhoLeftAndAddsLatecomers() throws {
        var game = try Fixtures.scramble(settings: try ScrambleSettings(rounds: 3), players: ["alice", "bob"])
        try game.submit("probes", by: "bob", now: 1)
        game.removePlayer("bob", now: 2)
        game.addPlayer(Fixtures.player("carol"), now: 3)
        try game.submit("robe", by: "carol", now: 4)
        try game.submit("lobe", by: "alice", now: 5)
        game.tick(now: 1_000)
        #expect(game.finalScoreboard == [
            ScoreLine(player: "bob", name: "Bob", score: 6, rank: 1),
            ScoreLine(player: "alice", name: "Alice", score: 4, rank: 2),
            ScoreLine(player: "carol", name: "Carol", score: 4, rank: 2),
        ])
    }

    @Test func newMatchResetsScoresAndRounds() throws {
        var game = try Fixtures.scramble(settings: try ScrambleSettings(rounds: 3))
        try game.submit("probe", by: "alice", now: 1)
        game.tick(now: 1_000)
        var generator = SplitMix64(seed: 3)
        try game.startMatch(now: 2_000, using: &generator)
        #expect(game.matchNumber == 2)
        #expect(game.roundNumber == 1)
        #expect(game.scores.isEmpty)
        #expect(game.completedRounds.isEmpty)
        #expect(game.finalScoreboard == nil)
        #expect(game.phaseEndsAt == 2_090)
    }

    @Test func settingsApplyToTheNextMatchOnly() throws {
        var game = try Fixtures.scramble(settings: try ScrambleSettings(rounds: 3))
        let next = try ScrambleSettings(rounds: 4, roundSeconds: 60, minWordLength: 5)
        game.updateSettings(next)
        #expect(game.settings.rounds == 3)
        #expect(try game.submit("mob", by: "alice", now: 1).word == "mob", "the running match keeps its minimum")
        game.tick(now: 1_000)
        #expect(game.completedRounds.count == 3)

        var generator = SplitMix64(seed: 3)
        try game.startMatch(now: 2_000, using: &generator)
        #expect(game.settings == next)
        #expect(game.phaseEndsAt == 2_060)
        #expect(game.totalWords == Fixtures.problemsSolutions.filter { $0.count >= 5 }.count)
        #expect(throws: Rejection.tooShort(word: "robe", minimum: 5)) { try game.submit("robe", by: "alice", now: 2_001) }
        game.tick(now: 10_000)
        #expect(game.completedRounds.count == 4)
    }

    @Test func playersCanJoinBetweenMatchesAndRename() throws {
        var game = try Fixtures.scramble()
        game.addPlayer(Player(id: "alice", name: "Ally"), now: 1)
        try game.submit("probe", by: "alice", now: 2)
        #expect(game.found.first?.name == "Ally")
        #expect(game.players.map(\.name) == ["Ally", "Bob"])
    }

    // MARK: Randomness

    @Test func sameSeedGivesTheSameRoots() throws {
        let lists = try Fixtures.bundled.get()
        func roots(seed: UInt64) throws -> [String] {
            var game = ScrambleGame(lexicon: lists.lexicon, roots: lists.roots, settings: try ScrambleSettings(rounds: 5))
            game.addPlayer(Fixtures.player("alice"), now: 0)
            var generator = SplitMix64(seed: seed)
            var roots: [String] = []
            for match in 0..<3 {
                try game.startMatch(now: Double(match) * 10_000, using: &generator)
                game.tick(now: Double(match) * 10_000 + 5_000)
                roots += game.completedRounds.map(\.root)
            }
            return roots
        }
        let first = try roots(seed: 7)
        #expect(first.count == 15)
        #expect(try roots(seed: 7) == first)
        #expect(try roots(seed: 8) != first)
    }

    @Test func rootsDoNotRepeatWithinAMatchWhileThePoolLasts() throws {
        let roots = ["problems", "trainers", "painters", "resident"]
        var game = ScrambleGame(lexicon: Fixtures.problemsLexicon, roots: roots, settings: try ScrambleSettings(rounds: 4))
        game.addPlayer(Fixtures.player("alice"), now: 0)
        var generator = SplitMix64(seed: 5)
        try game.startMatch(now: 0, using: &generator)
        game.tick(now: 10_000)
        #expect(Set(game.completedRounds.map(\.root)) == Set(roots.map { $0.uppercased() }))
    }

    @Test func smallPoolsRepeatRootsRatherThanStall() throws {
        var game = ScrambleGame(lexicon: Fixtures.problemsLexicon, roots: ["problems"], settings: try ScrambleSettings(rounds: 3))
        game.addPlayer(Fixtures.player("alice"), now: 0)
        var generator = SplitMix64(seed: 5)
        try game.startMatch(now: 0, using: &generator)
        game.tick(now: 10_000)
        #expect(game.completedRounds.map(\.root) == ["PROBLEMS", "PROBLEMS", "PROBLEMS"])
    }

    // MARK: Secrecy and messages

    @Test func dumpingAGameDoesNotRevealTheWordsLeft() throws {
        let game = try Fixtures.scramble()
        var output = ""
        dump(game, to: &output)
        #expect(!output.contains("poems"))
    }

    @Test func rejectionsHaveDistinctCodesAndHelpfulText() {
        let rejections: [Rejection] = [
            .roundNotRunning(.lobby), .notAPlayer, .emptyWord(root: "PROBLEMS"), .tooShort(word: "or", minimum: 3),
            .rootWord(root: "PROBLEMS"), .alreadyFound(word: "mob", by: "Alice", byYou: false),
            .cannotSpell(word: "boss", root: "PROBLEMS", problem: .tooMany(letter: "S", available: 1)),
            .notAWord("sorb"), .matchInProgress, .noPlayers, .notInBreak(.playing),
        ]
        #expect(Set(rejections.map(\.code)).count == rejections.count)
        #expect(rejections.allSatisfy { !$0.title.isEmpty && !$0.message.isEmpty })
        #expect(Rejection.tooShort(word: "or", minimum: 3).message == "'or' is too short: words need at least 3 letters.")
        #expect(Rejection.rootWord(root: "PROBLEMS").message
            == "PROBLEMS is the root word itself. Find shorter words inside it.")
        #expect(Rejection.alreadyFound(word: "mob", by: "Alice", byYou: false).message
            == "'mob' was already found by Alice.")
        #expect(Rejection.alreadyFound(word: "mob", by: "Alice", byYou: true).message == "You already found 'mob'.")
        #expect(Rejection.notAWord("sorb").message == "'sorb' isn't in the dictionary.")
        #expect(Rejection.emptyWord(root: "PROBLEMS").message == "Type a word made from the letters of PROBLEMS.")
        #expect(Rejection.cannotSpell(word: "m0b", root: "PROBLEMS", problem: .notALetter("0")).message
            == "You can't spell 'm0b' from PROBLEMS: '0' is not a letter.")
        #expect(Rejection.cannotSpell(word: "ppp", root: "APPLE", problem: .tooMany(letter: "P", available: 2)).message
            == "You can't spell 'ppp' from APPLE: it has two Ps.")
        #expect(Rejection.notInBreak(.playing).code == "not-in-break")
        #expect(Rejection.notInBreak(.playing).message
            == "The round is still running. Press Ready in the break after it.")
    }
}
