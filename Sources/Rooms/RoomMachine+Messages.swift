import JSON
import WordGames

/// What members send once seated: moves, the host's controls, chat, reactions, names and seats.
extension RoomMachine {
    /// Applies a member's message; an accepted change is published.
    ///
    /// Kept out of line: `Tests/Bench/callgrind.sh` counts the instructions of a move from its entry.
    ///
    /// - Throws: Why the message is refused (the machine sends it to the member alone).
    @inline(never)
    mutating func handle(_ message: ClientMessage, from index: Int, now: Double,
                         into effects: inout [RoomEffect]) throws(RoomError) {
        let member = membership.members[index]
        let isHost = member.id == hostControls.host
        switch message {
        case .move(let move):
            guard !member.isSpectator else { throw RoomError(.watchingOnly, move: move.type) }
            // Only a deadline that has passed lets a refused move change the game (see `refused`); then the
            // next update looks at the game in full, otherwise the next accepted move may still be written from
            // the move alone.
            let deadlinePassed = game.nextDeadline.map { now >= $0 } ?? false
            do {
                try game.play(move, by: member.id, now: now)
            } catch {
                throw deadlinePassed ? refused(error) : error
            }
            countMove()
        case .newGame:
            guard isHost else { throw Self.hostOnly("new_game", "start the next game") }
            // `game` has an observer, so its access covers the whole machine: `random` goes through a local.
            var random = self.random
            defer { self.random = random }
            do { try game.startNext(now: now, using: &random) } catch { throw refused(error) }
        case .settings(let settings):
            guard isHost else { throw Self.hostOnly("settings", "change the settings") }
            try game.updateSettings(settings)
            // A new custom list as long as the old one changes the game but not the state: no patch, yet it
            // must reach the data directory now, not with the room's next change.
            publication.unsavedChange = true
        case .kick(let target):
            guard isHost else { throw Self.hostOnly("kick", "remove players") }
            guard let targetIndex = membership.index(named: target) else { throw Self.noSuchMember("kick", target) }
            guard targetIndex != index else { throw RoomError(.cannotRemoveYourself, move: "kick") }
            remove(targetIndex, error: RoomError(.removedByHost(room: code)), close: .removedByHost,
                   notice: "was removed by the host", now: now, into: &effects)
        case .unban(let id):
            guard isHost else { throw Self.hostOnly("unban", "let removed players back") }
            guard hostControls.unban(id) else { throw RoomError(.noSuchBan(id: id), move: "unban") }
        case .lock(let lock):
            guard isHost else { throw Self.hostOnly("lock", "lock the room") }
            hostControls.locked = lock
        case .skip:
            guard isHost else { throw Self.hostOnly("skip", "skip a turn") }
            let skipped: PlayerID
            do { skipped = try game.skipTurn(now: now) } catch { throw refused(error) }
            announce("\(displayName(of: skipped))'s turn was skipped by the host", .skip, now: now)
        case .makeHost(let target):
            guard isHost else { throw Self.hostOnly("host", "hand over hosting") }
            guard let newHost = membership.index(named: target) else { throw Self.noSuchMember("host", target) }
            guard !membership.members[newHost].isSpectator else {
                throw RoomError(.spectatorCannotHost(name: membership.members[newHost].name), move: "host")
            }
            makeHost(membership.members[newHost].id, now: now)
        case .chat(let raw):
            let checked: String?
            do {
                checked = try NameRules.checkChat(raw)
            } catch {
                throw RoomError(.badChat(error), move: "chat")
            }
            guard let text = checked else { throw RoomError(.emptyChat, move: "chat") }
            guard text.count <= ClientMessage.maxChatCharacters else { throw RoomError(.chatTooLong, move: "chat") }
            try spendBroadcast(bytes: text.utf8.count + RoomChat.chatLineOverhead, move: "chat", now: now)
            chat.say(text, by: member, now: now, keeping: configuration.chatHistory)
        case .react(let emoji):
            try react(emoji, from: index, now: now, into: &effects)
            return
        case .rename(let raw):
            guard try rename(index, to: raw, now: now) else { return }
        case .seat(let role, let target):
            guard try seat(role, target: target, by: index, now: now) else { return }
        case .resync:
            if let link = member.link {
                let state = stateText()
                var snapshot: JSONObject = ["type": "snapshot", "seq": JSONValue(publication.seq),
                                            "serverTime": JSONValue(now)]
                if let privateView = privateState(of: member) { snapshot["private"] = privateView }
                effects.append(.send(link, .object(snapshot, state: state)))
            }
            return
        case .leave:
            if let link = member.link {
                effects.append(.send(link, .object(["type": "left", "code": JSONValue(code.rawValue)])))
            }
            removeForGood(index, now: now, notice: "\(member.name) left", .leave)
        case .create, .join, .lobby, .peek, .ping:
            throw RoomError(.alreadyInRoom(room: code), move: message.type)
        }
        publish(now: now, into: &effects)
    }

