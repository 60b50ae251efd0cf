/// Reactions: an emoji a member sends to everyone in the room at once (`react` → `reaction`), ephemeral by
/// design: never in the state, the patch history or the journal.
enum Reaction {
    /// The emoji a reaction may be, in the order clients show them.
    static let emoji = ["👍", "😂", "😮", "🎉", "❤️", "👏", "😱", "🔥"]
    /// At most this many reactions per member in any `windowSeconds`.
    static let perWindow = 5
    static let windowSeconds = 10.0
}
