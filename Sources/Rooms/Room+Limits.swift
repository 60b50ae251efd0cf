/// What a room holds against a hostile client besides its machine's limits (members per address, bans by
/// address, the broadcast budget, the short life of a room nobody else ever joined): its key.
extension Room {
    /// Whether `key` opens this room: any key (or none) a public room; the right key a private one. A private room
    /// restored from a record written before keys existed has none and is opened by its code, as it was then.
    public nonisolated func admits(_ key: RoomKey?) -> Bool {
        guard let own = self.key else { return true }
        return own.matches(key)
    }
}