    /// A game call refused `error`. It may still have moved the game on first (turns or a round whose time was
    /// up, applied before the input is looked at), and a mutating call that throws does not run `game`'s didSet:
    /// the version moves here, so that the next update looks at the game.
    private mutating func refused(_ error: RoomError) -> RoomError {
        gameVersion &+= 1
        return error
    }

    private static func hostOnly(_ move: String, _ what: String) -> RoomError {
        RoomError(.hostOnly(action: what), move: move)
    }

    private static func noSuchMember(_ move: String, _ id: String) -> RoomError {
        RoomError(.noSuchPlayer(id: id), move: move)
    }

    /// Removes the member at `index` as a host's `kick` or the operator does: they get `error` and are closed
    /// with `reason`, their token, browser and address are banned, and the room announces "NAME `notice`".
    mutating func remove(_ index: Int, error: RoomError, close reason: CloseReason, notice: String, now: Double,
                         into effects: inout [RoomEffect]) {
        let removed = membership.members[index]
        hostControls.ban(removed, maxBans: configuration.maxBans)
        if let link = removed.link {
            effects.append(.send(link, .error(error)))
            effects.append(.close(link, reason))
        }
        removeForGood(index, now: now, notice: "\(removed.name) \(notice)", .kick)
    }

    /// A line in the chat from the room itself, such as a skipped turn.
    mutating func announce(_ text: String, _ notice: ChatNotice, now: Double) {
        chat.announce(text, notice, now: now, keeping: configuration.chatHistory)
    }

    /// Hands hosting to `id`, announcing it ("Cleo is now the host") unless `announced` is false (the creator).
    mutating func makeHost(_ id: PlayerID?, now: Double, announced: Bool = true) {
        guard id != hostControls.host else { return }
        hostControls.host = id
        if announced, let id { announce("\(displayName(of: id)) is now the host", .host, now: now) }
    }

    /// The name to show for `player`: the member's, or the game's for someone who has left.
    func displayName(of player: PlayerID) -> String {
        if let index = membership.index(id: player) { return membership.members[index].name }
        return game.name(of: player) ?? "A player"
    }

    /// Removes a member (left, kicked or gone past the grace period), announcing it with `notice`; hosting
    /// passes to the longest-present player.
    mutating func removeForGood(_ index: Int, now: Double, notice text: String, _ notice: ChatNotice) {
        let member = membership.members.remove(at: index)
        chat.reactionTimes[member.id] = nil
        membership.rememberDeparture(of: member)
        if !member.isSpectator {
            game.removePlayer(member.id, now: now)
        }
        announce(text, notice, now: now)
        if hostControls.host == member.id {
            hostControls.host = nil
            var next: PlayerID?
            for other in membership.members.indices where !membership.members[other].isSpectator {
                if membership.members[other].linkID != nil { next = membership.members[other].id; break }
                if next == nil { next = membership.members[other].id }
            }
            makeHost(next, now: now)
        }
    }

