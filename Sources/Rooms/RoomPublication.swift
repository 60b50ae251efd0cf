import JSON
import WordGames

/// What a room has published: the state every member has at `seq`, the patches that led there (for resumes),
/// the state's JSON text for welcomes, the summary the lobby last heard and the versions handed to the journal.
/// Part of `RoomMachine`.
struct RoomPublication {
    /// `seq` of the state; increases by one per change.
    var seq = 0
    /// Keeps the lists' lengths only (see `RoomStateBuilder`): the state is written whole when someone needs it.
    var stateBuilder = RoomStateBuilder(keepingEntries: false)
    /// The state as JSON text at `seq`, kept from one whole-state message to the next until the state changes:
    /// after a restart most of a room's members come back within the same moment, and each welcome (or
    /// `resync` answer) wrote the same 8-10 KB again.
    var stateText: (seq: Int, bytes: [UInt8])?
    var history: PatchHistory
    /// The game and member versions when the game's result and Ready list were last looked at.
    var settledVersions = (game: -1, members: -1)
    var lastSummary: RoomSummary?
    /// The members' version when the summary was last built.
    var summarizedMembersVersion = -1
    /// Version of the last record handed to the journal.
    var persistedVersion = 0
    /// The game changed in a way the state does not show (a host's new word list of the same length): the next
    /// publish saves the room even if it has no patch to send.
    var unsavedChange = false
    /// A seat's connection came or went and its patch is queued behind the inputs waiting now (`publishSoon`).
    var publishQueued = false
    /// Each player's private view as their client has it (games with private views only).
    var privateViews = PrivateViews()

    init(configuration: RoomConfiguration) {
        history = PatchHistory(capacity: configuration.patchHistory, byteLimit: configuration.patchHistoryBytes)
    }

    /// The state as clients have it at `seq`, written from `parts`.
    func shownState(_ parts: RoomStateBuilder.Parts) -> JSONValue {
        stateBuilder.shownState(parts)
    }

    /// Takes a state clients have (a restored room's): the next change diffs against it.
    mutating func restore(_ state: JSONValue) {
        stateBuilder.restore(state)
        stateText = nil
    }

    /// Takes the state a restored room's clients have, as `builder` built it from the room's record; the next
    /// update goes on from what `builder` kept instead of building everything anew.
    mutating func restore(builtBy builder: RoomStateBuilder) {
        stateBuilder = builder
        stateText = nil
    }

    /// The state's JSON text kept for `seq`, if any (see `stateText`).
    var keptText: [UInt8]? {
        guard let stateText, stateText.seq == seq else { return nil }
        return stateText.bytes
    }

    /// Records a change's patch: the next `seq`, kept in the history for resumes.
    ///
    /// - Returns: The patch message to broadcast.
    mutating func append(_ operations: [JSONPatch.Operation]) -> ServerMessage {
        unsavedChange = false
        seq += 1
        stateText = nil
        let message = ServerMessage.patch(seq: seq, ops: JSONPatch(operations))
        history.append(message, seq: seq)
        return message
    }

    /// The summary to report to the lobby, or nil when it is the one reported last. Built only when the members,
    /// the game's status or the lock changed.
    mutating func summary(code: RoomCode, kind: GameKind, maxPlayers: Int, isPublic: Bool, status: String,
                          locked: Bool, membership: RoomMembership) -> RoomSummary? {
        guard membership.version != summarizedMembersVersion || status != lastSummary?.status
                || locked != lastSummary?.locked else { return nil }
        summarizedMembersVersion = membership.version
        let (players, spectators) = membership.headcount()
        let summary = RoomSummary(code: code, game: kind, players: players, spectators: spectators,
                                  maxPlayers: maxPlayers, status: status, isPublic: isPublic, locked: locked)
        guard summary != lastSummary else { return nil }
        lastSummary = summary
        return summary
    }
}
