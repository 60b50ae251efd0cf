import JSON
import WordGames

/// Keeps a room's public state as JSON and brings it up to date after each change, producing the change's JSON
/// Patch operations as it goes.
///
/// Rebuilding the whole state and diffing it against the previous one would make every move cost in proportion
/// to everything the room holds (200 spectators, a full chat, a match's history). Here each part is looked at
/// by itself:
/// - scalars are compared and replaced;
/// - parts whose JSON is kept (`JSONMemo`) are rebuilt only when what they show changed, and then diffed by
///   themselves;
/// - lists that grow at one end (`JSONLog`: chat, guesses, found words, finished games) become `add` and
///   `remove` operations for the entries that came and went, applied to the kept state in place;
/// - lists whose entries change where they are (`JSONRows`: scores, letter positions, standings) rebuild and
///   diff only the entries that changed.
///
/// The first update (and the first after `restore`) builds everything and diffs it against what clients have.
/// Debug builds check every update against a full rebuild and the operations against the previous state.
struct RoomStateBuilder {
    /// The state as of the last update: what every member has, or will have once the patch reaches them.
    private(set) var state: JSONValue = .null
    /// Whether `state` came from this builder's own parts (false at first and after `restore`).
    private var primed = false
    /// `gameVersion` of the game part as last built.
    private var builtGameVersion: Int?
    private var operations: [JSONPatch.Operation] = []
    private var path: [String] = []

    private var members = JSONMemo<Int>()
    private var bans = JSONMemo<[Ban]>()
    /// `locked` and `bans` as last written: they change rarely, so most updates skip looking them up.
    private var builtHostControls: (locked: Bool, bans: [Ban])?
    private var chat = JSONLog<ChatLine>(newestAt: .back)

    private var positions = JSONRows<SnowmanView.Position>()
    private var guesses = JSONLog<SnowmanGame.Guess>(newestAt: .back)
    private var snowmanScores = JSONRows<SnowmanView.PlayerLine>()
    private var snowmanSettings = JSONMemo<SnowmanSettings>()
    private var nextSnowmanSettings = JSONMemo<SnowmanSettings>()
    private var history = JSONLog<SnowmanGame.Record>(newestAt: .back)
    private var leaderboard = JSONRows<SnowmanGame.Standing>()

    private var found = JSONLog<ScrambleGame.FoundWord>(newestAt: .front)
    private var scrambleScores = JSONRows<ScrambleView.PlayerLine>()
    private var scoreboard = JSONRows<ScoreLine>()
    private var lastRound = JSONMemo<ScrambleGame.RoundSummary?>()
    private var finalScoreboard = JSONMemo<[ScoreLine]?>()
    private var scrambleSettings = JSONMemo<ScrambleSettings>()
    private var nextScrambleSettings = JSONMemo<ScrambleSettings>()

    /// What the state is made of.
    struct Parts {
        var code: RoomCode
        var kind: GameKind
        var isPublic: Bool
        var host: PlayerID?
        /// Whether the host closed the room to newcomers.
        var locked: Bool
        /// Who the host removed, oldest first (names only reach the state).
        var bans: [Ban]
        var members: [Member]
        /// Must change whenever a member joins, leaves, connects or disconnects.
        var membersVersion: Int
        /// Oldest first; ids increase.
        var chat: [ChatLine]
        /// The game; may be nil when `needsGame(version:)` said the builder will not look at it.
        var game: RoomGame?
        /// Must change whenever the game changes.
        var gameVersion: Int
    }

    /// Whether the next update looks at the game: it changed since the last build, or everything is built anew.
    func needsGame(version: Int) -> Bool {
        !buildsOnKeptState || version != builtGameVersion
    }

    /// Whether an update can patch the kept state part by part; otherwise it builds everything and diffs.
    private var buildsOnKeptState: Bool {
        guard primed, case .object = state else { return false }
        return true
    }

    /// Takes a state restored from disk: the one clients have. The next update diffs against it in full.
    mutating func restore(_ state: JSONValue) {
        self = RoomStateBuilder()
        self.state = state
    }

