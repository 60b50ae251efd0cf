import JSON
import WordGames

/// The game a room hosts, behind one interface so the room does not care which it is.
enum RoomGame: Sendable {
    case snowman(SnowmanGame)
    case scramble(ScrambleGame)

    var kind: GameKind {
        switch self {
        case .snowman: .snowman
        case .scramble: .scramble
        }
    }

    static func make(_ kind: GameKind, settings: JSONObject, lists: WordLists, now: Double,
                     using generator: inout some RandomNumberGenerator) throws(RoomError) -> RoomGame {
        switch kind {
        case .snowman:
            let parsed = try snowmanSettings(settings, base: .newRoom)
            return .snowman(SnowmanGame(words: lists.secrets, settings: parsed, now: now, using: &generator))
        case .scramble:
            let parsed = try scrambleSettings(settings, base: .standard)
            return .scramble(ScrambleGame(lexicon: lists.lexicon, roots: lists.roots, settings: parsed))
        }
    }

    mutating func addPlayer(_ player: Player, now: Double) {
        switch self {
        case .snowman(var game): game.addPlayer(player, now: now); self = .snowman(game)
        case .scramble(var game): game.addPlayer(player, now: now); self = .scramble(game)
        }
    }

    mutating func removePlayer(_ id: PlayerID, now: Double) {
        switch self {
        case .snowman(var game): game.removePlayer(id, now: now); self = .snowman(game)
        case .scramble(var game): game.removePlayer(id, now: now); self = .scramble(game)
        }
    }

    /// A Snowman guess.
    mutating func guess(_ input: String, by player: PlayerID, now: Double) throws(RoomError) {
        guard case .snowman(var game) = self else {
            throw RoomError(.guessingNeedsSnowman, move: "guess")
        }
        do {
            _ = try game.guess(input, by: player, now: now)
        } catch {
            throw RoomError(error, move: "guess")
        }
        self = .snowman(game)
    }

    /// A Word Scramble word.
    mutating func submit(_ input: String, by player: PlayerID, now: Double) throws(RoomError) {
        guard case .scramble(var game) = self else {
            throw RoomError(.wordsNeedScramble, move: "word")
        }
        do {
            _ = try game.submit(input, by: player, now: now)
        } catch {
            throw RoomError(error, move: "word")
        }
        self = .scramble(game)
    }

    /// Snowman: the next game; Word Scramble: a new match. Only once the current one is over.
    mutating func startNext(now: Double, using generator: inout some RandomNumberGenerator) throws(RoomError) {
        switch self {
        case .snowman(var game):
            do { try game.startNextGame(now: now, using: &generator) } catch { throw RoomError(error, move: "new_game") }
            self = .snowman(game)
        case .scramble(var game):
            do { try game.startMatch(now: now, using: &generator) } catch { throw RoomError(error, move: "new_game") }
            self = .scramble(game)
        }
    }

    /// New settings from the host; they apply from the next game (the games keep them as `nextSettings`).
    mutating func updateSettings(_ settings: JSONObject) throws(RoomError) {
        switch self {
        case .snowman(var game):
            game.updateSettings(try Self.snowmanSettings(settings, base: game.nextSettings))
            self = .snowman(game)
        case .scramble(var game):
            game.updateSettings(try Self.scrambleSettings(settings, base: game.nextSettings))
            self = .scramble(game)
        }
    }

    /// Advances timers.
    ///
    /// - Returns: The players whose turn ran out (Snowman's turn timer), in order.
    mutating func tick(now: Double) -> [PlayerID] {
        switch self {
        case .snowman(var game):
            let skipped = game.tick(now: now)
            self = .snowman(game)
            return skipped
        case .scramble(var game):
            _ = game.tick(now: now)
            self = .scramble(game)
            return []
        }
    }

    /// Whose turn it is in a game in progress (Snowman); nil for games without turns.
    var currentTurn: PlayerID? {
        guard case .snowman(let game) = self, game.status == .inProgress else { return nil }
        return game.turn
    }

    /// Snowman: passes the current player's turn on.
    ///
    /// - Returns: The player whose turn was skipped.
    mutating func skipTurn(now: Double) throws(RoomError) -> PlayerID {
        guard case .snowman(var game) = self else {
            throw RoomError(.noTurnsToSkip, move: "skip")
        }
        let skipped: PlayerID
        do {
            skipped = try game.skipTurn(now: now)
        } catch {
            throw RoomError(error, move: "skip")
        }
        self = .snowman(game)
        return skipped
    }

    /// When `tick` next has work to do.
    var nextDeadline: Double? {
        switch self {
        case .snowman(let game): game.turnDeadline
        case .scramble(let game): game.phaseEndsAt
        }
    }

    /// One word for lobby listings.
    var status: String {
        switch self {
        case .snowman(let game):
            switch game.status {
            case .inProgress: "playing"
            case .won, .lost: "finished"
            }
        case .scramble(let game):
            switch game.phase {
            case .lobby: "waiting"
            case .playing, .intermission: "playing"
            case .finished: "finished"
            }
        }
    }

    // MARK: Settings from JSON

    private static func setting(_ settings: JSONObject, _ key: String) throws(RoomError) -> Int?? {
        guard let value = settings[key] else { return .none }
        if value.isNull { return .some(nil) }
        guard let number = value.intValue else {
            throw RoomError(.settingNotANumber(key: key), move: "settings")
        }
        return .some(number)
    }

    private static func checkKeys(_ settings: JSONObject, allowed: Set<String>) throws(RoomError) {
        for key in settings.keys where !allowed.contains(key) {
            throw RoomError(.unknownSetting(key: key), move: "settings")
        }
    }

    static func snowmanSettings(_ settings: JSONObject, base: SnowmanSettings) throws(RoomError) -> SnowmanSettings {
        try checkKeys(settings, allowed: ["maxWrongGuesses", "turnSeconds"])
        let wrong = try setting(settings, "maxWrongGuesses")
        let turn = try setting(settings, "turnSeconds")
        do {
            return try SnowmanSettings(maxWrongGuesses: (wrong ?? base.maxWrongGuesses) ?? base.maxWrongGuesses,
                                       turnSeconds: turn.map { $0 == 0 ? nil : $0 } ?? base.turnSeconds)
        } catch {
            throw RoomError(error, move: "settings")
        }
    }

    static func scrambleSettings(_ settings: JSONObject, base: ScrambleSettings) throws(RoomError) -> ScrambleSettings {
        try checkKeys(settings, allowed: ["rounds", "roundSeconds", "minWordLength"])
        let rounds = try setting(settings, "rounds")
        let seconds = try setting(settings, "roundSeconds")
        let length = try setting(settings, "minWordLength")
        do {
            return try ScrambleSettings(rounds: (rounds ?? base.rounds) ?? base.rounds,
                                        roundSeconds: (seconds ?? base.roundSeconds) ?? base.roundSeconds,
                                        minWordLength: (length ?? base.minWordLength) ?? base.minWordLength)
        } catch {
            throw RoomError(error, move: "settings")
        }
    }
}
