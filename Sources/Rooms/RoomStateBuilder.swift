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
///
/// A room's builder does not keep the entries of those lists (`keepsEntries` false): they are most of a busy
/// room's state, and what they show is kept anyway (the games' own lists, `JSONRows`), so the patches are
/// written from that. The kept state holds each such list as its length, and `shownState` writes the whole
/// state when someone needs it.
struct RoomStateBuilder {
    /// The state as of the last update: what every member has, or will have once the patch reaches them; with
    /// each `JSONLog` or `JSONRows` list as its length, unless `keepsEntries` (see `shownState`).
    private(set) var state: JSONValue = .null
    /// Whether `state` holds the entries of the lists: chat lines, guesses, found words, score lines, positions.
    let keepsEntries: Bool
    #if DEBUG
    /// The whole state as clients have it, for checking the operations when `state` keeps no entries.
    private var shownForChecks: JSONValue = .null
    #endif
    /// Whether `state` came from this builder's own parts (false at first and after `restore`).
    private var primed = false
    /// `gameVersion` of the game part as last built.
    private var builtGameVersion: Int?

    /// The members as last shown, and `membersVersion` then: most updates leave them alone.
    private var members = JSONRows<MemberLine>()
    private var builtMembersVersion: Int?
    private var bans = JSONMemo<[Ban]>()
    /// `locked` and `bans` as last written: they change rarely, so most updates skip looking them up.
    private var builtHostControls: (locked: Bool, bans: [Ban])?
    private var chat = JSONLog<ChatLine>(newestAt: .back)

    /// What the framework keeps of the game's view between updates (`RoomGame.viewOperations`).
    private var gameParts: AnyObject?
    /// The game's part whole, as `shownState` last wrote it: the members of a room arriving one after another
    /// get the same game, so it is encoded once per change of the game rather than once per welcome.
    private let shownGame = ShownGame()
    private var editor = StateEditor()

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
        var game: (any RoomGame)?
        /// Must change whenever the game changes.
        var gameVersion: Int
        /// Who the members part shows as connected, in place of who has a link: set only to rebuild the state
        /// a restored room's clients last saw (the links died with the old process).
        var shownConnected: Set<PlayerID>? = nil
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

    /// A builder whose kept state holds every list (`keepingEntries`, what tests and full builds want) or
    /// only their lengths (a room's).
    init(keepingEntries: Bool = true) {
        keepsEntries = keepingEntries
        editor.keepsEntries = keepingEntries
    }

    /// Takes a state restored from disk: the one clients have. The next update diffs against it in full.
    mutating func restore(_ state: JSONValue) {
        self = RoomStateBuilder(keepingEntries: keepsEntries)
        self.state = state
        #if DEBUG
        shownForChecks = state
        #endif
    }

    /// The whole state as of the last update, as clients have it: `state` with each list kept as its length
    /// filled in from a full build of `parts`. The game and the chat change only in updates, so the full build's
    /// entries are the ones the last update sent; the members may have moved on since (one who came back, whose
    /// patch is queued), so theirs are the lines last shown, and the rest comes from `state`. `parts` must hold
    /// the game.
    func shownState(_ parts: Parts) -> JSONValue {
        guard !keepsEntries, primed else { return state }
        // Every change to the game is published before anything reads the state (a refused move that moved the
        // game on publishes too); otherwise the lists written here would be ahead of `state`.
        assert(builtGameVersion == parts.gameVersion, "the game changed since the last update")
        var full = RoomStateBuilder(keepingEntries: true)
        var whole = full.fullState(parts, withGame: false)
        // The members as last shown: someone may have come back or gone since, their patch still queued.
        whole.withObject { $0["members"] = .array(members.previous.map(Self.json)) }
        var shown = Self.filling(state, from: whole)
        shown.withObject { $0[parts.kind.rawValue] = shownGame.json(of: parts) }
        #if DEBUG
        assert(shown == shownForChecks, "the state written from the parts is not the one clients have")
        #endif
        return shown
    }

    /// `kept` with each list kept as its length (a number where `full` has an array) replaced by the list in
    /// `full`; everything else as kept.
    private static func filling(_ kept: JSONValue, from full: JSONValue) -> JSONValue {
        switch (kept, full) {
        case (.integer, .array):
            return full
        case (.object(let object), .object(let source)):
            var filled = object
            for (key, value) in object {
                switch value {
                case .integer, .object: filled[key] = filling(value, from: source[key] ?? .null)
                default: continue
                }
            }
            return .object(filled)
        default:
            return kept
        }
    }

