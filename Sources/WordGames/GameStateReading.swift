/// A game's part of a room's state (`state[id]`, its public view as members receive it), read by a bot.
///
/// The bots keep the room's state as it came over the wire and implement this over it, so that a bot reads the
/// few fields it decides on instead of decoding the whole view at every decision: thousands of bots decide
/// several times a second each.
public protocol GameStateReading {
    /// The string at `key`, if it is one.
    func string(_ key: String) -> String?
    /// The integer at `key`, if it is one.
    func int(_ key: String) -> Int?
    /// How many entries the list at `list` holds; nil when there is no such list.
    func count(_ list: String) -> Int?
    /// The string `field` of entry `index` (in the list's own order) of the list at `list`.
    func string(_ list: String, at index: Int, field: String) -> String?
}
