import JSON
import WordGames

extension GameKind {
    /// Snowman: guess the secret word letter by letter, in turns.
    public static let snowman = GameKind(declaring: "snowman")
}

extension ClientMessage {
    /// Snowman's `guess`: `{"type":"guess","letter":"e"}`.
    public static func guess(_ letter: String) -> ClientMessage {
        .move(GameMove(type: "guess", text: letter))
    }
}

/// Snowman in a room: `SnowmanGame`'s rules behind `RoomGame`, its view as `state.snowman`, its snapshot as JSON.
struct SnowmanRoomGame: RoomGame {
    var game: SnowmanGame
    /// The guess the last `play` made, when it changed nothing else (no turn had run out): what
    /// `showPlayedMove` writes. Stale after other changes, which the room tells apart (see `RoomGame`).
    var playedGuess: SnowmanGame.Guess?
    /// Renames so far: a rename changes the names in the finished games' score lines already shown, which
    /// `JSONLog` takes for unchanging, so it starts the history's generation anew.
    var renames = 0

    init(game: SnowmanGame) {
        self.game = game
    }

    static var kind: GameKind { .snowman }
    static var title: String { "Snowman" }
    static var settingSpecs: [SettingSpec] { SnowmanSettings.specs }
    static var moves: [GameMoveSpec] {
        [GameMoveSpec(type: "guess", field: "letter", missing: #""guess" needs a "letter"."#, doing: "Guessing letters")]
    }

    /// The `create` option (not a setting: it is neither stored nor shown) that opens the room waiting for the
    /// host's `new_game` instead of with a game under way.
    static let waitForHostKey = "waitForHost"

    static func make(settings: JSONObject, lists: WordLists, now: Double,
                     using random: inout SplitMix64) throws(RoomError) -> SnowmanRoomGame {
        var settings = settings
        var waitForHost = false
        if let value = settings.removeValue(forKey: waitForHostKey), !value.isNull {
            guard let flag = value.boolValue else {
                throw RoomError(SnowmanSettings.Rejection.notOnOrOff(setting: waitForHostKey), move: "settings")
            }
            waitForHost = flag
        }
        let packs = lists.packs
        let parsed = try Self.settings(settings, base: .newRoom, packs: packs)
        return SnowmanRoomGame(game: SnowmanGame(packs: packs, settings: parsed, waitForHost: waitForHost, now: now,
                                                 using: &random))
    }

    // MARK: Moves and timers

    mutating func addPlayer(_ player: Player, now: Double) { game.addPlayer(player, now: now) }
    mutating func removePlayer(_ id: PlayerID, now: Double) { game.removePlayer(id, now: now) }

    mutating func play(_ move: GameMove, by player: PlayerID, now: Double) throws(RoomError) {
        guard move.type == "guess" else { throw wrongGame(move) }
        playedGuess = nil
        // Turns that ran out before the guess (`guess` would pass them itself) are more than the guess changes.
        let turnsRanOut = !game.tick(now: now).isEmpty
        do {
            let guess = try game.guess(move.text, by: player, now: now)
            if !turnsRanOut { playedGuess = guess }
        } catch {
            throw RoomError(error, move: move.type)
        }
    }

    mutating func startNext(now: Double, using random: inout SplitMix64) throws(RoomError) {
        do { try game.startNextGame(now: now, using: &random) } catch { throw RoomError(error, move: "new_game") }
    }

    mutating func updateSettings(_ settings: JSONObject) throws(RoomError) {
        game.updateSettings(try Self.settings(settings, base: game.nextSettings, packs: game.packs))
    }

    /// Renames `id` in the scores, the history's score lines and the leaderboard (a `RoomGame` requirement once
    /// the room's `rename` is in).
    mutating func renamePlayer(_ id: PlayerID, to name: String) {
        game.renamePlayer(id, to: name)
        renames &+= 1
    }

    /// The finished game's result for the room's chat, numbered by the game's number (one more per finished
    /// game, and kept by a snapshot, so a restored room does not announce it again); nil while waiting or
    /// playing. A `RoomGame` requirement once the room's notices are in.
    var resultNotice: (number: Int, text: String)? {
        game.resultLine.map { (number: game.gameNumber, text: $0) }
    }

    mutating func tick(now: Double) -> [PlayerID] { game.tick(now: now) }

    var nextDeadline: Double? { game.turnDeadline }

    var status: String {
        switch game.status {
        case .waiting: "waiting"
        case .inProgress: "playing"
        case .won, .lost: "finished"
        }
    }

    var currentTurn: PlayerID? { game.status == .inProgress ? game.turn : nil }

    mutating func skipTurn(now: Double) throws(RoomError) -> PlayerID {
        do { return try game.skipTurn(now: now) } catch { throw RoomError(error, move: "skip") }
    }

    /// Players who left are still named in the leaderboard.
    func name(of player: PlayerID) -> String? {
        game.leaderboard.first { $0.player == player }?.name
    }

    /// `base` with what `settings` changes, checked.
    ///
    /// - Parameters:
    ///   - settings: The `settings` of a `create` or `settings` message.
    ///   - base: The settings they change.
    ///   - packs: The packs `pack` may name.
    /// - Throws: `bad-setting` (a key the game does not have, a value of the wrong kind, an unknown pack or word
    ///   source), `setting-out-of-range`, or `bad-words` (the custom words do not hold, or there are none to play
    ///   with).
    static func settings(_ settings: JSONObject, base: SnowmanSettings,
                         packs: [WordPack]) throws(RoomError) -> SnowmanSettings {
        try GameJSON.checkKeys(settings, allowed: ["maxWrongGuesses", "turnSeconds", "pack", "wordSource",
                                                   "customWords"])
        let wrong = try GameJSON.setting(settings, "maxWrongGuesses")
        let turn = try GameJSON.setting(settings, "turnSeconds")
        var pack = base.pack
        if let value = settings["pack"] {
            guard let id = value.stringValue, packs.contains(where: { $0.id == id }) else {
                let names = packs.map { SnowmanSettings.PackName(id: $0.id, title: $0.title) }
                throw RoomError(SnowmanSettings.Rejection.unknownPack(given: value.stringValue, packs: names),
                                move: "settings")
            }
            pack = id
        }
        var customWords = base.customWords
        if let value = settings["customWords"] {
            guard let text = value.stringValue else { throw RoomError(CustomWordList.Rejection.notText, move: "settings") }
            do {
                customWords = try CustomWordList.parse(text)
            } catch {
                throw RoomError(error, move: "settings")
            }
        }
        var source = base.wordSource
        if let value = settings["wordSource"] {
            guard let name = value.stringValue, let chosen = SnowmanSettings.WordSource(rawValue: name) else {
                throw RoomError(SnowmanSettings.Rejection.unknownWordSource(given: value.stringValue), move: "settings")
            }
            guard chosen == .pack || customWords != nil else {
                throw RoomError(SnowmanSettings.Rejection.noCustomWords(chosen), move: "settings")
            }
            source = chosen
        }
        do {
            // Without custom words (cleared with ""), the source falls back to the pack.
            return try SnowmanSettings(maxWrongGuesses: (wrong ?? base.maxWrongGuesses) ?? base.maxWrongGuesses,
                                       turnSeconds: turn.map { $0 == 0 ? nil : $0 } ?? base.turnSeconds,
                                       pack: pack, wordSource: source, customWords: customWords)
        } catch {
            throw RoomError(error, move: "settings")
        }
    }

    // MARK: The state it shows

    struct ShownParts {
        var positions = JSONRows<SnowmanView.Position>()
        var guesses = JSONLog<SnowmanGame.Guess>(newestAt: .back)
        var scores = JSONRows<SnowmanView.PlayerLine>()
        var settings = JSONMemo<SnowmanView.Settings>()
        var nextSettings = JSONMemo<SnowmanView.Settings>()
        var history = JSONLog<SnowmanGame.Record>(newestAt: .back)
        var leaderboard = JSONRows<SnowmanGame.Standing>()
    }

    static func shownParts() -> ShownParts { ShownParts() }

    func show(in object: inout JSONObject, kept: inout ShownParts, editor: inout StateEditor) {
        let view = game.view
        editor.set(&object, "gameNumber", JSONValue(view.gameNumber))
        editor.set(&object, "status", JSONValue(view.status.rawValue))
        editor.set(&object, "statusLine", JSONValue(view.statusLine))
        editor.update(&object, "positions", rows: &kept.positions, view.positions, Self.json)
        editor.update(&object, "guesses", log: &kept.guesses, view.guesses, generation: view.gameNumber,
                      ordinal: nil, Self.json)
        editor.set(&object, "wrongGuesses", JSONValue(view.wrongGuesses))
        editor.set(&object, "maxWrongGuesses", JSONValue(view.maxWrongGuesses))
        editor.update(&object, "scores", rows: &kept.scores, Self.scoreLines(view), Self.json)
        editor.set(&object, "turn", nullable(view.turn?.rawValue))
        editor.set(&object, "turnEndsAt", nullable(view.turnDeadline))
        editor.set(&object, "word", nullable(view.word))
        editor.set(&object, "canStartNext", JSONValue(view.canStartNextGame))
        editor.set(&object, "settings", kept.settings.value(for: view.settings, Self.json))
        editor.set(&object, "nextSettings", kept.nextSettings.value(for: view.nextSettings, Self.json))
        editor.update(&object, "history", log: &kept.history, view.history, generation: renames, ordinal: \.gameNumber,
                      Self.json)
        editor.update(&object, "leaderboard", rows: &kept.leaderboard, view.leaderboard, Self.json)
    }

    /// The players' lines as the scores show them: whose turn it is changes with every guess but is not part of
    /// the scores (it is `turn`), so it must not make them look changed.
    static func scoreLines(_ view: SnowmanView) -> [SnowmanView.PlayerLine] {
        view.players.map { line in
            var shown = line
            shown.hasTurn = false
            return shown
        }
    }

    static func json(_ position: SnowmanView.Position) -> JSONValue {
        ["id": JSONValue(position.id), "letter": nullable(position.letter), "missed": JSONValue(position.isMissed)]
    }

    static func json(_ guess: SnowmanGame.Guess) -> JSONValue {
        JSONValue.object([
            "letter": JSONValue(guess.letter),
            "player": JSONValue(guess.player.rawValue),
            "hit": JSONValue(guess.revealedPositions > 0),
            "points": JSONValue(guess.points),
        ])
    }

    private static func json(_ line: SnowmanView.PlayerLine) -> JSONValue {
        ["player": JSONValue(line.id.rawValue), "name": JSONValue(line.name), "score": JSONValue(line.score)]
    }

    /// Shown and saved alike.
    private static func json(_ record: SnowmanGame.Record) -> JSONValue {
        [
            "gameNumber": JSONValue(record.gameNumber),
            "word": JSONValue(record.word),
            "result": JSONValue(record.result.rawValue),
            "solver": nullable(record.solver?.rawValue),
            "wrongGuesses": JSONValue(record.wrongGuesses),
            "maxWrongGuesses": JSONValue(record.maxWrongGuesses),
            "scores": GameJSON.json(record.scores),
        ]
    }

    /// Shown and saved alike.
    private static func json(_ standing: SnowmanGame.Standing) -> JSONValue {
        [
            "player": JSONValue(standing.player.rawValue),
            "name": JSONValue(standing.name),
            "total": JSONValue(standing.total),
            "wins": JSONValue(standing.wins),
            "games": JSONValue(standing.games),
            "rank": JSONValue(standing.rank),
        ]
    }

    /// Shown: the host's own words only as their count.
    private static func json(_ settings: SnowmanView.Settings) -> JSONValue {
        [
            "maxWrongGuesses": JSONValue(settings.maxWrongGuesses), "turnSeconds": nullable(settings.turnSeconds),
            "pack": JSONValue(settings.pack), "wordSource": JSONValue(settings.wordSource.rawValue),
            "customWords": JSONValue(settings.customWords),
        ]
    }

    /// Saved: with the host's own words (absent when there are none, as in snapshots older than custom words).
    private static func savedJSON(_ settings: SnowmanSettings) -> JSONValue {
        var object: JSONObject = [
            "maxWrongGuesses": JSONValue(settings.maxWrongGuesses), "turnSeconds": nullable(settings.turnSeconds),
            "pack": JSONValue(settings.pack), "wordSource": JSONValue(settings.wordSource.rawValue),
        ]
        if let custom = settings.customWords {
            object["customWords"] = .array(custom.words.map { JSONValue($0) })
        }
        return .object(object)
    }

    // MARK: Snapshot

    /// The keys are those the Codable journal wrote, so that one reader serves both.
    var snapshot: JSONValue {
        let saved = game.snapshot
        return [
            "settings": Self.savedJSON(saved.settings),
            "nextSettings": Self.savedJSON(saved.nextSettings),
            "players": .array(saved.players.map(GameJSON.json)),
            "gameNumber": JSONValue(saved.gameNumber),
            "status": JSONValue(saved.status.rawValue),
            "guesses": .array(saved.guesses.map { guess -> JSONValue in
                [
                    "letter": JSONValue(guess.letter), "player": JSONValue(guess.player.rawValue),
                    "revealedPositions": JSONValue(guess.revealedPositions), "bonus": JSONValue(guess.bonus),
                ]
            }),
            "wrongGuesses": JSONValue(saved.wrongGuesses),
            "turn": nullable(saved.turn?.rawValue),
            "turnDeadline": nullable(saved.turnDeadline),
            "scores": GameJSON.json(saved.scores),
            "solver": nullable(saved.solver?.rawValue),
            "history": .array(saved.history.map(Self.json)),
            "secret": JSONValue(saved.secret),
            "revealed": .array(saved.revealed.map { JSONValue($0) }),
            "participants": .array(saved.participants.map(GameJSON.json)),
            "leaderboard": .array((saved.leaderboard ?? []).map(Self.json)),
        ]
    }

    init(snapshot: JSONValue, lists: WordLists) throws(SavedObject.Unreadable) {
        let saved = try SavedObject(snapshot, "Snowman snapshot")
        // Snapshots from before packs and custom words have neither: the general pack then.
        let readSettings = { (object: SavedObject) throws in
            let source = try object.optionalString("wordSource") ?? SnowmanSettings.WordSource.pack.rawValue
            guard let wordSource = SnowmanSettings.WordSource(rawValue: source) else {
                throw SavedObject.Unreadable("\"wordSource\" has an unknown value \"\(source.prefix(16))\"")
            }
            return try SnowmanSettings(
                maxWrongGuesses: object.optionalInt("maxWrongGuesses") ?? SnowmanSettings.defaultMaxWrongGuesses,
                turnSeconds: object.optionalInt("turnSeconds"),
                pack: object.optionalString("pack") ?? WordPack.generalID, wordSource: wordSource,
                customWords: object.optionalArray("customWords", GameJSON.strings).map(CustomWordList.init(saved:)))
        }
        let settings = try GameJSON.settings(saved, "settings", readSettings)
        let nextSettings = try GameJSON.settings(saved, "nextSettings", readSettings)
        let players = try saved.array("players", GameJSON.player)
        let gameNumber = try saved.int("gameNumber")
        let status: SnowmanGame.Status = try GameJSON.raw(saved, "status")
        let guesses = try saved.objects("guesses") { (guess) throws(SavedObject.Unreadable) in
            SnowmanGame.Guess(letter: try guess.string("letter"), player: PlayerID(try guess.string("player")),
                              revealedPositions: try guess.int("revealedPositions"), bonus: try guess.int("bonus"))
        }
        let wrongGuesses = try saved.int("wrongGuesses")
        let turn = try saved.optionalString("turn").map { PlayerID($0) }
        let turnDeadline = try saved.optionalDouble("turnDeadline")
        let scores = try GameJSON.scores(saved.value("scores"))
        let solver = try saved.optionalString("solver").map { PlayerID($0) }
        let history = try saved.objects("history") { (record) throws(SavedObject.Unreadable) in
            SnowmanGame.Record(
                gameNumber: try record.int("gameNumber"), word: try record.string("word"),
                result: try GameJSON.raw(record, "result"),
                solver: try record.optionalString("solver").map { PlayerID($0) },
                wrongGuesses: try record.int("wrongGuesses"), maxWrongGuesses: try record.int("maxWrongGuesses"),
                scores: try record.array("scores", GameJSON.scoreLine))
        }
        let secret = try saved.string("secret")
        let revealed = try saved.array("revealed", GameJSON.bools)
        let participants = try saved.array("participants", GameJSON.player)
        let leaderboard = try saved.optionalObjects("leaderboard") { (standing) throws(SavedObject.Unreadable) in
            SnowmanGame.Standing(
                player: PlayerID(try standing.string("player")), name: try standing.string("name"),
                total: try standing.int("total"), wins: try standing.int("wins"), games: try standing.int("games"),
                rank: try standing.int("rank"))
        }
        let parts = SnowmanGame.Snapshot(
            settings: settings, nextSettings: nextSettings, players: players, gameNumber: gameNumber, status: status,
            guesses: guesses, wrongGuesses: wrongGuesses, turn: turn, turnDeadline: turnDeadline, scores: scores,
            solver: solver, history: history, secret: secret, revealed: revealed, participants: participants,
            leaderboard: leaderboard)
        do {
            game = try SnowmanGame(snapshot: parts, packs: lists.packs)
        } catch {
            throw SavedObject.Unreadable(error.description)
        }
    }
}