    /// Brings the state up to date with `parts`.
    ///
    /// - Returns: The operations that turn the previous state into the new one (empty when nothing changed).
    mutating func update(_ parts: Parts) -> [JSONPatch.Operation] {
        guard buildsOnKeptState else {
            let kept = fullState(parts)
            var shown = kept
            if !keepsEntries {
                // Clients need the entries, so the diff is taken against a full build that has them.
                var full = RoomStateBuilder(keepingEntries: true)
                shown = full.fullState(parts)
            }
            let patch = JSONPatch.diff(from: state, to: shown)
            state = kept
            #if DEBUG
            shownForChecks = shown
            #endif
            primed = true
            return patch.operations
        }
        #if DEBUG
        let before = keepsEntries ? state : shownForChecks
        #endif
        editor.reset()
        // Moved out while it is changed, so that it stays uniquely referenced and is edited in place.
        var current = state
        state = .null
        current.withObject { top in
            editor.set(&top, "host", nullable(parts.host?.rawValue))
            if builtHostControls?.locked != parts.locked || builtHostControls?.bans != parts.bans {
                editor.set(&top, "locked", JSONValue(parts.locked))
                editor.set(&top, "bans", bans.value(for: parts.bans, Self.json))
                builtHostControls = (parts.locked, parts.bans)
            }
            if builtMembersVersion != parts.membersVersion {
                editor.update(&top, "members", rows: &members, Self.lines(parts), Self.json)
                builtMembersVersion = parts.membersVersion
            }
            editor.update(&top, "chat", log: &chat, parts.chat, generation: 0, ordinal: \.id, Self.json)
            guard parts.gameVersion != builtGameVersion, let game = parts.game else { return }
            builtGameVersion = parts.gameVersion
            editor.set(&top, "status", JSONValue(game.status))
            let key = parts.kind.rawValue
            if let operations = game.viewOperations(at: [key], kept: &gameParts) {
                editor.operations += operations
                // Kept whole only by a builder that keeps entries; a room's keeps the game's part in the differ.
                if keepsEntries, !operations.isEmpty { top[key] = game.shownState }
            } else {
                let whole = game.shownState
                editor.operations.append(.replace(path: JSONPointer(tokens: [key]), value: whole))
                top[key] = keepsEntries ? whole : .null
            }
        }
        state = current
        #if DEBUG
        // Checked against a full rebuild when the room passed the game (it passes it only when it changed).
        let applied = try? JSONPatch(editor.operations).apply(to: before)
        if parts.game == nil {
            if !keepsEntries { shownForChecks = applied ?? .null }
            return editor.operations
        }
        var fresh = RoomStateBuilder(keepingEntries: keepsEntries)
        assert(state == fresh.fullState(parts), "the kept state drifted from a full rebuild")
        if keepsEntries {
            assert(applied == state, "the operations do not give the new state")
        } else {
            var full = RoomStateBuilder(keepingEntries: true)
            assert(applied == full.fullState(parts), "the operations do not give the new state")
            shownForChecks = applied ?? .null
        }
        #endif
        return editor.operations
    }

    // MARK: Full builds

    /// The whole state built from scratch; primes every kept part. Only on a fresh builder (first use, or after
    /// `restore`): the game's part is built by the same updates as later changes, from an empty object, with the
    /// operations of that build thrown away.
    private mutating func fullState(_ parts: Parts, withGame: Bool = true) -> JSONValue {
        var object = JSONObject()
        object.reserveCapacity(9)
        object["code"] = JSONValue(parts.code.rawValue)
        object["game"] = JSONValue(parts.kind.rawValue)
        // `waiting`, `playing` or `finished`: the game's, as in the lobby.
        if let game = parts.game { object["status"] = JSONValue(game.status) }
        object["public"] = JSONValue(parts.isPublic)
        object["host"] = nullable(parts.host?.rawValue)
        object["locked"] = JSONValue(parts.locked)
        object["bans"] = bans.value(for: parts.bans, Self.json)
        builtHostControls = (parts.locked, parts.bans)
        editor.update(&object, "members", rows: &members, Self.lines(parts), Self.json)
        builtMembersVersion = parts.membersVersion
        object["chat"] = keepsEntries ? chat.reset(parts.chat, generation: 0, ordinal: \.id, Self.json)
            : chat.resetKeepingNoEntries(parts.chat, generation: 0)
        assert(parts.game != nil, "a full build needs the game (see needsGame)")
        // The game's part is kept whole only when entries are: a room keeps it in the game's differ, which
        // records the view now, so that the next update diffs against it.
        gameParts = nil
        if let game = parts.game, withGame {
            _ = game.viewOperations(at: [parts.kind.rawValue], kept: &gameParts)
            object[parts.kind.rawValue] = keepsEntries ? game.shownState : .null
        } else {
            object[parts.kind.rawValue] = .null
        }
        // Without the game, its part is built by the next update that has it.
        builtGameVersion = parts.game == nil ? nil : parts.gameVersion
        editor.reset()
        return .object(object)
    }

    // MARK: Room parts as JSON

    /// A member as the state shows them.
    struct MemberLine: Equatable {
        var id: PlayerID
        var name: String
        var isSpectator: Bool
        var connected: Bool
    }

    private static func lines(_ parts: Parts) -> [MemberLine] {
        parts.members.map { member in
            MemberLine(id: member.id, name: member.name, isSpectator: member.isSpectator,
                       connected: parts.shownConnected.map { $0.contains(member.id) } ?? (member.link != nil))
        }
    }

    private static func json(_ line: MemberLine) -> JSONValue {
        [
            "id": JSONValue(line.id.rawValue),
            "name": JSONValue(line.name),
            "role": line.isSpectator ? "spectator" : "player",
            "connected": JSONValue(line.connected),
        ]
    }

    private static func json(_ line: ChatLine) -> JSONValue {
        var object: JSONObject = [
            "id": JSONValue(line.id),
            "player": nullable(line.player?.rawValue),
            "name": nullable(line.name),
            "text": JSONValue(line.text),
            "at": JSONValue(line.at),
        ]
        if line.isSystem {
            object["system"] = true
            if let notice = line.notice { object["notice"] = JSONValue(notice.rawValue) }
        }
        return .object(object)
    }

    private static func json(_ bans: [Ban]) -> JSONValue {
        .array(bans.map { ["id": JSONValue($0.id), "name": JSONValue($0.name)] })
    }
}

/// The game's part of the state, whole, with the game version it was written at (`RoomStateBuilder.shownState`).
/// A class, so that `shownState` (which does not change the builder) can keep it; a copy of the builder shares it,
/// which is harmless: the version says whether it is current.
final class ShownGame {
    private var version: Int?
    private var json: JSONValue = .null

    func json(of parts: RoomStateBuilder.Parts) -> JSONValue {
        guard let game = parts.game else { return .null }
        if version == parts.gameVersion { return json }
        json = game.shownState
        version = parts.gameVersion
        return json
    }
}
