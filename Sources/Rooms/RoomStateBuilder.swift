import JSON
import WordGames

/// Builds a room's public state as JSON, rebuilding only the parts that changed since the last build.
///
/// A change is published as a diff between the previous state and the new one. Rebuilding and diffing the whole
/// state would make every move cost in proportion to everything the room holds (200 spectators, a long chat, a
/// match's history); reusing the JSON of unchanged parts makes `JSONPatch.diff` skip them by identity, so a move
/// costs in proportion to what it changed. Parts are keyed by the game-view values they show (arrays that still
/// share storage with the game compare in constant time) or by change counters the room bumps.
struct RoomStateBuilder {
    private var members = JSONMemo<Int>()
    private var chat = JSONListMemo<ChatLine>()

    private var positions = JSONMemo<[SnowmanView.Position]>()
    private var guesses = JSONListMemo<SnowmanGame.Guess>()
    private var snowmanScores = JSONMemo<[SnowmanView.PlayerLine]>()
    private var snowmanSettings = JSONMemo<SnowmanSettings>()
    private var nextSnowmanSettings = JSONMemo<SnowmanSettings>()
    private var history = JSONListMemo<SnowmanGame.Record>()

    private var found = JSONListMemo<ScrambleGame.FoundWord>()
    private var scrambleScores = JSONMemo<[ScrambleView.PlayerLine]>()
    private var scoreboard = JSONMemo<[ScoreLine]>()
    private var lastRound = JSONMemo<ScrambleGame.RoundSummary?>()
    private var finalScoreboard = JSONMemo<[ScoreLine]?>()
    private var scrambleSettings = JSONMemo<ScrambleSettings>()
    private var nextScrambleSettings = JSONMemo<ScrambleSettings>()

    /// The members' list; `version` must change whenever a member joins, leaves, connects or disconnects.
    mutating func members(_ list: [Member], version: Int) -> JSONValue {
        members.value(for: version) { _ in
            .array(list.map { member -> JSONValue in
                [
                    "id": JSONValue(member.id.rawValue),
                    "name": JSONValue(member.name),
                    "role": member.isSpectator ? "spectator" : "player",
                    "connected": JSONValue(member.link != nil),
                ]
            })
        }
    }

    /// The chat lines, oldest first.
    mutating func chat(_ lines: [ChatLine]) -> JSONValue {
        chat.value(for: lines) { line in
            [
                "id": JSONValue(line.id),
                "player": JSONValue(line.player.rawValue),
                "name": JSONValue(line.name),
                "text": JSONValue(line.text),
                "at": JSONValue(line.at),
            ]
        }
    }

    /// The game's part of the state: only what every player may see (the views leave secrets out).
    mutating func game(_ game: RoomGame) -> JSONValue {
        switch game {
        case .snowman(let game): snowman(game.view)
        case .scramble(let game): scramble(game.view)
        }
    }

    mutating func snowman(_ view: SnowmanView) -> JSONValue {
        var object = JSONObject()
        object.reserveCapacity(15)
        object["gameNumber"] = JSONValue(view.gameNumber)
        object["status"] = JSONValue(view.status.rawValue)
        object["statusLine"] = JSONValue(view.statusLine)
        object["positions"] = positions.value(for: view.positions, RoomGame.json)
        object["guesses"] = guesses.value(for: view.guesses, RoomGame.json)
        object["wrongGuesses"] = JSONValue(view.wrongGuesses)
        object["maxWrongGuesses"] = JSONValue(view.maxWrongGuesses)
        object["scores"] = snowmanScores.value(for: view.players, RoomGame.json)
        object["turn"] = nullable(view.turn?.rawValue)
        object["turnEndsAt"] = nullable(view.turnDeadline)
        object["word"] = nullable(view.word)
        object["canStartNext"] = JSONValue(view.canStartNextGame)
        object["settings"] = snowmanSettings.value(for: view.settings, RoomGame.json)
        object["nextSettings"] = nextSnowmanSettings.value(for: view.nextSettings, RoomGame.json)
        object["history"] = history.value(for: view.history, RoomGame.json)
        return .object(object)
    }

    mutating func scramble(_ view: ScrambleView) -> JSONValue {
        var object = JSONObject()
        object.reserveCapacity(16)
        object["matchNumber"] = JSONValue(view.matchNumber)
        object["phase"] = JSONValue(view.phase.rawValue)
        object["statusLine"] = JSONValue(view.statusLine)
        object["round"] = JSONValue(view.roundNumber)
        object["rounds"] = JSONValue(view.totalRounds)
        object["root"] = nullable(view.root)
        object["minWordLength"] = JSONValue(view.minWordLength)
        object["totalWords"] = nullable(view.totalWords)
        object["found"] = found.value(for: view.found, RoomGame.json)
        object["phaseEndsAt"] = nullable(view.phaseEndsAt)
        object["scores"] = scrambleScores.value(for: view.players, RoomGame.json)
        object["scoreboard"] = scoreboard.value(for: view.scoreboard, RoomGame.json)
        object["lastRound"] = lastRound.value(for: view.lastRound) { $0.map(RoomGame.json) ?? .null }
        object["finalScoreboard"] = finalScoreboard.value(for: view.finalScoreboard) { $0.map(RoomGame.json) ?? .null }
        object["canStartNext"] = JSONValue(view.canStartMatch)
        object["settings"] = scrambleSettings.value(for: view.settings, RoomGame.json)
        object["nextSettings"] = nextScrambleSettings.value(for: view.nextSettings, RoomGame.json)
        return .object(object)
    }
}