    /// Brings the state up to date with `parts`.
    ///
    /// - Returns: The operations that turn the previous state into the new one (empty when nothing changed).
    mutating func update(_ parts: Parts) -> [JSONPatch.Operation] {
        guard buildsOnKeptState else {
            let full = fullState(parts)
            let patch = JSONPatch.diff(from: state, to: full)
            state = full
            primed = true
            return patch.operations
        }
        #if DEBUG
        let before = state
        #endif
        operations = []
        // Moved out while it is changed, so that it stays uniquely referenced and is edited in place.
        var current = state
        state = .null
        current.withObject { top in
            set(&top, "host", nullable(parts.host?.rawValue))
            if builtHostControls?.locked != parts.locked || builtHostControls?.bans != parts.bans {
                set(&top, "locked", JSONValue(parts.locked))
                set(&top, "bans", bans.value(for: parts.bans, Self.json))
                builtHostControls = (parts.locked, parts.bans)
            }
            set(&top, "members", members.value(for: parts.membersVersion) { _ in Self.json(parts.members) })
            chat = update(&top, "chat", chat, parts.chat, generation: 0, ordinal: \.id, Self.json)
            guard parts.gameVersion != builtGameVersion, let game = parts.game else { return }
            builtGameVersion = parts.gameVersion
            push(parts.kind.rawValue)
            _ = top.withValue(forKey: parts.kind.rawValue) { value in
                value.withObject { object in
                    switch game {
                    case .snowman(let snowman): update(&object, snowman.view)
                    case .scramble(let scramble): update(&object, scramble.view)
                    }
                }
            }
            pop()
        }
        state = current
        #if DEBUG
        var fresh = RoomStateBuilder()
        assert(state == fresh.fullState(parts), "the kept state drifted from a full rebuild")
        assert((try? JSONPatch(operations).apply(to: before)) == state, "the operations do not give the new state")
        #endif
        return operations
    }

    // MARK: Full builds

    /// The whole state built from scratch; primes every kept part. Only on a fresh builder (first use, or after
    /// `restore`): the game's part is built by the same updates as later changes, from an empty object, with the
    /// operations of that build thrown away.
    private mutating func fullState(_ parts: Parts) -> JSONValue {
        var object = JSONObject()
        object.reserveCapacity(9)
        object["code"] = JSONValue(parts.code.rawValue)
        object["game"] = JSONValue(parts.kind.rawValue)
        object["public"] = JSONValue(parts.isPublic)
        object["host"] = nullable(parts.host?.rawValue)
        object["locked"] = JSONValue(parts.locked)
        object["bans"] = bans.value(for: parts.bans, Self.json)
        builtHostControls = (parts.locked, parts.bans)
        object["members"] = members.value(for: parts.membersVersion) { _ in Self.json(parts.members) }
        object["chat"] = chat.reset(parts.chat, generation: 0, ordinal: \.id, Self.json)
        var game = JSONObject()
        game.reserveCapacity(17)
        assert(parts.game != nil, "a full build needs the game (see needsGame)")
        switch parts.game {
        case .snowman(let snowman)?: update(&game, snowman.view)
        case .scramble(let scramble)?: update(&game, scramble.view)
        case nil: break
        }
        object[parts.kind.rawValue] = .object(game)
        // Without the game, its part is built by the next update that has it.
        builtGameVersion = parts.game == nil ? nil : parts.gameVersion
        operations = []
        return .object(object)
    }

    /// The players' lines as the scores show them: whose turn it is changes with every guess but is not part of
    /// the scores (it is `turn`), so it must not make them look changed.
    private static func scoreLines(_ view: SnowmanView) -> [SnowmanView.PlayerLine] {
        view.players.map { line in
            var shown = line
            shown.hasTurn = false
            return shown
        }
    }

    /// Found words only grow within one round of one match.
    private static func round(_ view: ScrambleView) -> Int {
        view.matchNumber &* 1_000 &+ view.roundNumber
    }

    // MARK: Updates

