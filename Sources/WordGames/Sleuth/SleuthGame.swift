/// The rules of Sleuth for one room: timed rounds in which every player tries to find the same hidden five-letter
/// word in at most six tries, each try answered letter by letter (`SleuthMark`).
///
/// A pure value: no I/O, no clock, no hidden randomness. Times are the `now` it is given (seconds on any monotonic
/// clock), randomness the generator it is given.
///
/// Round flow: `.lobby` → `startRound` (the host's `new_game`) → `.playing` → `.over` once every present player
/// solved the word or used their six tries, or the round's time ran out → `startRound` again. While a round is
/// played, a player's letters are theirs alone (`privateView(for:)`); every member sees only the marks of every
/// try. Once it is over, every try and the secret are shown to all.
///
/// Scoring (`points(forTry:at:)`): solving on try n scores `10 × (7 − n)` (60 for the first try, 10 for the
/// sixth) plus a time bonus of up to 10, `⌊10 × seconds left ÷ round length⌋`; not solving scores nothing. The
/// leaderboard adds up every round's points since the room opened.
public struct SleuthGame: Sendable {
    /// Letters in the secret and in every try.
    public static let wordLength = 5
    /// Tries a player has per round.
    public static let maxTries = 6

    /// Where the room stands.
    public enum Phase: String, Hashable, Sendable, Codable {
        /// No round has been played yet.
        case lobby
        /// A round is running: tries are accepted.
        case playing
        /// The last round is over: everything about it is shown until the host starts the next.
        case over
    }

    /// A try, in the order tries were made in the round.
    public struct Try: Hashable, Sendable, Codable {
        /// Who made it.
        public var player: PlayerID
        /// The word tried, lowercase: private to its player until the round is over.
        public var word: String
        /// Its marks, one per letter (`SleuthMark`'s characters, such as `"rpaar"`).
        public var pattern: String

        public init(player: PlayerID, word: String, pattern: String) {
            self.player = player
            self.word = word
            self.pattern = pattern
        }

        /// Whether every letter is in its right place.
        public var solves: Bool { pattern == SleuthMark.solved(length: SleuthGame.wordLength) }
    }

    /// A player's round: how far they got.
    public struct Board: Hashable, Sendable {
        public var player: PlayerID
        /// Their name as the round shows it.
        public var name: String
        /// Tries made this round.
        public var tries: Int
        /// Whether their last try solved the word.
        public var solved: Bool
        /// Points scored this round (0 unless solved).
        public var points: Int

        public init(player: PlayerID, name: String, tries: Int = 0, solved: Bool = false, points: Int = 0) {
            self.player = player
            self.name = name
            self.tries = tries
            self.solved = solved
            self.points = points
        }

        /// Whether they have nothing left to do this round: solved, or out of tries.
        public var done: Bool { solved || tries >= SleuthGame.maxTries }
    }

    /// Settings of the current (or last) round.
    public internal(set) var settings: SleuthSettings
    /// Settings the next round will use; `updateSettings(_:)` changes only these.
    public internal(set) var nextSettings: SleuthSettings
    /// Players in join order.
    public internal(set) var players: [Player] = []
    public internal(set) var phase: Phase = .lobby
    /// The current (or last) round's number, from 1; 0 in the lobby.
    public internal(set) var roundNumber = 0
    /// When the current round ends; nil outside a round.
    public internal(set) var roundEndsAt: Double?
    /// Every player of the current (or last) round, in join order, those who left included.
    public internal(set) var boards: [Board] = []
    /// Every try of the current (or last) round, oldest first.
    public internal(set) var tries: [Try] = []
    /// The running totals over every round since the room opened, best first.
    public internal(set) var leaderboard: [SleuthStanding] = []
    /// How many rounds have ended in the room; one more each time, never back.
    public internal(set) var resultNumber = 0
    /// The latest round's result for people, for the room's chat.
    public internal(set) var resultText: String?

