/// The rules of Snowman for one room: a shared secret word, players guessing letters in turn, and the room's
/// history of finished games.
///
/// A pure value: no I/O, no clock, no hidden randomness. The rooms layer (one actor per room) holds it, calls the
/// mutating methods with the current time, and publishes `view`, which never contains the secret word before the
/// game is over. Times are seconds on any monotonic clock the caller chooses; only differences matter.
///
/// Rules:
/// - Players take turns in join order; every accepted guess, right or wrong, passes the turn on. The turn pointer
///   carries over between games, so the next game starts with whoever would have guessed next.
/// - A right guess scores one point per revealed position; the guess that completes the word also scores
///   `solveBonus`. A wrong guess scores nothing and counts towards `SnowmanSettings.maxWrongGuesses`.
/// - With a turn timer, a player who has not guessed by `turnDeadline` is skipped; the next turn's deadline counts
///   from the missed deadline, not from when `tick(now:)` noticed, so a replay gives the same game however often
///   the room ticks.
public struct SnowmanGame: Sendable {
    /// Extra points for the guess that completes the word.
    public static let solveBonus = 5
    /// Finished games kept in `history`, newest last; older ones are dropped so a long-lived room stays small.
    public static let historyLimit = 50

    /// Where the current game stands.
    public enum Status: String, Hashable, Sendable {
        /// The room opened without a game (`waitForHost`): players gather until the host starts the first one.
        case waiting
        /// Letters are being guessed.
        case inProgress
        /// Every letter was guessed.
        case won
        /// `maxWrongGuesses` wrong guesses were made.
        case lost
    }

    /// One accepted guess.
    public struct Guess: Hashable, Sendable {
        /// The uppercase letter guessed.
        public var letter: String
        /// Who guessed it.
        public var player: PlayerID
        /// Positions it revealed; 0 for a wrong guess.
        public var revealedPositions: Int
        /// `solveBonus` if this guess completed the word, else 0.
        public var bonus: Int
        /// Points scored: `revealedPositions + bonus`.
        public var points: Int

        /// Creates a guess record; `points` is derived.
        public init(letter: String, player: PlayerID, revealedPositions: Int, bonus: Int) {
            self.letter = letter
            self.player = player
            self.revealedPositions = revealedPositions
            self.bonus = bonus
            self.points = revealedPositions + bonus
        }

        /// Whether the letter is in the word.
        public var isCorrect: Bool { revealedPositions > 0 }
    }

    /// Settings of the current game.
    public internal(set) var settings: SnowmanSettings
    /// Settings that the next game will use; `updateSettings(_:)` changes only these.
    public internal(set) var nextSettings: SnowmanSettings
    /// Players in join order.
    public internal(set) var players: [Player] = []
    /// 1 for the room's first game; 0 while waiting for it.
    public internal(set) var gameNumber = 0
    /// Where the current game stands.
    public internal(set) var status: Status = .inProgress
    /// Accepted guesses of the current game, in order.
    public internal(set) var guesses: [Guess] = []
    /// Wrong guesses in the current game.
    public internal(set) var wrongGuesses = 0
    /// Whose turn it is, or would be if a game were in progress; `nil` only when there are no players.
    public internal(set) var turn: PlayerID?
    /// When the current turn is skipped, or `nil` without a turn timer or outside a game.
    public internal(set) var turnDeadline: Double?
    /// Points per player in the current game, including players who have left.
    public internal(set) var scores: [PlayerID: Int] = [:]
    /// Who completed the word, once the game is won.
    public internal(set) var solver: PlayerID?
    /// Finished games, oldest first, at most `historyLimit`.
    public internal(set) var history: [Record] = []
    /// Running totals over every finished game of the room (not only those still in `history`), best first.
    public internal(set) var leaderboard: [Standing] = []

    /// The secret word's letters, uppercase. Internal on purpose: rooms see only `view`.
    var secret: [Character] = []
    /// Which positions of `secret` have been guessed.
    var revealed: [Bool] = []
    /// Everyone who was a player at some point of the current game, in join order.
    var participants: [Player] = []
    /// The packs secrets come from, as `SnowmanSettings.pack` names them; the first is used for an unknown id.
    public let packs: [WordPack]