    private mutating func update(_ object: inout JSONObject, _ view: SnowmanView) {
        set(&object, "gameNumber", JSONValue(view.gameNumber))
        set(&object, "status", JSONValue(view.status.rawValue))
        set(&object, "statusLine", JSONValue(view.statusLine))
        positions = update(&object, "positions", positions, view.positions, RoomGame.json)
        guesses = update(&object, "guesses", guesses, view.guesses, generation: view.gameNumber, ordinal: nil,
                         RoomGame.json)
        set(&object, "wrongGuesses", JSONValue(view.wrongGuesses))
        set(&object, "maxWrongGuesses", JSONValue(view.maxWrongGuesses))
        snowmanScores = update(&object, "scores", snowmanScores, Self.scoreLines(view), RoomGame.json)
        set(&object, "turn", nullable(view.turn?.rawValue))
        set(&object, "turnEndsAt", nullable(view.turnDeadline))
        set(&object, "word", nullable(view.word))
        set(&object, "canStartNext", JSONValue(view.canStartNextGame))
        set(&object, "settings", snowmanSettings.value(for: view.settings, RoomGame.json))
        set(&object, "nextSettings", nextSnowmanSettings.value(for: view.nextSettings, RoomGame.json))
        history = update(&object, "history", history, view.history, generation: 0, ordinal: \.gameNumber, RoomGame.json)
        leaderboard = update(&object, "leaderboard", leaderboard, view.leaderboard, RoomGame.json)
    }

    private mutating func update(_ object: inout JSONObject, _ view: ScrambleView) {
        set(&object, "matchNumber", JSONValue(view.matchNumber))
        set(&object, "phase", JSONValue(view.phase.rawValue))
        set(&object, "statusLine", JSONValue(view.statusLine))
        set(&object, "round", JSONValue(view.roundNumber))
        set(&object, "rounds", JSONValue(view.totalRounds))
        set(&object, "root", nullable(view.root))
        set(&object, "minWordLength", JSONValue(view.minWordLength))
        set(&object, "totalWords", nullable(view.totalWords))
        found = update(&object, "found", found, view.found, generation: Self.round(view), ordinal: nil, RoomGame.json)
        set(&object, "phaseEndsAt", nullable(view.phaseEndsAt))
        scrambleScores = update(&object, "scores", scrambleScores, view.players, RoomGame.json)
        scoreboard = update(&object, "scoreboard", scoreboard, view.scoreboard, RoomGame.json)
        set(&object, "lastRound", lastRound.value(for: view.lastRound) { $0.map(RoomGame.json) ?? .null })
        set(&object, "finalScoreboard",
            finalScoreboard.value(for: view.finalScoreboard) { $0.map(RoomGame.json) ?? .null })
        set(&object, "canStartNext", JSONValue(view.canStartMatch))
        set(&object, "settings", scrambleSettings.value(for: view.settings, RoomGame.json))
        set(&object, "nextSettings", nextScrambleSettings.value(for: view.nextSettings, RoomGame.json))
    }

    /// Sets `object[key]` to `value`, emitting the operations for the difference (none if it is the same).
    private mutating func set(_ object: inout JSONObject, _ key: String, _ value: JSONValue) {
        // One lookup, and the old value changed where it is.
        let found: Void? = object.withValue(forKey: key) { old in
            if old.isPlainlyEqual(to: value) { return }
            push(key)
            operations += JSONPatch.diff(from: old, to: value, at: path)
            pop()
            old = value
        }
        guard found == nil else { return }
        push(key)
        operations.append(.add(path: pointer, value: value))
        pop()
        object[key] = value
    }

