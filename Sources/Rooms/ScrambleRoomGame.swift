import JSON
import WordGames

extension GameKind {
    /// Word Scramble: find words in the letters of a root word, against the clock.
    public static let scramble = GameKind(declaring: "scramble")
}

extension ClientMessage {
    /// Word Scramble's `word`: `{"type":"word","word":"toast"}`.
    public static func word(_ word: String) -> ClientMessage {
        .move(GameMove(type: "word", text: word))
    }

    /// Word Scramble's `ready`, between rounds: `{"type":"ready"}`.
    public static let ready = ClientMessage.move(GameMove(type: "ready", text: ""))
}

/// Word Scramble in a room: `ScrambleGame`'s rules behind `RoomGame`, its view as `state.scramble`, its snapshot
/// as JSON.
struct ScrambleRoomGame: RoomGame {
    var game: ScrambleGame
    /// The word the last `play` found, when it changed nothing else (no round had ended): what
    /// `showPlayedMove` writes. Stale after other changes, which the room tells apart (see `RoomGame`).
    var playedWord: ScrambleGame.FoundWord?
    /// Renames so far: a rename changes the names in found words already shown, which `JSONLog` takes for
    /// unchanging, so it starts the list's generation anew.
    var renames = 0

    init(game: ScrambleGame) {
        self.game = game
    }

    static var kind: GameKind { .scramble }
    static var title: String { "Word Scramble" }
    static var settingSpecs: [SettingSpec] { ScrambleSettings.specs }
    static var moves: [GameMoveSpec] {
        [GameMoveSpec(type: "word", field: "word", missing: #""word" needs the "word" you found."#,
                      doing: "Submitting words"),
         GameMoveSpec(type: "ready", field: nil, missing: "", doing: "Pressing Ready between rounds")]
    }

    static func make(settings: JSONObject, lists: WordLists, now: Double,
                     using random: inout SplitMix64) throws(RoomError) -> ScrambleRoomGame {
        let parsed = try Self.settings(settings, base: .standard)
        return ScrambleRoomGame(game: ScrambleGame(lexicon: lists.lexicon, roots: lists.roots, settings: parsed))
    }

    // MARK: Moves and timers

    mutating func addPlayer(_ player: Player, now: Double) { game.addPlayer(player, now: now) }
    mutating func removePlayer(_ id: PlayerID, now: Double) { game.removePlayer(id, now: now) }

    mutating func play(_ move: GameMove, by player: PlayerID, now: Double) throws(RoomError) {
        playedWord = nil
        switch move.type {
        case "word":
            // A round that ended before the word (`submit` would end it itself) is more than the word changes.
            let phaseMoved = !game.tick(now: now).isEmpty
            do {
                let found = try game.submit(move.text, by: player, now: now)
                if !phaseMoved { playedWord = found }
            } catch {
                throw RoomError(error, move: move.type)
            }
        case "ready":
            do { try game.markReady(player, now: now) } catch { throw RoomError(error, move: move.type) }
        default:
            throw wrongGame(move)
        }
    }

    /// A new match.
    mutating func startNext(now: Double, using random: inout SplitMix64) throws(RoomError) {
        do { try game.startMatch(now: now, using: &random) } catch { throw RoomError(error, move: "new_game") }
    }

    mutating func updateSettings(_ settings: JSONObject) throws(RoomError) {
        game.updateSettings(try Self.settings(settings, base: game.nextSettings))
    }

    /// Rounds end by themselves; nobody's turn runs out.
    mutating func tick(now: Double) -> [PlayerID] {
        _ = game.tick(now: now)
        return []
    }

    var nextDeadline: Double? { game.phaseEndsAt }

    mutating func renamePlayer(_ id: PlayerID, to name: String) {
        game.renamePlayer(id, to: name)
        renames &+= 1
    }

    /// The generation of the shown found words: they only grow within one round of one match, between renames.
    var foundGeneration: Int {
        (game.matchNumber &* 1_000 &+ game.roundNumber) &* 1_000_003 &+ renames
    }

    /// One per finished round; the last round's also names the match's winner.
    var resultNotice: (number: Int, text: String)? {
        game.resultText.map { (game.resultNumber, $0) }
    }

    /// The Ready list, during an intermission only.
    var readyPlayers: [PlayerID]? { game.phase == .intermission ? game.ready : nil }

    mutating func everyoneReady(now: Double) { game.endBreak(now: now) }

    var status: String {
        switch game.phase {
        case .lobby: "waiting"
        case .playing, .intermission: "playing"
        case .finished: "finished"
        }
    }

    static func settings(_ settings: JSONObject, base: ScrambleSettings) throws(RoomError) -> ScrambleSettings {
        try GameJSON.checkKeys(settings, allowed: ["rounds", "roundSeconds", "minWordLength", "breakSeconds"])
        let rounds = try GameJSON.setting(settings, "rounds")
        let seconds = try GameJSON.setting(settings, "roundSeconds")
        let length = try GameJSON.setting(settings, "minWordLength")
        let pause = try GameJSON.setting(settings, "breakSeconds")
        do {
            return try ScrambleSettings(rounds: (rounds ?? base.rounds) ?? base.rounds,
                                        roundSeconds: (seconds ?? base.roundSeconds) ?? base.roundSeconds,
                                        minWordLength: (length ?? base.minWordLength) ?? base.minWordLength,
                                        breakSeconds: (pause ?? base.breakSeconds) ?? base.breakSeconds)
        } catch {
            throw RoomError(error, move: "settings")
        }
    }

