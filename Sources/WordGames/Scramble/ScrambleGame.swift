/// The rules of Word Scramble for one room: matches of timed rounds, each round a shared eight-letter root from
/// which every player races to spell dictionary words.
///
/// A pure value: no I/O, no clock, no hidden randomness. The rooms layer (one actor per room) holds it, calls
/// `tick(now:)` about once a second and the other mutating methods with the current time, and publishes `view`,
/// which never lists a round's words before the round ends. Times are seconds on any monotonic clock the caller
/// chooses.
///
/// Match flow: `.lobby` → `startMatch` → `.playing` (round 1) → `.intermission` → `.playing` (round 2) → … →
/// `.finished` after the last round. Between rounds there is a pause of the settings' `breakSeconds`, during which
/// `view.lastRound` shows the round's found and missed words; the next round then starts by itself, or earlier
/// once the rooms layer sees every connected player ready (`markReady`, `endBreak`). After the last
/// round there is no pause: the match is `.finished`, showing the last round and the final scoreboard until the host
/// starts another match. Every phase change happens exactly at its deadline, whenever `tick(now:)` notices it, so a
/// replay gives the same match however often the room ticks.
///
/// A word scores its length; found words are shared, so each word scores once per round, for whoever found it
/// first.
///
/// The lexicon's unshown words (crude or grim ones, `Lexicon.isShown(_:)`) are accepted and scored like any other
/// when a player types one, but the game never lists them itself: they are not counted in a round's `totalWords`
/// unless someone found them, and never appear among its missed words.
public struct ScrambleGame: Sendable {
    /// Where the match stands.
    public enum Phase: String, Hashable, Sendable {
        /// No match has been played yet.
        case lobby
        /// A round is running; words are accepted.
        case playing
        /// Between two rounds of a match: the last round's results are shown.
        case intermission
        /// The match is over: the final scoreboard is shown.
        case finished
    }

    /// A phase change reported by `tick(now:)`, for the rooms layer's announcements.
    public enum Event: Hashable, Sendable {
        /// The round with this number ended; its summary is the last of `completedRounds`.
        case roundEnded(Int)
        /// The round with this number started.
        case roundStarted(Int)
        /// The last round ended; `finalScoreboard` is set.
        case matchFinished
    }

    /// An accepted word.
    public struct FoundWord: Hashable, Sendable {
        /// The word, lowercase.
        public var word: String
        /// Its length in letters.
        public var length: Int { word.count }
        /// Who found it.
        public var player: PlayerID
        /// The finder's display name at the time.
        public var name: String
        /// Points scored (the length).
        public var points: Int { length }

        /// Creates a found word. `length` and `points` follow from `word` and are not stored: a round keeps dozens
        /// of found words.
        public init(word: String, player: PlayerID, name: String) {
            self.word = word
            self.player = player
            self.name = name
        }
    }

    /// A finished round, as shown between rounds and after the match.
    public struct RoundSummary: Hashable, Sendable {
        /// The round's number in the match, from 1.
        public var number: Int
        /// The root word, uppercase.
        public var root: String
        /// How many valid words the root offered: `found` plus `missed` (unshown words count only when found).
        public var totalWords: Int
        /// Words found, newest first; empty once the next round starts (see `foundCount`).
        public var found: [FoundWord]
        /// How many words were found: kept when `found` is let go.
        public var foundCount: Int
        /// Valid words nobody found, except unshown ones: longest first, then alphabetical.
        public var missed: [String]

        /// Creates a summary; `foundCount` defaults to the words in `found`.
        public init(number: Int, root: String, totalWords: Int, found: [FoundWord], foundCount: Int? = nil,
                    missed: [String]) {
            self.number = number
            self.root = root
            self.totalWords = totalWords
            self.found = found
            self.foundCount = foundCount ?? found.count
            self.missed = missed
        }
    }