    /// Creates a room's Snowman table with only the general pack and starts its first game; players join with
    /// `addPlayer(_:now:)`.
    ///
    /// - Parameters:
    ///   - words: Secret words to draw from.
    ///   - settings: Settings of the first game.
    ///   - now: Current time in seconds.
    ///   - generator: The room's random source; it picks the secret word.
    public init(
        words: WordList, settings: SnowmanSettings = .standard, now: Double,
        using generator: inout some RandomNumberGenerator
    ) {
        self.init(packs: [.general(words)], settings: settings, now: now, using: &generator)
    }

    /// Creates a room's Snowman table; players join with `addPlayer(_:now:)`.
    ///
    /// - Parameters:
    ///   - packs: The packs secrets are drawn from (not empty); the first is the default.
    ///   - settings: Settings of the first game.
    ///   - waitForHost: Whether the table waits (status `.waiting`, no secret drawn) until
    ///     `startNextGame(now:using:)` starts the first game, rather than starting it now.
    ///   - now: Current time in seconds.
    ///   - generator: The room's random source; it picks the secret word.
    public init(
        packs: [WordPack], settings: SnowmanSettings = .standard, waitForHost: Bool = false, now: Double,
        using generator: inout some RandomNumberGenerator
    ) {
        precondition(!packs.isEmpty, "a Snowman table needs a pack to draw secrets from")
        self.packs = packs
        self.settings = settings
        self.nextSettings = settings
        if waitForHost {
            status = .waiting
        } else {
            beginGame(now: now, using: &generator)
        }
    }

    /// Whether `startNextGame(now:using:)` would succeed: while waiting for the first game, or once a game is over.
    public var canStartNextGame: Bool { status != .inProgress }

    /// Whether the current game is won or lost.
    public var isOver: Bool { status == .won || status == .lost }

    /// The player whose turn it is.
    public var currentPlayer: Player? {
        players.first { $0.id == turn }
    }

    /// Adds a player at the end of the turn order, or renames one who is already playing.
    ///
    /// Applies any turn timeouts up to `now` first, as `tick(now:)` would. A player joining an empty table gets
    /// the turn (with a fresh timer). Someone who leaves and rejoins during a game keeps their points.
    ///
    /// - Parameters:
    ///   - player: The player; an existing `id` only updates the name.
    ///   - now: Current time in seconds.
    public mutating func addPlayer(_ player: Player, now: Double) {
        tick(now: now)
        if players.rename(player) {
            participants.rename(player)
            return
        }
        players.append(player)
        if status == .inProgress, !participants.contains(where: { $0.id == player.id }) {
            participants.append(player)
        }
        if turn == nil {
            turn = player.id
            restartTurnTimer(now: now)
        }
    }

    /// Removes a player (they become a spectator or left the room).
    ///
    /// Applies turn timeouts up to `now` first. If it was their turn, the next player in join order gets it with a
    /// fresh timer. Their points stay in `scores` and in the game's record.
    ///
    /// - Parameters:
    ///   - id: The player to remove; unknown ids are ignored.
    ///   - now: Current time in seconds.
    public mutating func removePlayer(_ id: PlayerID, now: Double) {
        tick(now: now)
        guard let index = players.firstIndex(where: { $0.id == id }) else { return }
        if turn == id {
            turn = players.count > 1 ? players[(index + 1) % players.count].id : nil
            players.remove(at: index)
            restartTurnTimer(now: now)
        } else {
            players.remove(at: index)
        }
    }

