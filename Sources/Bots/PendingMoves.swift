import JSON
import WordGames

/// A player's moves that wait for the patch that shows them or the error that refuses them, oldest first, and
/// how to tell from a state or a patch that one is shown.
struct PendingMoves {
    /// One move on its way.
    struct Move {
        enum Kind {
            /// A game move: the fields of its entry in the game's list once accepted (nil: made to be refused),
            /// and the refusals it may meet through no fault of the bot.
            case game(shownAs: [(field: String, value: String)]?, expectedRefusals: Set<String>)
            case chat(String)
        }
        let kind: Kind
        /// Monotonic nanoseconds just before the move was queued to the socket.
        let sentAt: UInt64
        /// The room's seq the bot had when it sent the move.
        let seqAtSend: Int
    }

    private(set) var moves: [Move] = []

    var isEmpty: Bool { moves.isEmpty }
    var count: Int { moves.count }

    mutating func append(_ move: Move) {
        moves.append(move)
    }

    /// How many game moves are waiting (turn-based games have a player send one at a time).
    var gameMoves: Int { moves.count { if case .game = $0.kind { true } else { false } } }
    /// Whether a chat line is waiting.
    var hasChat: Bool { moves.contains { if case .chat = $0.kind { true } else { false } } }

    /// Removes the oldest move: the room answers one connection's moves in order.
    mutating func removeOldest() -> Move {
        moves.removeFirst()
    }

    mutating func removeNewest() {
        moves.removeLast()
    }

    mutating func removeAll() {
        moves.removeAll()
    }

    /// Removes the moves for which `isShown` holds, oldest first.
    mutating func removeAll(where isShown: (Move) -> Bool) {
        moves.removeAll(where: isShown)
    }

    // MARK: Where moves show

    /// A list of the state where moves show once accepted: its path, and the end it grows at.
    struct ShownList {
        let path: [String]
        /// New entries come first (else last).
        let newestFirst: Bool

        /// Where a game's accepted moves show: its `GameBot.shownIn` list in its part of the state.
        init(game bot: any GameBot.Type) {
            path = [bot.gameID, bot.shownIn]
            newestFirst = bot.shownNewestFirst
        }

        init(path: [String], newestFirst: Bool) {
            self.path = path
            self.newestFirst = newestFirst
        }
    }

    static let chatPath = ["chat"]
    static let chatList = ShownList(path: chatPath, newestFirst: false)

    /// Whether some operation of a patch changes what is at `path`: its target is `path`, inside it, or one of
    /// its ancestors. Other patches cannot have revealed a pending move.
    static func touches(_ patch: JSONPatch, _ path: [String]) -> Bool {
        patch.operations.contains { operation in
            let target = operation.path.tokens
            let common = min(target.count, path.count)
            return target[..<common].elementsEqual(path[..<common])
        }
    }

    /// How many of the newest entries of a list a patch can have added: one per operation, unless an operation
    /// replaces a whole list or one of its ancestors (nil: look at every entry).
    static func newestWindow(_ patch: JSONPatch, gameList: [String]) -> Int? {
        for operation in patch.operations {
            let tokens = operation.path.tokens
            for list in [gameList, chatPath] where tokens.count <= list.count {
                if tokens.elementsEqual(list[..<tokens.count]) { return nil }
            }
        }
        return patch.operations.count + 1
    }

    /// Whether the move's entry (the mover's game move or chat line) is in `state`, among its `newest` entries,
    /// or, with `revealedBy`, whether that patch puts it there.
    ///
    /// A patch adds entries at the newest end of a list (`ShownList.newestFirst`), so only the `newest` entries
    /// there need looking at.
    static func shows(_ move: Move, by you: String, in state: JSONValue, gameList: ShownList, newest: Int?,
                      revealedBy patch: JSONPatch? = nil) -> Bool {
        let list: ShownList
        let isEntry: (JSONValue) -> Bool
        switch move.kind {
        case .game(let shownAs, _):
            guard let shownAs else { return false }
            list = gameList
            isEntry = { entry in
                entry["player"]?.stringValue == you && shownAs.allSatisfy { entry[$0.field]?.stringValue == $0.value }
            }
        case .chat(let text):
            list = chatList
            isEntry = { $0["text"]?.stringValue == text && $0["player"]?.stringValue == you }
        }
        if let patch { return reveals(patch, in: list.path, isEntry) }
        var value: JSONValue? = state
        for token in list.path { value = value?[token] }
        guard case .array(let entries)? = value else { return false }
        let window = newest ?? .max
        return list.newestFirst ? entries.prefix(window).contains(where: isEntry)
                                : entries.suffix(window).contains(where: isEntry)
    }

    /// Whether `patch` adds an entry to the list at `list` for which `isEntry` holds: an `add` or `replace` of the
    /// entry itself, of the list, or of a container holding the list (entries of these lists never change once
    /// added, so those are the only ways one appears).
    static func reveals(_ patch: JSONPatch, in list: [String], _ isEntry: (JSONValue) -> Bool) -> Bool {
        for operation in patch.operations {
            let value: JSONValue
            switch operation {
            case .add(_, let added): value = added
            case .replace(_, let replacement): value = replacement
            default: continue
            }
            let tokens = operation.path.tokens
            if tokens.count == list.count + 1, tokens.starts(with: list) {
                if isEntry(value) { return true }
                continue
            }
            guard tokens.count <= list.count, list.starts(with: tokens) else { continue }
            var inner: JSONValue? = value
            for token in list[tokens.count...] { inner = inner?[token] }
            if case .array(let entries)? = inner, entries.contains(where: isEntry) { return true }
        }
        return false
    }
}