    /// Settings of the current (or last) match.
    public internal(set) var settings: ScrambleSettings
    /// Settings the next match will use; `updateSettings(_:)` changes only these.
    public internal(set) var nextSettings: ScrambleSettings
    /// Players in join order.
    public internal(set) var players: [Player] = []
    /// Where the match stands.
    public internal(set) var phase: Phase = .lobby
    /// 1 for the room's first match; 0 in the lobby.
    public internal(set) var matchNumber = 0
    /// The current (or last) round's number, from 1; 0 in the lobby.
    public internal(set) var roundNumber = 0
    /// The current (or last) round's root word, lowercase; `nil` in the lobby.
    public internal(set) var root: String?
    /// Words found this round, newest first.
    public internal(set) var found: [FoundWord] = []
    /// When the current round or intermission ends; `nil` in the lobby and when finished.
    public internal(set) var phaseEndsAt: Double?
    /// Finished rounds of the current (or last) match, in order.
    public internal(set) var completedRounds: [RoundSummary] = []
    /// Points per player in the current (or last) match, including players who have left.
    public internal(set) var scores: [PlayerID: Int] = [:]
    /// The final scoreboard, once the match is finished.
    public internal(set) var finalScoreboard: [ScoreLine]?
    /// Players who pressed Ready during this intermission, in pressing order; empty outside intermissions.
    public internal(set) var ready: [PlayerID] = []
    /// How many results there have been in the room (one per round that ended, the last round of a match
    /// included); goes up by one each time, never back.
    public internal(set) var resultNumber = 0
    /// The latest result for people: the round's best finder, and after the last round the match's winner too.
    public internal(set) var resultText: String?

    /// Every valid word of the current round that may be shown, longest first (the lexicon's unshown words are
    /// left out, though `submit` accepts them). Internal on purpose: rooms see only `view`.
    var solutions: [String] = []
    /// How many of `found` are the lexicon's unshown words: counted as they are found, since `totalWords` is read
    /// for every view and looking each found word up again grows with the round.
    var unshownFound = 0
    /// `statusLine` while the round is played (`roundStatusLine(round:of:minWordLength:root:)`).
    var roundStatusLine = ""
    var matchRoots: [String] = []
    /// Everyone who was a player at some point of the current match, in join order.
    var participants: [Player] = []
    let lexicon: Lexicon
    let rootPool: [String]

    /// Creates a room's Scramble table in the lobby; players join with `addPlayer(_:now:)` and the host starts a
    /// match with `startMatch(now:using:)`.
    ///
    /// - Parameters:
    ///   - lexicon: The dictionary words are checked against; its unshown words are accepted but never listed as
    ///     missed.
    ///   - roots: Candidate roots, lowercase letters a-z as loaded by `WordLists` (not re-checked here, since rooms
    ///     are created often and the pool is large). Must not be empty.
    ///   - settings: Settings of the first match.
    public init(lexicon: Lexicon, roots: [String], settings: ScrambleSettings = .standard) {
        precondition(!roots.isEmpty, "ScrambleGame needs at least one root word")
        self.lexicon = lexicon
        self.rootPool = roots
        self.settings = settings
        self.nextSettings = settings
    }

    /// Whether a match is running (a round or an intermission).
    public var isMatchRunning: Bool { phase == .playing || phase == .intermission }

    /// How many valid words the current (or last) round's root offers: the words that may be shown, plus the
    /// unshown ones found so far (so that found and missed words always add up to it).
    public var totalWords: Int { solutions.count + unshownFound }

    /// The current (or last) match's standings, best first, including players who left mid-match; before the
    /// first match, the present players with no points.
    public var scoreboard: [ScoreLine] {
        ScoreLine.ranked(phase == .lobby ? players : participants) { id, _ in scores[id, default: 0] }
    }

    /// Adds a player, or renames one who is already playing. Players may join during a match.
    ///
    /// Applies phase changes up to `now` first, as `tick(now:)` would.
    ///
    /// - Parameters:
    ///   - player: The player; an existing `id` only updates the name.
    ///   - now: Current time in seconds.
    public mutating func addPlayer(_ player: Player, now: Double) {
        tick(now: now)
        players.addOrRename(player)
        if !participants.rename(player), isMatchRunning {
            participants.append(player)
        }
    }

    /// Removes a player; their found words and points stay in the match.
    ///
    /// - Parameters:
    ///   - id: The player to remove; unknown ids are ignored.
    ///   - now: Current time in seconds.
    public mutating func removePlayer(_ id: PlayerID, now: Double) {
        tick(now: now)
        players.removeAll { $0.id == id }
        ready.removeAll { $0 == id }
    }