    // MARK: The state it shows

    struct ShownParts {
        var found = JSONLog<ScrambleGame.FoundWord>(newestAt: .front)
        var scores = JSONRows<ScrambleView.PlayerLine>()
        var scoreboard = JSONRows<ScoreLine>()
        var lastRound = JSONMemo<ScrambleGame.RoundSummary?>()
        var finalScoreboard = JSONMemo<[ScoreLine]?>()
        /// Keyed by match number and rounds played: a finished round never changes what this shows.
        var roundsPlayed = JSONMemo<[Int]>()
        var ready = JSONMemo<[PlayerID]>()
        var settings = JSONMemo<ScrambleSettings>()
        var nextSettings = JSONMemo<ScrambleSettings>()
    }

    static func shownParts() -> ShownParts { ShownParts() }

    func show(in object: inout JSONObject, kept: inout ShownParts, editor: inout StateEditor) {
        let view = game.view
        editor.set(&object, "matchNumber", JSONValue(view.matchNumber))
        editor.set(&object, "phase", JSONValue(view.phase.rawValue))
        editor.set(&object, "statusLine", JSONValue(view.statusLine))
        editor.set(&object, "round", JSONValue(view.roundNumber))
        editor.set(&object, "rounds", JSONValue(view.totalRounds))
        editor.set(&object, "root", nullable(view.root))
        editor.set(&object, "minWordLength", JSONValue(view.minWordLength))
        editor.set(&object, "totalWords", nullable(view.totalWords))
        editor.update(&object, "found", log: &kept.found, view.found,
                      generation: foundGeneration, ordinal: nil, Self.shownJSON)
        editor.set(&object, "phaseEndsAt", nullable(view.phaseEndsAt))
        editor.update(&object, "scores", rows: &kept.scores, view.players, Self.json)
        editor.update(&object, "scoreboard", rows: &kept.scoreboard, view.scoreboard, GameJSON.json)
        editor.set(&object, "lastRound", memo: &kept.lastRound, for: view.lastRound) { $0.map(Self.json) ?? .null }
        editor.set(&object, "finalScoreboard", memo: &kept.finalScoreboard, for: view.finalScoreboard) {
            $0.map(GameJSON.json) ?? .null
        }
        editor.set(&object, "roundsPlayed", kept.roundsPlayed.value(for: [view.matchNumber, view.roundsPlayed.count]) { _ in
            .array(view.roundsPlayed.map(Self.playedJSON))
        })
        editor.set(&object, "ready", kept.ready.value(for: view.ready) { .array($0.map { JSONValue($0.rawValue) }) })
        editor.set(&object, "canStartNext", JSONValue(view.canStartMatch))
        editor.set(&object, "settings", kept.settings.value(for: view.settings, Self.json))
        editor.set(&object, "nextSettings", kept.nextSettings.value(for: view.nextSettings, Self.json))
    }

    private static func json(_ line: ScrambleView.PlayerLine) -> JSONValue {
        ["player": JSONValue(line.id.rawValue), "name": JSONValue(line.name), "score": JSONValue(line.score)]
    }

    private static func json(_ summary: ScrambleGame.RoundSummary) -> JSONValue {
        [
            "number": JSONValue(summary.number),
            "root": JSONValue(summary.root.uppercased()),
            "totalWords": JSONValue(summary.totalWords),
            "found": .array(summary.found.map(Self.shownJSON)),
            "missed": .array(summary.missed.map { JSONValue($0) }),
        ]
    }

    /// A line of `roundsPlayed`: `found` is how many words were found.
    private static func playedJSON(_ summary: ScrambleGame.RoundSummary) -> JSONValue {
        [
            "round": JSONValue(summary.number),
            "root": JSONValue(summary.root.uppercased()),
            "found": JSONValue(summary.foundCount),
            "missed": .array(summary.missed.map { JSONValue($0) }),
        ]
    }

    /// A found word in the state.
    static func shownJSON(_ found: ScrambleGame.FoundWord) -> JSONValue { json(found) }

    /// Shown and saved alike.
    static func json(_ found: ScrambleGame.FoundWord) -> JSONValue {
        [
            "word": JSONValue(found.word),
            "length": JSONValue(found.length),
            "player": JSONValue(found.player.rawValue),
            "name": JSONValue(found.name),
            "points": JSONValue(found.points),
        ]
    }

    /// Shown and saved alike.
    private static func json(_ settings: ScrambleSettings) -> JSONValue {
        ["rounds": JSONValue(settings.rounds), "roundSeconds": JSONValue(settings.roundSeconds),
         "minWordLength": JSONValue(settings.minWordLength), "breakSeconds": JSONValue(settings.breakSeconds)]
    }

