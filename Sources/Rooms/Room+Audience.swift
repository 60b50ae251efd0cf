/// Publishing through the room's audience, kept to the members connected now.
extension Room {
    /// Queues a patch to every connected member but `except`: once, to the audience.
    func publish(_ message: ServerMessage, except: UInt64?) {
        let audience = self.audience ?? makeAudience()
        self.audience = audience
        // The links change only with the members (a join, a resume, a drop, a departure), far less often than
        // patches go out: the audience is brought up to date only when they changed since the last publish.
        if audienceVersion != machine.membership.version {
            updateAudience(audience)
            audienceVersion = machine.membership.version
        }
        audience.publish(message, except: except)
    }

    /// Admits the members' links the audience does not have, and dismisses those no member has any more.
    /// Members are looked at in place (by index): copying one out retains all its fields.
    private func updateAudience(_ audience: any RoomAudience) {
        var linked = Set<UInt64>(minimumCapacity: machine.membership.members.count)
        for index in machine.membership.members.indices {
            guard let id = machine.membership.members[index].linkID else { continue }
            linked.insert(id)
            if !audienceLinks.contains(id), let link = machine.membership.members[index].link {
                audience.admit(link)
            }
        }
        for id in audienceLinks where !linked.contains(id) {
            audience.dismiss(id)
        }
        audienceLinks = linked
    }

    /// Lets the audience go (and with it the server's compression context, the room's biggest buffer).
    func releaseAudience() {
        audience = nil
        audienceLinks = []
        audienceVersion = nil
    }
}