    /// Gives a player a new name wherever the game shows it: the turn order, the current game's players, the
    /// score lines of finished games and the leaderboard.
    ///
    /// - Parameters:
    ///   - id: The player, who may have left (their history and standing still carry the name); unknown ids
    ///     change nothing.
    ///   - name: The new name, already checked by the rooms layer.
    public mutating func renamePlayer(_ id: PlayerID, to name: String) {
        for index in players.indices where players[index].id == id { players[index].name = name }
        for index in participants.indices where participants[index].id == id { participants[index].name = name }
        for record in history.indices {
            for line in history[record].scores.indices where history[record].scores[line].player == id {
                history[record].scores[line].name = name
            }
        }
        for index in leaderboard.indices where leaderboard[index].player == id { leaderboard[index].name = name }
    }

    /// Guesses a letter for `player`.
    ///
    /// Applies turn timeouts up to `now` first. Uses the first character of `input` after leading whitespace,
    /// uppercased.
    ///
    /// - Parameters:
    ///   - input: What the player typed.
    ///   - player: Who is guessing.
    ///   - now: Current time in seconds.
    /// - Returns: The accepted guess with its points.
    /// - Throws: `Rejection.gameNotStarted` or `.gameOver`, `.notAPlayer`, `.notYourTurn`, `.notALetter` or
    ///   `.alreadyGuessed`, checked in that order; the game is unchanged then.
    @discardableResult
    public mutating func guess(_ input: String, by player: PlayerID, now: Double) throws(Rejection) -> Guess {
        tick(now: now)
        try checkInProgress()
        guard players.contains(where: { $0.id == player }) else { throw .notAPlayer }
        guard turn == player else {
            // `turn` is set whenever there are players, and `player` is one of them.
            throw .notYourTurn(current: currentPlayer ?? Player(id: player, name: player.rawValue))
        }
        let letter = try Self.letter(in: input)
        guard !guesses.contains(where: { $0.letter == String(letter) }) else {
            throw .alreadyGuessed(String(letter))
        }

        var hits = 0
        for index in secret.indices where secret[index] == letter {
            revealed[index] = true
            hits += 1
        }
        let solved = hits > 0 && !revealed.contains(false)
        let accepted = Guess(
            letter: String(letter), player: player, revealedPositions: hits, bonus: solved ? Self.solveBonus : 0)
        guesses.append(accepted)
        scores[player, default: 0] += accepted.points
        if hits == 0 {
            wrongGuesses += 1
        }
        turn = self.player(after: player)

        if solved {
            solver = player
            finish(.won)
        } else if wrongGuesses >= settings.maxWrongGuesses {
            finish(.lost)
        } else {
            restartTurnTimer(now: now)
        }
        return accepted
    }

    /// Passes the turn of the current player on to the next one, as if their timer had run out: the host's
    /// "skip", or a player who disconnected on their turn.
    ///
    /// - Parameter now: Current time in seconds; the next turn's timer counts from it.
    /// - Returns: The player whose turn was skipped.
    /// - Throws: `Rejection.gameNotStarted` or `.gameOver` outside a game, `.notAPlayer` when nobody has the turn.
    @discardableResult
    public mutating func skipTurn(now: Double) throws(Rejection) -> PlayerID {
        tick(now: now)
        try checkInProgress()
        guard let current = turn else { throw .notAPlayer }
        turn = player(after: current)
        restartTurnTimer(now: now)
        return current
    }

    /// Skips players whose turn timer ran out; the rooms layer calls this about once a second.
    ///
    /// - Parameter now: Current time in seconds.
    /// - Returns: The players skipped, in order (several if the room ticked late; empty usually).
    @discardableResult
    public mutating func tick(now: Double) -> [PlayerID] {
        var skipped: [PlayerID] = []
        while status == .inProgress, let current = turn, let deadline = turnDeadline, now >= deadline,
            let seconds = settings.turnSeconds
        {
            skipped.append(current)
            turn = player(after: current)
            turnDeadline = deadline + Double(seconds)
        }
        return skipped
    }

    /// Stores settings for the next game; the running game keeps its own.
    ///
    /// - Parameter settings: Validated settings.
    public mutating func updateSettings(_ settings: SnowmanSettings) {
        nextSettings = settings
    }