    // MARK: Snapshot

    /// The keys are those the Codable journal wrote, so that one reader serves both.
    var snapshot: JSONValue {
        let saved = game.snapshot
        return [
            "settings": Self.json(saved.settings),
            "nextSettings": Self.json(saved.nextSettings),
            "players": .array(saved.players.map(GameJSON.json)),
            "phase": JSONValue(saved.phase.rawValue),
            "matchNumber": JSONValue(saved.matchNumber),
            "roundNumber": JSONValue(saved.roundNumber),
            "root": nullable(saved.root),
            "found": .array(saved.found.map(Self.json)),
            "phaseEndsAt": nullable(saved.phaseEndsAt),
            "completedRounds": .array(saved.completedRounds.map { summary -> JSONValue in
                [
                    "number": JSONValue(summary.number), "root": JSONValue(summary.root),
                    "totalWords": JSONValue(summary.totalWords), "found": .array(summary.found.map(Self.json)),
                    "foundCount": JSONValue(summary.foundCount), "missed": .array(summary.missed.map { JSONValue($0) }),
                ]
            }),
            "scores": GameJSON.json(saved.scores),
            "finalScoreboard": saved.finalScoreboard.map(GameJSON.json) ?? .null,
            "solutions": .array(saved.solutions.map { JSONValue($0) }),
            "matchRoots": .array(saved.matchRoots.map { JSONValue($0) }),
            "participants": .array(saved.participants.map(GameJSON.json)),
            "ready": .array(saved.ready.map { JSONValue($0.rawValue) }),
            "resultNumber": JSONValue(saved.resultNumber),
            "resultText": nullable(saved.resultText),
        ]
    }

    init(snapshot: JSONValue, lists: WordLists) throws(SavedObject.Unreadable) {
        let saved = try SavedObject(snapshot, "Word Scramble snapshot")
        let readSettings = { (object: SavedObject) throws in
            try ScrambleSettings(
                rounds: object.optionalInt("rounds") ?? ScrambleSettings.defaultRounds,
                roundSeconds: object.optionalInt("roundSeconds") ?? ScrambleSettings.defaultRoundSeconds,
                minWordLength: object.optionalInt("minWordLength") ?? ScrambleSettings.defaultMinWordLength,
                breakSeconds: object.optionalInt("breakSeconds") ?? ScrambleSettings.defaultBreakSeconds)
        }
        let readFound = { (word: SavedObject) throws(SavedObject.Unreadable) in
            // Length and points follow from the word.
            ScrambleGame.FoundWord(word: try word.string("word"), player: PlayerID(try word.string("player")),
                                   name: try word.string("name"))
        }
        let settings = try GameJSON.settings(saved, "settings", readSettings)
        let nextSettings = try GameJSON.settings(saved, "nextSettings", readSettings)
        let players = try saved.array("players", GameJSON.player)
        let phase: ScrambleGame.Phase = try GameJSON.raw(saved, "phase")
        let matchNumber = try saved.int("matchNumber")
        let roundNumber = try saved.int("roundNumber")
        let root = try saved.optionalString("root")
        let found = try saved.objects("found", readFound)
        let phaseEndsAt = try saved.optionalDouble("phaseEndsAt")
        let completedRounds = try saved.objects("completedRounds") { (round) throws(SavedObject.Unreadable) in
            ScrambleGame.RoundSummary(
                number: try round.int("number"), root: try round.string("root"),
                totalWords: try round.int("totalWords"), found: try round.objects("found", readFound),
                // Absent from snapshots saved before older rounds let their words go.
                foundCount: try round.optionalInt("foundCount"), missed: try round.array("missed", GameJSON.strings))
        }
        let scores = try GameJSON.scores(saved.value("scores"))
        let finalScoreboard = try saved.optionalArray("finalScoreboard", GameJSON.scoreLine)
        let solutions = try saved.array("solutions", GameJSON.strings)
        let matchRoots = try saved.array("matchRoots", GameJSON.strings)
        let participants = try saved.array("participants", GameJSON.player)
        // Absent from snapshots saved before Ready and result notices.
        let ready = try saved.optionalArray("ready", GameJSON.strings) ?? []
        let resultNumber = try saved.optionalInt("resultNumber") ?? 0
        let resultText = try saved.optionalString("resultText")
        let parts = ScrambleGame.Snapshot(
            settings: settings, nextSettings: nextSettings, players: players, phase: phase, matchNumber: matchNumber,
            roundNumber: roundNumber, root: root, found: found, phaseEndsAt: phaseEndsAt,
            completedRounds: completedRounds, scores: scores, finalScoreboard: finalScoreboard, solutions: solutions,
            matchRoots: matchRoots, participants: participants, ready: ready.map { PlayerID($0) },
            resultNumber: resultNumber, resultText: resultText)
        do {
            game = try ScrambleGame(snapshot: parts, lexicon: lists.lexicon, roots: lists.roots)
        } catch {
            throw SavedObject.Unreadable(error.description)
        }
    }
}
