import JSON
import WordGames

/// A game's part of a bot's room state (`state[id]`) as its `GameBot` reads it: lookups in the replica's tree,
/// nothing decoded or copied beyond the values asked for.
struct JSONGameState: GameStateReading {
    /// `state[id]`; nil before the state has one.
    let part: JSONValue?

    func string(_ key: String) -> String? { part?[key]?.stringValue }

    func int(_ key: String) -> Int? { part?[key]?.intValue }

    func count(_ list: String) -> Int? {
        guard case .array(let entries)? = part?[list] else { return nil }
        return entries.count
    }

    func string(_ list: String, at index: Int, field: String) -> String? {
        part?[list]?[index]?[field]?.stringValue
    }
}
