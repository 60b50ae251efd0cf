import JSON
import WordGames

/// Each player's private view (`GamePlugin.PrivateView`): whole in their `welcome` and `snapshot`, then as
/// `private` operations sent to them alone, after the patch of the same change. Outside the state: no `seq`,
/// no patch history, no journal (the game's snapshot holds what the views are made from), never to spectators.
/// See PROTOCOL.md, "Private views".
extension RoomMachine {
    /// `member`'s private view whole, for their welcome or snapshot, recorded as what their client now has; nil
    /// (the message has no `private`) for spectators and in rooms whose game has no private views.
    mutating func privateState(of member: Member) -> JSONValue? {
        guard publication.privateViews.enabled else { return nil }
        guard !member.isSpectator else {
            publication.privateViews.kept[member.id] = nil
            return nil
        }
        return game.privateState(for: member.id, kept: &publication.privateViews.kept[member.id])
    }

    /// After a publish: sends each connected player (but `except`, whose welcome carries their view whole) the
    /// operations that bring their private view up to date, and `null` to a player who became a spectator.
    /// Looked at only when the game or the members changed; rooms of games without private views return at once.
    mutating func publishPrivateViews(except: UInt64?, into effects: inout [RoomEffect]) {
        guard publication.privateViews.enabled,
              publication.privateViews.versions != (gameVersion, membership.version) else { return }
        let membersChanged = publication.privateViews.versions.members != membership.version
        publication.privateViews.versions = (gameVersion, membership.version)
        for index in membership.members.indices {
            guard let link = membership.members[index].link, link.id != except else { continue }
            let id = membership.members[index].id
            let operations: [JSONPatch.Operation]
            if membership.members[index].isSpectator {
                guard publication.privateViews.kept.removeValue(forKey: id) != nil else { continue }
                operations = [.replace(path: .root, value: .null)]
            } else {
                operations = game.privateOperations(for: id, kept: &publication.privateViews.kept[id])
            }
            if !operations.isEmpty { effects.append(.send(link, .privateView(operations))) }
        }
        if membersChanged { forgetUnreachablePrivateViews() }
    }

    /// Drops the records of members who left or lost their connection: nothing reaches them, and a member who
    /// comes back gets their view whole in the welcome.
    private mutating func forgetUnreachablePrivateViews() {
        guard !publication.privateViews.kept.isEmpty else { return }
        var reachable = Set<PlayerID>()
        for index in membership.members.indices where membership.members[index].link != nil {
            reachable.insert(membership.members[index].id)
        }
        for id in publication.privateViews.kept.keys where !reachable.contains(id) {
            publication.privateViews.kept[id] = nil
        }
    }
}