    /// The current (or last) round's word, lowercase: shown to nobody while the round runs. Internal on purpose.
    var secret: String?
    /// Secrets this room already played, so that the next round's is a new one while the list lasts.
    var usedSecrets: [String] = []
    let lexicon: Lexicon
    let secretPool: [String]

    /// A room's Sleuth table in the lobby.
    ///
    /// - Parameters:
    ///   - lexicon: The dictionary tries are checked against.
    ///   - secrets: Candidate secrets, lowercase five-letter words (by default `SleuthWords.secrets`); not empty.
    ///   - settings: Settings of the first round.
    public init(lexicon: Lexicon, secrets: [String] = SleuthWords.secrets, settings: SleuthSettings = .standard) {
        precondition(!secrets.isEmpty, "Sleuth needs at least one secret")
        self.lexicon = lexicon
        self.secretPool = secrets
        self.settings = settings
        self.nextSettings = settings
    }

    /// The secret, uppercase, once the round is over; nil while it runs and in the lobby.
    public var revealedSecret: String? { phase == .over ? secret?.uppercased() : nil }

    /// `player`'s board this round, if they play it.
    public func board(of player: PlayerID) -> Board? {
        boards.first { $0.player == player }
    }

    /// Adds a player, or renames one already here. A player who joins during a round plays it with the time left.
    public mutating func addPlayer(_ player: Player, now: Double) {
        tick(now: now)
        players.addOrRename(player)
        if phase == .playing {
            if let index = boards.firstIndex(where: { $0.player == player.id }) {
                boards[index].name = player.name
            } else {
                boards.append(Board(player: player.id, name: player.name))
            }
        }
    }

    /// Removes a player; their tries stay in the round, which ends at once if everyone left was done.
    public mutating func removePlayer(_ id: PlayerID, now: Double) {
        tick(now: now)
        players.removeAll { $0.id == id }
        endRoundIfEveryoneIsDone(at: now)
    }

    /// Shows `name` for `id` everywhere: the players, the round's boards and the leaderboard.
    public mutating func renamePlayer(_ id: PlayerID, to name: String) {
        for index in players.indices where players[index].id == id { players[index].name = name }
        for index in boards.indices where boards[index].player == id { boards[index].name = name }
        for index in leaderboard.indices where leaderboard[index].player == id { leaderboard[index].name = name }
    }

    /// Stores settings for the next round; a running round keeps its own.
    public mutating func updateSettings(_ settings: SleuthSettings) {
        nextSettings = settings
    }

    /// Starts the next round with `nextSettings` and a new secret.
    ///
    /// - Throws: `.roundInProgress` while a round runs, `.noPlayers` with nobody to play.
    public mutating func startRound(now: Double, using generator: inout some RandomNumberGenerator)
        throws(Rejection) {
        tick(now: now)
        guard phase != .playing else { throw .roundInProgress }
        guard !players.isEmpty else { throw .noPlayers }
        settings = nextSettings
        roundNumber += 1
        var fresh = secretPool.filter { !usedSecrets.contains($0) }
        if fresh.isEmpty {
            usedSecrets = []
            fresh = secretPool
        }
        let picked = fresh[Int.random(in: fresh.indices, using: &generator)]
        usedSecrets.append(picked)
        secret = picked
        boards = players.map { Board(player: $0.id, name: $0.name) }
        tries = []
        phase = .playing
        roundEndsAt = now + Double(settings.roundSeconds)
    }