    /// Gives a player a new display name everywhere the match shows it: the players, the scoreboards and the
    /// found words of this match.
    ///
    /// - Parameters:
    ///   - id: The player; unknown ids are ignored.
    ///   - name: The new name.
    public mutating func renamePlayer(_ id: PlayerID, to name: String) {
        for index in players.indices where players[index].id == id { players[index].name = name }
        for index in participants.indices where participants[index].id == id { participants[index].name = name }
        for index in found.indices where found[index].player == id { found[index].name = name }
        for round in completedRounds.indices {
            for index in completedRounds[round].found.indices where completedRounds[round].found[index].player == id {
                completedRounds[round].found[index].name = name
            }
        }
        if let board = finalScoreboard {
            finalScoreboard = board.map { line in
                var line = line
                if line.player == id { line.name = name }
                return line
            }
        }
    }

    /// Marks `player` ready for the next round during an intermission (pressing twice changes nothing).
    ///
    /// Whether everyone is ready is the rooms layer's call (it knows who is connected): it then calls `endBreak`.
    ///
    /// - Parameters:
    ///   - player: Who pressed Ready.
    ///   - now: Current time in seconds; phase changes up to it apply first.
    /// - Throws: `Rejection.notInBreak` outside an intermission, `.notAPlayer` for an unknown id.
    public mutating func markReady(_ player: PlayerID, now: Double) throws(Rejection) {
        tick(now: now)
        guard phase == .intermission else { throw .notInBreak(phase) }
        guard players.contains(where: { $0.id == player }) else { throw .notAPlayer }
        if !ready.contains(player) { ready.append(player) }
    }

    /// Ends the intermission now: the next round starts at `now` (nothing happens outside an intermission).
    ///
    /// - Parameter now: Current time in seconds; the next round ends `roundSeconds` later.
    public mutating func endBreak(now: Double) {
        tick(now: now)
        guard phase == .intermission else { return }
        beginRound(roundNumber + 1, at: now)
    }

    /// Stores settings for the next match; a running match keeps its own.
    ///
    /// - Parameter settings: Validated settings.
    public mutating func updateSettings(_ settings: ScrambleSettings) {
        nextSettings = settings
    }

    /// Starts a match with `nextSettings`: picks its roots (distinct while the pool allows) and starts round 1.
    ///
    /// - Parameters:
    ///   - now: Current time in seconds; round 1 ends `roundSeconds` later.
    ///   - generator: The room's random source; it picks the roots.
    /// - Throws: `Rejection.matchInProgress` while a match is running, `.noPlayers` with nobody to play.
    public mutating func startMatch(now: Double, using generator: inout some RandomNumberGenerator)
        throws(Rejection)
    {
        tick(now: now)
        guard !isMatchRunning else { throw .matchInProgress }
        guard !players.isEmpty else { throw .noPlayers }
        matchNumber += 1
        settings = nextSettings
        matchRoots = Self.pickRoots(settings.rounds, from: rootPool, using: &generator)
        completedRounds = []
        scores = [:]
        participants = players
        finalScoreboard = nil
        beginRound(1, at: now)
    }

    /// Submits a word for `player` in the running round.
    ///
    /// The input is trimmed and lowercased, then checked in this order: not empty; at least `minWordLength`
    /// letters; not the root itself; not already found this round; spellable from the root's letters, each used at
    /// most as often as it occurs; in the dictionary. Applies phase changes up to `now` first, so a word sent after
    /// the deadline is refused even if the room has not ticked yet.
    ///
    /// - Parameters:
    ///   - input: What the player typed.
    ///   - player: Who submits.
    ///   - now: Current time in seconds.
    /// - Returns: The accepted word; the player scores its length.
    /// - Throws: A `Rejection` saying which check failed; the game is unchanged then.
    @discardableResult
    public mutating func submit(_ input: String, by player: PlayerID, now: Double) throws(Rejection) -> FoundWord {
        tick(now: now)
        guard phase == .playing, let root else { throw .roundNotRunning(phase) }
        guard let submitter = players.first(where: { $0.id == player }) else { throw .notAPlayer }

        var trimmed = Substring(input)
        while trimmed.first?.isWhitespace == true { trimmed.removeFirst() }
        while trimmed.last?.isWhitespace == true { trimmed.removeLast() }
        let word = trimmed.lowercased()
        let displayRoot = root.uppercased()
        guard !word.isEmpty else { throw .emptyWord(root: displayRoot) }
        guard word.count >= settings.minWordLength else {
            throw .tooShort(word: word, minimum: settings.minWordLength)
        }
        guard word != root else { throw .rootWord(root: displayRoot) }
        if let earlier = found.first(where: { $0.word == word }) {
            throw .alreadyFound(word: word, by: earlier.name, byYou: earlier.player == player)
        }
        if let problem = Self.spellingProblem(of: word, from: root) {
            throw .cannotSpell(word: word, root: displayRoot, problem: problem)
        }
        guard lexicon.contains(word) else { throw .notAWord(word) }

        let accepted = FoundWord(word: word, player: player, name: submitter.name)
        found.insert(accepted, at: 0)
        if !lexicon.isShown(word) { unshownFound += 1 }
        scores[player, default: 0] += accepted.points
        return accepted
    }

