@testable import WordGames

/// A game's part of a room state for bot tests: named strings and integers, and lists of entries.
struct FakeGameState: GameStateReading {
    var strings: [String: String] = [:]
    var ints: [String: Int] = [:]
    var lists: [String: [[String: String]]] = [:]

    func string(_ key: String) -> String? { strings[key] }
    func int(_ key: String) -> Int? { ints[key] }
    func count(_ list: String) -> Int? { lists[list]?.count }

    func string(_ list: String, at index: Int, field: String) -> String? {
        guard let entries = lists[list], entries.indices.contains(index) else { return nil }
        return entries[index][field]
    }
}
