import JSON
import WordGames

/// The public view of a game as JSON: only what every player may see. The secret word and the list of valid
/// words are never part of it while they are secret (the game views leave them out until the game or round ends).
extension RoomGame {
    var json: JSONValue {
        switch self {
        case .snowman(let game): Self.json(game.view)
        case .scramble(let game): Self.json(game.view)
        }
    }

    static func json(_ view: SnowmanView) -> JSONValue {
        var object = JSONObject()
        object.reserveCapacity(15)
        object["gameNumber"] = JSONValue(view.gameNumber)
        object["status"] = JSONValue(view.status.rawValue)
        object["statusLine"] = JSONValue(view.statusLine)
        object["positions"] = .array(view.positions.map { position -> JSONValue in
            [
                "id": JSONValue(position.id),
                "letter": nullable(position.letter),
                "missed": JSONValue(position.isMissed),
            ]
        })
        object["guesses"] = .array(view.guesses.map { guess -> JSONValue in
            [
                "letter": JSONValue(guess.letter),
                "player": JSONValue(guess.player.rawValue),
                "hit": JSONValue(guess.revealedPositions > 0),
                "points": JSONValue(guess.points),
            ]
        })
        object["wrongGuesses"] = JSONValue(view.wrongGuesses)
        object["maxWrongGuesses"] = JSONValue(view.maxWrongGuesses)
        object["scores"] = .array(view.players.map { line -> JSONValue in
            ["player": JSONValue(line.id.rawValue), "name": JSONValue(line.name), "score": JSONValue(line.score)]
        })
        object["turn"] = nullable(view.turn?.rawValue)
        object["turnEndsAt"] = nullable(view.turnDeadline)
        object["word"] = nullable(view.word)
        object["canStartNext"] = JSONValue(view.canStartNextGame)
        object["settings"] = json(view.settings)
        object["nextSettings"] = json(view.nextSettings)
        object["history"] = .array(view.history.map { record -> JSONValue in
            [
                "gameNumber": JSONValue(record.gameNumber),
                "word": JSONValue(record.word),
                "result": JSONValue(record.result.rawValue),
                "solver": nullable(record.solver?.rawValue),
                "wrongGuesses": JSONValue(record.wrongGuesses),
                "maxWrongGuesses": JSONValue(record.maxWrongGuesses),
                "scores": json(record.scores),
            ]
        })
        return .object(object)
    }

    static func json(_ view: ScrambleView) -> JSONValue {
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
        object["found"] = .array(view.found.map { json($0) })
        object["phaseEndsAt"] = nullable(view.phaseEndsAt)
        object["scores"] = .array(view.players.map { line -> JSONValue in
            ["player": JSONValue(line.id.rawValue), "name": JSONValue(line.name), "score": JSONValue(line.score)]
        })
        object["scoreboard"] = json(view.scoreboard)
        object["lastRound"] = view.lastRound.map { summary -> JSONValue in
            [
                "number": JSONValue(summary.number),
                "root": JSONValue(summary.root.uppercased()),
                "totalWords": JSONValue(summary.totalWords),
                "found": .array(summary.found.map { json($0) }),
                "missed": .array(summary.missed.map { JSONValue($0) }),
            ]
        } ?? JSONValue.null
        object["finalScoreboard"] = view.finalScoreboard.map { json($0) } ?? JSONValue.null
        object["canStartNext"] = JSONValue(view.canStartMatch)
        object["settings"] = json(view.settings)
        object["nextSettings"] = json(view.nextSettings)
        return .object(object)
    }

    private static func json(_ found: ScrambleGame.FoundWord) -> JSONValue {
        [
            "word": JSONValue(found.word),
            "length": JSONValue(found.length),
            "player": JSONValue(found.player.rawValue),
            "name": JSONValue(found.name),
            "points": JSONValue(found.points),
        ]
    }

    private static func json(_ lines: [ScoreLine]) -> JSONValue {
        .array(lines.map { line -> JSONValue in
            [
                "player": JSONValue(line.player.rawValue),
                "name": JSONValue(line.name),
                "score": JSONValue(line.score),
                "rank": JSONValue(line.rank),
            ]
        })
    }

    private static func json(_ settings: SnowmanSettings) -> JSONValue {
        ["maxWrongGuesses": JSONValue(settings.maxWrongGuesses),
         "turnSeconds": nullable(settings.turnSeconds)]
    }

    private static func json(_ settings: ScrambleSettings) -> JSONValue {
        ["rounds": JSONValue(settings.rounds), "roundSeconds": JSONValue(settings.roundSeconds),
         "minWordLength": JSONValue(settings.minWordLength)]
    }
}

/// `null` for a missing value: optional fields are always present on the wire, so patches replace rather than add.
func nullable(_ value: String?) -> JSONValue { value.map { JSONValue($0) } ?? .null }
func nullable(_ value: Int?) -> JSONValue { value.map { JSONValue($0) } ?? .null }
func nullable(_ value: Double?) -> JSONValue { value.map { JSONValue($0) } ?? .null }
