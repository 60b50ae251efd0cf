import Testing
@testable import WordGames

/// Values and helpers shared by the suites.
enum Fixtures {
    /// Every value `value` holds, as text: what a view must not leak is not anywhere in it.
    static func everything(in value: Any) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }

    /// The bundled lists, loaded once for every suite that needs them.
    static let bundled = Result { () throws(WordLists.LoadError) -> WordLists in try WordLists.bundled() }

    /// A player whose name is the id with a capital first letter: "alice" is "Alice".
    static func player(_ id: PlayerID) -> Player {
        Player(id: id, name: id.rawValue.prefix(1).uppercased() + id.rawValue.dropFirst())
    }

    /// A Snowman table whose only possible secret is `word`, with `players` joined at time 0.
    static func snowman(
        word: String = "SNOWMAN", settings: SnowmanSettings = .standard, players: [PlayerID] = ["alice", "bob"],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> SnowmanGame {
        var generator = SplitMix64(seed: 1)
        var game = SnowmanGame(words: try WordList([word]), settings: settings, now: 0, using: &generator)
        for id in players {
            game.addPlayer(player(id), now: 0)
        }
        #expect(String(game.secret) == word, sourceLocation: sourceLocation)
        return game
    }

    /// A small dictionary around the root PROBLEMS, plus words it cannot spell.
    static let problemsLexicon = Lexicon(words: [
        "problems", "problem", "probe", "probes", "robe", "robes", "slob", "lobe", "mob", "mobs", "sob", "rob",
        "bore", "more", "poem", "poems", "romp", "prom", "boss", "be", "or", "zebra",
    ])

    /// The words of `problemsLexicon` that PROBLEMS offers with the default minimum length of 3.
    static let problemsSolutions: Set<String> = [
        "problem", "probe", "probes", "robe", "robes", "slob", "lobe", "mob", "mobs", "sob", "rob", "bore", "more",
        "poem", "poems", "romp", "prom",
    ]

    /// A Scramble table whose every round uses PROBLEMS, with `players` joined, and a match started at time 0.
    static func scramble(
        settings: ScrambleSettings = .standard, players: [PlayerID] = ["alice", "bob"]
    ) throws -> ScrambleGame {
        var game = ScrambleGame(lexicon: problemsLexicon, roots: ["problems"], settings: settings)
        for id in players {
            game.addPlayer(player(id), now: 0)
        }
        var generator = SplitMix64(seed: 1)
        try game.startMatch(now: 0, using: &generator)
        return game
    }

    /// Plays the secret's letters in order, by whoever has the turn, until the game is over.
    static func solve(_ game: inout SnowmanGame, now: Double) throws {
        for letter in game.secret where game.status == .inProgress {
            guard !game.guesses.contains(where: { $0.letter == String(letter) }), let turn = game.turn else { continue }
            try game.guess(String(letter), by: turn, now: now)
        }
    }
}
