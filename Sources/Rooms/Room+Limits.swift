/// What a room holds against a hostile client: its key, the members one address may have, the bans by address,
/// the broadcast budget of what members say, and the short life of a room nobody else ever joined.
extension Room {
    /// Whether `key` opens this room: any key (or none) a public room; the right key a private one. A private room
    /// restored from a record written before keys existed has none and is opened by its code, as it was then.
    public nonisolated func admits(_ key: RoomKey?) -> Bool {
        guard let own = self.key else { return true }
        return own.matches(key)
    }

    /// How long the room lives once nobody is connected: short when nobody but its creator ever joined it.
    var emptyGraceSeconds: Double {
        creatorOnly ? min(configuration.creatorOnlyRoomGraceSeconds, configuration.emptyRoomGraceSeconds)
            : configuration.emptyRoomGraceSeconds
    }

    /// Whether a removal banned `address` (new seats only; see `Ban.address`).
    func isBanned(address: String?) -> Bool {
        guard let address else { return false }
        return bans.contains { $0.address == address }
    }

    /// The refusal for a newcomer from `address` when as many connected members come from there as one address
    /// may have; nil when there is room (or the address is not limited).
    func crowdedAddress(_ address: String?) -> RoomError.Reason? {
        guard let address else { return nil }
        var fromThere = 0
        for index in members.indices where members[index].link != nil && members[index].address == address {
            fromThere += 1
        }
        guard fromThere >= configuration.maxMembersPerAddress else { return nil }
        return .tooManyMembersFromAddress(room: code, limit: configuration.maxMembersPerAddress)
    }

    /// Charges `bytes` (one copy of what will be broadcast) times the connected members to the room's budget.
    ///
    /// - Throws: `room-busy` when the budget is spent: the caller then changes and sends nothing.
    func spendBroadcast(bytes: Int, move: String, now: Double) throws(RoomError) {
        var recipients = 0
        for index in members.indices where members[index].link != nil { recipients += 1 }
        guard broadcastBudget.spend(bytes * max(1, recipients), perSecond: configuration.chatBudgetBytesPerSecond,
                                    now: now) else {
            throw RoomError(.roomBusy, move: move)
        }
    }

    /// Bytes of a patch adding a chat line besides its text: the operation, its path, id, player, name and time
    /// (`{"op":"add","path":"/chat/-","value":{"id":..,"player":"p12","name":"..","text":"..","at":..}}`, the
    /// `patch` envelope with its `seq`), and the `remove` of the oldest line once the history is full.
    static let chatLineOverhead = 160
    /// A `reaction` message besides its emoji: `{"type":"reaction","player":"p12","emoji":".."}`.
    static let reactionOverhead = 48
    /// A rename's patch besides the names (each written twice: the member and the chat line announcing it).
    static let renameOverhead = 260
}