    /// `player` tries `input` in the running round.
    ///
    /// The input is trimmed and lowercased, then checked in this order: a round runs; the sender plays it; they
    /// have not solved it nor used their tries; the word has five letters a-z; it is in the dictionary; they did
    /// not try it already. Phase changes up to `now` apply first, so a try sent after the deadline is refused.
    ///
    /// - Returns: The try, with its marks.
    /// - Throws: A `Rejection` saying which check failed; the game is unchanged then.
    @discardableResult
    public mutating func guess(_ input: String, by player: PlayerID, now: Double) throws(Rejection) -> Try {
        tick(now: now)
        guard phase == .playing, let secret else { throw .roundNotRunning(phase) }
        guard players.contains(where: { $0.id == player }),
              let index = boards.firstIndex(where: { $0.player == player }) else { throw .notAPlayer }
        if boards[index].solved { throw .alreadySolved }
        if boards[index].done { throw .outOfTries }

        let word = input.trimmingWhitespace().lowercased()
        guard word.count == Self.wordLength else { throw .wrongLength(word) }
        guard word.utf8.allSatisfy({ (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }) else {
            throw .notLetters(word)
        }
        guard lexicon.contains(word) || secretPool.contains(word) else { throw .notAWord(word) }
        guard !tries.contains(where: { $0.player == player && $0.word == word }) else { throw .alreadyTried(word) }

        let made = Try(player: player, word: word, pattern: SleuthMark.pattern(of: word, against: secret))
        tries.append(made)
        boards[index].tries += 1
        if made.solves {
            boards[index].solved = true
            boards[index].points = points(forTry: boards[index].tries, at: now)
        }
        endRoundIfEveryoneIsDone(at: now)
        return made
    }

    /// Points for solving on try `number` at `time` (see the type's documentation).
    public func points(forTry number: Int, at time: Double) -> Int {
        let left = max(0, (roundEndsAt ?? time) - time)
        let bonus = min(10, Int(10 * left / Double(settings.roundSeconds)))
        return 10 * (Self.maxTries + 1 - number) + bonus
    }

    /// Ends the round if its time is up.
    ///
    /// - Returns: Whether the round ended.
    @discardableResult
    public mutating func tick(now: Double) -> Bool {
        guard phase == .playing, let endsAt = roundEndsAt, now >= endsAt else { return false }
        endRound()
        return true
    }

    private mutating func endRoundIfEveryoneIsDone(at now: Double) {
        guard phase == .playing, !players.isEmpty,
              players.allSatisfy({ player in board(of: player.id)?.done ?? true }) else { return }
        endRound()
    }

    private mutating func endRound() {
        phase = .over
        roundEndsAt = nil
        leaderboard = SleuthStanding.adding(boards, to: leaderboard)
        resultNumber += 1
        resultText = resultLine()
    }

    /// "Round 2 · CRANE: Ana scored most (52 points), 2 of 3 solved it".
    private func resultLine() -> String {
        let head = "Round \(roundNumber) · \((secret ?? "").uppercased()): "
        let solvers = boards.filter(\.solved)
        guard let top = solvers.map(\.points).max() else { return head + "nobody solved it" }
        let best = solvers.filter { $0.points == top }.map(\.name)
        let names = best.count == 1 ? best[0] : best.dropLast().joined(separator: ", ") + " and " + best[best.count - 1]
        let each = best.count == 1 ? "" : " each"
        return head + "\(names) scored most (\(top) points\(each)), \(solvers.count) of \(boards.count) solved it"
    }

    /// The name the game remembers for `player`, present or gone.
    public func name(of player: PlayerID) -> String? {
        players.first { $0.id == player }?.name ?? board(of: player)?.name
            ?? leaderboard.first { $0.player == player }?.name
    }
}

extension SleuthGame: CustomReflectable {
    /// Leaves the secret and the letters of every try out of `dump` and debugger output, so that logging a game
    /// cannot leak them.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "phase": phase, "roundNumber": roundNumber, "players": players, "boards": boards,
            "patterns": tries.map { "\($0.player): \($0.pattern)" },
        ], displayStyle: .struct)
    }
}

extension String {
    /// The string without leading and trailing whitespace.
    fileprivate func trimmingWhitespace() -> String {
        var trimmed = Substring(self)
        while trimmed.first?.isWhitespace == true { trimmed.removeFirst() }
        while trimmed.last?.isWhitespace == true { trimmed.removeLast() }
        return String(trimmed)
    }
}
