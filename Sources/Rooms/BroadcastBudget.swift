/// A room's token bucket of broadcast bytes for what its members say (chat, renames, reactions): what a message
/// costs is its bytes times the members it goes to, so a room of 250 pays 250 times what a room of one does.
///
/// Time is passed in (the room's clock), so it is testable; the bucket starts full.
struct BroadcastBudget: Sendable {
    private var bytes: Double?
    private var updatedAt = 0.0

    /// Takes `cost` bytes at `perSecond` a second, bursts of twice that; false (and nothing taken) when the
    /// bucket holds less.
    mutating func spend(_ cost: Int, perSecond: Int, now: Double) -> Bool {
        let burst = 2 * Double(perSecond)
        let available = min(burst, (bytes ?? burst) + max(0, now - updatedAt) * Double(perSecond))
        updatedAt = now
        guard Double(cost) <= available else {
            bytes = available
            return false
        }
        bytes = available - Double(cost)
        return true
    }
}