    /// Ends rounds and intermissions whose time is up and starts the rounds that follow.
    ///
    /// - Parameter now: Current time in seconds.
    /// - Returns: What changed, in order; usually empty.
    @discardableResult
    public mutating func tick(now: Double) -> [Event] {
        var events: [Event] = []
        while let endsAt = phaseEndsAt, now >= endsAt {
            switch phase {
            case .playing:
                endRound(at: endsAt)
                events.append(.roundEnded(roundNumber))
                if phase == .finished {
                    events.append(.matchFinished)
                }
            case .intermission:
                beginRound(roundNumber + 1, at: endsAt)
                events.append(.roundStarted(roundNumber))
            case .lobby, .finished:
                phaseEndsAt = nil
            }
        }
        return events
    }

    private mutating func beginRound(_ number: Int, at start: Double) {
        roundNumber = number
        let root = matchRoots[number - 1]
        self.root = root
        solutions = lexicon.words(spelledFrom: root, minimumLength: settings.minWordLength)
            .filter { $0 != root && lexicon.isShown($0) }
        found = []
        unshownFound = 0
        roundStatusLine = Self.roundStatusLine(round: number, of: settings.rounds,
                                               minWordLength: settings.minWordLength, root: root)
        // A round's words are shown only until the next round starts (`view.lastRound`); after that only their
        // count is (`view.roundsPlayed`). A match of five rounds would otherwise hold every word of all five.
        for index in completedRounds.indices { completedRounds[index].found = [] }
        ready = []
        phase = .playing
        phaseEndsAt = start + Double(settings.roundSeconds)
    }

    private mutating func endRound(at end: Double) {
        let foundWords = Set(found.map(\.word))
        completedRounds.append(RoundSummary(
            number: roundNumber, root: (root ?? "").uppercased(), totalWords: totalWords, found: found,
            missed: solutions.filter { !foundWords.contains($0) }))
        ready = []
        if roundNumber >= settings.rounds {
            phase = .finished
            phaseEndsAt = nil
            finalScoreboard = scoreboard
        } else {
            phase = .intermission
            phaseEndsAt = end + Double(settings.breakSeconds)
        }
        resultNumber += 1
        resultText = Self.resultText(of: completedRounds[completedRounds.count - 1], final: finalScoreboard)
    }

    /// Picks `count` roots at random, without repeats until the pool is used up.
    private static func pickRoots(
        _ count: Int, from pool: [String], using generator: inout some RandomNumberGenerator
    ) -> [String] {
        var picked: [String] = []
        var used = Set<Int>()
        while picked.count < count {
            if used.count == pool.count {
                used.removeAll()
            }
            let index = Int.random(in: pool.indices, using: &generator)
            if used.insert(index).inserted {
                picked.append(pool[index])
            }
        }
        return picked
    }

    /// Why `word` cannot be spelled from the letters of `root`, or `nil` if it can; reports the first offending
    /// character in word order.
    static func spellingProblem(of word: String, from root: String) -> Rejection.SpellingProblem? {
        guard let available = LetterCounts(root) else { return nil }
        // Counted in place like the root's letters (a dictionary of characters was most of a word's cost).
        var used = LetterCounts()
        for character in word {
            guard let ascii = character.asciiValue, let index = LetterCounts.index(of: ascii) else {
                return .notALetter(String(character))
            }
            let have = available.count(of: index)
            if used.count(of: index) == have {
                let letter = character.uppercased()
                return have == 0 ? .missingLetter(letter) : .tooMany(letter: letter, available: have)
            }
            // Never above the root's count, itself at most `LetterCounts.maxCount`.
            used.add(index)
        }
        return nil
    }
}

extension ScrambleGame: CustomReflectable {
    /// Leaves the round's solutions out of `dump` and debugger output, so logging a game cannot leak them.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "matchNumber": matchNumber, "phase": phase, "roundNumber": roundNumber, "root": root as Any,
            "players": players, "found": found, "scores": scores,
        ], displayStyle: .struct)
    }
}