    /// Starts a new game with a new secret word and `nextSettings`; only allowed while waiting for the first game
    /// or once the current one is over.
    ///
    /// - Parameters:
    ///   - now: Current time in seconds.
    ///   - generator: The room's random source; it picks the secret word (from `nextSettings`' words).
    /// - Throws: `Rejection.gameInProgress` while the current game is still being played.
    public mutating func startNextGame(now: Double, using generator: inout some RandomNumberGenerator)
        throws(Rejection)
    {
        guard canStartNextGame else { throw .gameInProgress }
        beginGame(now: now, using: &generator)
    }

    private mutating func beginGame(now: Double, using generator: inout some RandomNumberGenerator) {
        gameNumber += 1
        settings = nextSettings
        secret = Array(Self.secret(for: settings, from: packs, using: &generator))
        revealed = Array(repeating: false, count: secret.count)
        guesses = []
        wrongGuesses = 0
        scores = [:]
        solver = nil
        status = .inProgress
        participants = players
        restartTurnTimer(now: now)
    }

    private mutating func finish(_ result: Status) {
        status = result
        turnDeadline = nil
        let finalScores = ScoreLine.ranked(participants) { id, _ in scores[id, default: 0] }
        history.append(Record(
            gameNumber: gameNumber, word: String(secret), result: result, solver: solver,
            wrongGuesses: wrongGuesses, maxWrongGuesses: settings.maxWrongGuesses, scores: finalScores))
        leaderboard = Standing.adding(finalScores, to: leaderboard)
        if history.count > Self.historyLimit {
            history.removeFirst(history.count - Self.historyLimit)
        }
    }

    private mutating func restartTurnTimer(now: Double) {
        if status == .inProgress, turn != nil, let seconds = settings.turnSeconds {
            turnDeadline = now + Double(seconds)
        } else {
            turnDeadline = nil
        }
    }

    /// A secret for a game with `settings`: from the chosen pack (the first of `packs` if it has no such id), the
    /// host's words, or both (a word in both counts once).
    static func secret(for settings: SnowmanSettings, from packs: [WordPack],
                       using generator: inout some RandomNumberGenerator) -> String {
        let pack = (packs.first { $0.id == settings.pack } ?? packs[0]).words
        guard let custom = settings.customWords else { return pack.randomWord(using: &generator) }
        switch settings.wordSource {
        case .pack:
            return pack.randomWord(using: &generator)
        case .custom:
            return custom.words[Int.random(in: custom.words.indices, using: &generator)]
        case .mixed:
            let inPack = Set(pack.words)
            let extra = custom.words.filter { !inPack.contains($0) }
            let index = Int.random(in: 0..<(pack.words.count + extra.count), using: &generator)
            return index < pack.words.count ? pack.words[index] : extra[index - pack.words.count]
        }
    }

    /// Refuses a guess or a skip outside a game in progress.
    private func checkInProgress() throws(Rejection) {
        switch status {
        case .inProgress: return
        case .waiting: throw .gameNotStarted
        case .won, .lost: throw .gameOver(status)
        }
    }

    /// The player after `id` in join order, wrapping around; `id` must be a player.
    private func player(after id: PlayerID) -> PlayerID? {
        guard let index = players.firstIndex(where: { $0.id == id }) else { return players.first?.id }
        return players[(index + 1) % players.count].id
    }

    /// The uppercase letter A-Z a guess stands for: the first character typed after any leading whitespace.
    static func letter(in input: String) throws(Rejection) -> Character {
        guard let typed = input.first(where: { !$0.isWhitespace }) else { throw .notALetter("") }
        let upper = typed.uppercased()
        guard upper.unicodeScalars.count == 1, let scalar = upper.unicodeScalars.first,
            ("A"..."Z").contains(scalar)
        else {
            throw .notALetter(String(typed))
        }
        return Character(scalar)
    }
}

extension SnowmanGame: CustomReflectable {
    /// Leaves the secret word out of `dump` and debugger output, so logging a game cannot leak it.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "gameNumber": gameNumber, "status": status, "players": players, "guesses": guesses,
            "wrongGuesses": wrongGuesses, "turn": turn as Any, "scores": scores,
        ], displayStyle: .struct)
    }
}