    /// Brings the list at `object[key]` up to date with `list`: `remove` for the entries that dropped off its
    /// oldest end and `add` for the new ones at its newest end, applied in place; a `replace` of the whole list
    /// when it was reset (a new game or round) or changed too much for entry-by-entry operations to be smaller.
    ///
    /// Takes the list's `JSONLog` and returns it updated (the caller stores it back): reaching it through a key
    /// path on `self` instead would copy the whole builder.
    private mutating func update<Element: Equatable>(
        _ object: inout JSONObject, _ key: String, _ log: JSONLog<Element>,
        _ list: [Element], generation: Int, ordinal: ((Element) -> Int)?, _ build: (Element) -> JSONValue
    ) -> JSONLog<Element> {
        var log = log
        let edit = log.edit(to: list, generation: generation, ordinal: ordinal)
        switch edit {
        case .unchanged:
            return log
        case .reset:
            set(&object, key, log.reset(list, generation: generation, ordinal: ordinal, build))
        case .edit(let dropped, let added):
            // The closures below use locals only: reaching `self` from inside them made the compiler copy the
            // whole builder (every kept part) on each change.
            let base = path + [key]
            func element(_ index: Int) -> JSONPointer { JSONPointer(tokens: Self.tokens(base, index)) }
            var edits: [JSONPatch.Operation] = []
            edits.reserveCapacity(dropped + added)
            var applied = false
            _ = object.withValue(forKey: key) { value in
                applied = value.withArray { (items: inout [JSONValue]) -> Void in
                    switch log.newestAt {
                    case .back:
                        if dropped > 0 {
                            for _ in 0..<dropped { edits.append(.remove(path: element(0))) }
                            items.removeFirst(dropped)
                        }
                        for entry in list[(list.count - added)...] {
                            let json = build(entry)
                            edits.append(.add(path: element(items.count), value: json))
                            items.append(json)
                        }
                    case .front:
                        for _ in 0..<dropped {
                            edits.append(.remove(path: element(items.count - 1)))
                            items.removeLast()
                        }
                        for (index, entry) in list[..<added].enumerated() {
                            let json = build(entry)
                            edits.append(.add(path: element(index), value: json))
                            items.insert(json, at: index)
                        }
                    }
                } != nil
            }
            operations += edits
            if !applied {
                // Not an array where one was expected (cannot happen with our own builds): replace it.
                set(&object, key, log.reset(list, generation: generation, ordinal: ordinal, build))
            }
        }
        return log
    }

    /// Brings the list at `object[key]` up to date with `list`: when only entries changed (the list kept its
    /// length), each changed entry is rebuilt and diffed in place, so a move that changes one score line costs
    /// one line; otherwise the whole list is rebuilt and diffed.
    ///
    /// Takes the list's `JSONRows` and returns it updated, like the `JSONLog` update.
    private mutating func update<Element: Equatable>(
        _ object: inout JSONObject, _ key: String, _ rows: JSONRows<Element>, _ list: [Element],
        _ build: (Element) -> JSONValue
    ) -> JSONRows<Element> {
        var rows = rows
        let previous = rows.previous
        let change = rows.change(to: list)
        rows.remember(list)
        switch change {
        case .unchanged:
            return rows
        case .whole:
            set(&object, key, .array(list.map(build)))
            return rows
        case .entries:
            break
        }
        // Locals only inside the closures (see the `JSONLog` update).
        let base = path + [key]
        var edits: [JSONPatch.Operation] = []
        var applied = false
        _ = object.withValue(forKey: key) { value in
            applied = value.withArray { (items: inout [JSONValue]) -> Bool in
                guard items.count == list.count else { return false }
                for index in list.indices where list[index] != previous[index] {
                    let json = build(list[index])
                    edits += JSONPatch.diff(from: items[index], to: json, at: Self.tokens(base, index))
                    items[index] = json
                }
                return true
            } ?? false
        }
        operations += edits
        if !applied {
            // Not the array this builder made (cannot happen with our own builds): replace it.
            set(&object, key, .array(list.map(build)))
        }
        return rows
    }

    // MARK: Paths

    private var pointer: JSONPointer { JSONPointer(tokens: path) }

    /// `base` followed by an array index, in one allocation (`base + [token]` makes two).
    private static func tokens(_ base: [String], _ index: Int) -> [String] {
        var tokens = base
        tokens.append(String(index))
        return tokens
    }

    private mutating func push(_ token: String) { path.append(token) }
    private mutating func pop() { path.removeLast() }

    // MARK: Room parts as JSON

    private static func json(_ members: [Member]) -> JSONValue {
        .array(members.map { member -> JSONValue in
            [
                "id": JSONValue(member.id.rawValue),
                "name": JSONValue(member.name),
                "role": member.isSpectator ? "spectator" : "player",
                "connected": JSONValue(member.link != nil),
            ]
        })
    }

    private static func json(_ line: ChatLine) -> JSONValue {
        var object: JSONObject = [
            "id": JSONValue(line.id),
            "player": nullable(line.player?.rawValue),
            "name": nullable(line.name),
            "text": JSONValue(line.text),
            "at": JSONValue(line.at),
        ]
        if line.isSystem { object["system"] = true }
        return .object(object)
    }

    private static func json(_ bans: [Ban]) -> JSONValue {
        .array(bans.map { ["id": JSONValue($0.id), "name": JSONValue($0.name)] })
    }
}
