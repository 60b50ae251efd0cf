import JSON
import WordGames

/// Bringing the state up to date: one patch per change, broadcast to the members, saved, and the lobby told.
extension RoomMachine {
    /// Brings the state up to date; when it changed, broadcasts one patch message to every connected member
    /// (except `except`, which gets a welcome instead), then each player's private operations.
    mutating func publish(now: Double, except: UInt64? = nil, into effects: inout [RoomEffect]) {
        publication.publishQueued = false
        settleGame(now: now)
        if membership.anyoneConnected {
            membership.emptySince = nil
        } else if membership.emptySince == nil {
            membership.emptySince = now
        }
        // The game only when the builder will look at it: a copy of it retains everything the game holds.
        let game: (any RoomGame)? = publication.stateBuilder.needsGame(version: gameVersion) ? self.game : nil
        let parts = stateParts(game: game)
        let operations = publication.stateBuilder.update(parts)
        guard !operations.isEmpty else {
            if publication.unsavedChange {
                publication.unsavedChange = false
                effects.append(.save)
            }
            publishPrivateViews(except: except, into: &effects)
            return
        }
        let message = publication.append(operations)
        effects.append(.broadcast(message, except: except))
        effects.append(.save)
        reportSummary(into: &effects)
        publishPrivateViews(except: except, into: &effects)
    }

    /// What the state is built from, as the room holds it now.
    func stateParts(game: (any RoomGame)?) -> RoomStateBuilder.Parts {
        RoomStateBuilder.Parts(
            code: code, kind: kind, isPublic: isPublic, host: hostControls.host, locked: hostControls.locked,
            bans: hostControls.bans, members: membership.members, membersVersion: membership.version,
            chat: chat.lines, game: game, gameVersion: gameVersion)
    }

    /// The public state every member has (at `seq`); setting it (a restored room) makes the next change diff
    /// against it. Written from the room's parts each time (see `RoomStateBuilder.shownState`).
    var state: JSONValue {
        get { publication.shownState(stateParts(game: game)) }
        set { publication.restore(newValue) }
    }

    /// `state` as JSON text at `seq`, written once per `seq` (see `RoomPublication.stateText`).
    mutating func stateText() -> [UInt8] {
        if let kept = publication.keptText { return kept }
        let bytes = JSONWriter().serialize(state)
        publication.stateText = (publication.seq, bytes)
        return bytes
    }

    /// Before a change goes out: goes on when every connected player is ready (Word Scramble's break), and
    /// announces a result the game has not had announced. Looked at only when the game or the members changed.
    private mutating func settleGame(now: Double) {
        guard publication.settledVersions != (gameVersion, membership.version) else { return }
        if let ready = game.readyPlayers, !ready.isEmpty {
            var anyoneReady = false
            var everyone = true
            for index in membership.members.indices
            where !membership.members[index].isSpectator && membership.members[index].linkID != nil {
                if ready.contains(membership.members[index].id) { anyoneReady = true } else { everyone = false; break }
            }
            if everyone && anyoneReady { game.everyoneReady(now: now) }
        }
        if let result = game.resultNotice, result.number > chat.announcedResult {
            chat.announcedResult = result.number
            announce(result.text, .result, now: now)
        }
        publication.settledVersions = (gameVersion, membership.version)
    }

    /// Tells the registry the room's summary when it changed. Most changes (a guess, a word, a chat line) change
    /// neither the members nor the game's status: the summary is only built when one of them did (or after
    /// `lastSummary` was cleared to force a report).
    mutating func reportSummary(into effects: inout [RoomEffect]) {
        let status = game.status
        if let summary = publication.summary(code: code, kind: kind, maxPlayers: configuration.maxPlayers,
                                             isPublic: isPublic, status: status, locked: hostControls.locked,
                                             membership: membership) {
            effects.append(.summary(summary))
        }
    }
}
