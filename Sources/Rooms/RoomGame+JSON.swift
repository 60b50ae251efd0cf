import JSON
import WordGames

/// The public view of a game as JSON: only what every player may see. The secret word and the list of valid
/// words are never part of it while they are secret (the game views leave them out until the game or round ends).
///
/// One encoder per part of a view (per entry for lists), so that `RoomStateBuilder` can rebuild only what changed.
extension RoomGame {
    static func json(_ position: SnowmanView.Position) -> JSONValue {
        [
            "id": JSONValue(position.id),
            "letter": nullable(position.letter),
            "missed": JSONValue(position.isMissed),
        ]
    }

    static func json(_ guess: SnowmanGame.Guess) -> JSONValue {
        [
            "letter": JSONValue(guess.letter),
            "player": JSONValue(guess.player.rawValue),
            "hit": JSONValue(guess.revealedPositions > 0),
            "points": JSONValue(guess.points),
        ]
    }

    static func json(_ line: SnowmanView.PlayerLine) -> JSONValue {
        ["player": JSONValue(line.id.rawValue), "name": JSONValue(line.name), "score": JSONValue(line.score)]
    }

    static func json(_ line: ScrambleView.PlayerLine) -> JSONValue {
        ["player": JSONValue(line.id.rawValue), "name": JSONValue(line.name), "score": JSONValue(line.score)]
    }

    static func json(_ record: SnowmanGame.Record) -> JSONValue {
        [
            "gameNumber": JSONValue(record.gameNumber),
            "word": JSONValue(record.word),
            "result": JSONValue(record.result.rawValue),
            "solver": nullable(record.solver?.rawValue),
            "wrongGuesses": JSONValue(record.wrongGuesses),
            "maxWrongGuesses": JSONValue(record.maxWrongGuesses),
            "scores": json(record.scores),
        ]
    }

    static func json(_ summary: ScrambleGame.RoundSummary) -> JSONValue {
        [
            "number": JSONValue(summary.number),
            "root": JSONValue(summary.root.uppercased()),
            "totalWords": JSONValue(summary.totalWords),
            "found": .array(summary.found.map { json($0) }),
            "missed": .array(summary.missed.map { JSONValue($0) }),
        ]
    }

    static func json(_ found: ScrambleGame.FoundWord) -> JSONValue {
        [
            "word": JSONValue(found.word),
            "length": JSONValue(found.length),
            "player": JSONValue(found.player.rawValue),
            "name": JSONValue(found.name),
            "points": JSONValue(found.points),
        ]
    }

    static func json(_ lines: [ScoreLine]) -> JSONValue {
        .array(lines.map { json($0) })
    }

    static func json(_ line: ScoreLine) -> JSONValue {
        [
            "player": JSONValue(line.player.rawValue),
            "name": JSONValue(line.name),
            "score": JSONValue(line.score),
            "rank": JSONValue(line.rank),
        ]
    }

    static func json(_ standing: SnowmanGame.Standing) -> JSONValue {
        [
            "player": JSONValue(standing.player.rawValue),
            "name": JSONValue(standing.name),
            "total": JSONValue(standing.total),
            "wins": JSONValue(standing.wins),
            "games": JSONValue(standing.games),
            "rank": JSONValue(standing.rank),
        ]
    }

    static func json(_ settings: SnowmanSettings) -> JSONValue {
        ["maxWrongGuesses": JSONValue(settings.maxWrongGuesses),
         "turnSeconds": nullable(settings.turnSeconds)]
    }

    static func json(_ settings: ScrambleSettings) -> JSONValue {
        ["rounds": JSONValue(settings.rounds), "roundSeconds": JSONValue(settings.roundSeconds),
         "minWordLength": JSONValue(settings.minWordLength)]
    }
}

/// `null` for a missing value: optional fields are always present on the wire, so patches replace rather than add.
func nullable(_ value: String?) -> JSONValue { value.map { JSONValue($0) } ?? .null }
func nullable(_ value: Int?) -> JSONValue { value.map { JSONValue($0) } ?? .null }
func nullable(_ value: Double?) -> JSONValue { value.map { JSONValue($0) } ?? .null }