    /// Charges `bytes` (one copy of what will be broadcast) times the connected members to the room's budget.
    ///
    /// - Throws: `room-busy` when the budget is spent: the caller then changes and sends nothing.
    mutating func spendBroadcast(bytes: Int, move: String, now: Double) throws(RoomError) {
        try chat.spend(bytes: bytes, recipients: membership.connected,
                       perSecond: configuration.chatBudgetBytesPerSecond, move: move, now: now)
    }

    // MARK: Reactions, names and seats

    /// `react`: the emoji goes to every connected member at once, outside the state (no `seq`, no history, no
    /// journal, no compression); one message object, encoded once, for all of them.
    private mutating func react(_ emoji: String, from index: Int, now: Double,
                                into effects: inout [RoomEffect]) throws(RoomError) {
        guard Reaction.emoji.contains(emoji) else { throw RoomError(.badReaction, move: "react") }
        let id = membership.members[index].id
        var times = try chat.checkReactionRate(of: id, now: now)
        try spendBroadcast(bytes: emoji.utf8.count + RoomChat.reactionOverhead, move: "react", now: now)
        times.append(now)
        chat.reactionTimes[id] = times
        effects.append(.sendToEach(.object([
            "type": "reaction", "player": JSONValue(id.rawValue), "emoji": JSONValue(emoji),
        ])))
    }

    /// `rename`: the same rules as a name at join (cleaned, and made distinct from the others' names).
    ///
    /// - Returns: Whether the name changed (the same name changes nothing and gets no answer).
    private mutating func rename(_ index: Int, to raw: String, now: Double) throws(RoomError) -> Bool {
        let cleaned: String
        do {
            cleaned = try NameRules.clean(raw)
        } catch {
            throw error.refusing("rename")
        }
        let old = membership.members[index].name
        var others: [String] = []
        for other in membership.members.indices where other != index { others.append(membership.members[other].name) }
        let name = NameRules.distinct(cleaned, among: others)
        guard name != old else { return false }
        try spendBroadcast(bytes: 2 * (name.utf8.count + old.utf8.count) + RoomChat.renameOverhead, move: "rename",
                           now: now)
        membership.members[index].name = name
        // Spectators too: the game may still show them from when they played.
        game.renamePlayer(membership.members[index].id, to: name)
        announce("\(old) is now \(name)", .rename, now: now)
        return true
    }

    /// `seat`: a member takes a player's seat or moves to the spectators; see PROTOCOL.md for who may do which.
    ///
    /// - Returns: Whether anything changed (a member already in the role asked for: nothing, no answer).
    private mutating func seat(_ role: SeatRole, target: String?, by index: Int, now: Double) throws(RoomError) -> Bool {
        let asker = membership.members[index]
        let byHost = asker.id == hostControls.host
        let targetIndex: Int
        if let target, target != asker.id.rawValue {
            guard byHost else { throw Self.hostOnly("seat", "move other members") }
            guard let found = membership.index(named: target) else { throw Self.noSuchMember("seat", target) }
            targetIndex = found
        } else {
            targetIndex = index
        }
        let member = membership.members[targetIndex]
        switch role {
        case .player:
            guard member.isSpectator else { return false }
            guard byHost || game.status != "playing" else { throw RoomError(.seatDuringGame, move: "seat") }
            guard membership.headcount().players < configuration.maxPlayers else {
                throw RoomError(.noPlayerSeats(room: code, maxPlayers: configuration.maxPlayers), move: "seat")
            }
            membership.members[targetIndex].isSpectator = false
            game.addPlayer(Player(id: member.id, name: member.name), now: now)
            announce("\(member.name) is now playing", .seat, now: now)
            if hostControls.host == nil { makeHost(member.id, now: now) }
        case .spectator:
            guard !member.isSpectator else { return false }
            guard member.id != hostControls.host else { throw RoomError(.hostMustPlay, move: "seat") }
            membership.members[targetIndex].isSpectator = true
            game.removePlayer(member.id, now: now)
            announce("\(member.name) is now watching", .seat, now: now)
        }
        return true
    }
}
