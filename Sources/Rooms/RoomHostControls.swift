import WordGames

/// What the host decides: who hosts, whether newcomers may join, and who is kept out. Part of `RoomMachine`.
struct RoomHostControls {
    var host: PlayerID?
    /// Set by the host (or the server's operator): nobody new may join (resumes still may).
    var locked = false
    /// Who the host removed; they cannot come back while the room lives, unless the host lifts the ban.
    var bans: [Ban] = []
    var banCounter = 0

    /// Bans `member` (its token, browser and address bucket), keeping the newest `maxBans` bans.
    mutating func ban(_ member: Member, maxBans: Int) {
        banCounter += 1
        bans.append(Ban(id: "b\(banCounter)", name: member.name, token: member.token, client: member.client,
                        address: member.address))
        if bans.count > maxBans { bans.removeFirst(bans.count - maxBans) }
    }

    /// Lifts the ban `id`; false when there is none.
    mutating func unban(_ id: String) -> Bool {
        for index in bans.indices where bans[index].id == id {
            bans.remove(at: index)
            return true
        }
        return false
    }

    /// Whether a ban matches a join's token or browser.
    func bans(token: ResumeToken?, client: ClientID?) -> Bool {
        for index in bans.indices where bans[index].matches(token: token, client: client) { return true }
        return false
    }

    /// Whether a removal banned `address` (new seats only; see `Ban.address`).
    func isBanned(address: String?) -> Bool {
        guard let address else { return false }
        for index in bans.indices where bans[index].address == address { return true }
        return false
    }
}
