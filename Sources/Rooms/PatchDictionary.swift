import JSON
import WordGames

/// The strings `PatchPacking` replaces: the framework's own (the patch envelope, the operations, members and
/// chat), then each registered game's, derived from the views the game publishes, so that a new game packs as
/// well as the others without a line here.
///
/// A game's strings come from a short game its own bot plays at start-up (two seats, a fixed seed and clock, a
/// few word lists made here): every member name of its views becomes a path segment (`scores/`) or a path's
/// end (`/score"`), and every object in them gives its members as a patch writes them (`{"word":"`,
/// `","length":`). Only names are kept, never values, and the games, seats, seed and clock are the same on
/// every start: the same build always derives the same dictionary, in the same order. (Packed bytes live only
/// in a room's in-memory `PatchHistory`; nothing packed is saved or sent.)
enum PatchDictionary {
    /// Most strings: the index is one byte, and 255 stands for a literal marker.
    static let capacity = 255

    /// The framework's strings, first in the dictionary: the envelope and the operations, the members' and the
    /// chat's entries (`RoomStateBuilder`), and JSON's own small words.
    static let framework: [String] = [
        #"{"type":"patch","seq":"#, #","ops":["#, #"]}"#,
        #"{"op":"replace","path":"/"#, #"{"op":"add","path":"/"#, #"{"op":"remove","path":"/"#,
        #"","value":"#, #","value":"#, "},", "}}",
        "chat/", "members/", #"/name""#, #"/connected""#,
        #"","name":""#, #","player":""#,
        #"{"id":"#, #","text":""#, #"","at":"#, #","at":"#, #","system":true"#, #","notice":""#,
        "true", "false", "null", #"":""#, #"",""#,
    ]

    /// The dictionary for the registered games, framework strings first, each string once.
    static func strings(games: [any GamePlugin.Type] = GameCatalog.games) -> [[UInt8]] {
        var seen = Set<String>()
        var strings: [[UInt8]] = []
        for string in framework + games.flatMap(gameStrings) where strings.count < capacity - 1 {
            guard string.utf8.count >= 3, !seen.contains(string) else { continue }
            seen.insert(string)
            strings.append(Array(string.utf8))
        }
        return strings
    }

    /// `game`'s strings: its part of the state's path, then what its sample views' names give.
    static func gameStrings(_ game: any GamePlugin.Type) -> [String] {
        var strings = ["\(game.id)/"]
        guard let playable = game as? any BotPlayable.Type else { return strings }
        for view in sampleViews(playable.bot) {
            names(in: view, topLevel: true, into: &strings)
        }
        return strings
    }

    /// The strings a patch writes around the member names of `value`: as a path segment or end, and as the
    /// members of an object added whole. `topLevel`: the view itself, whose leaves follow the game's segment.
    private static func names(in value: JSONValue, topLevel: Bool, into strings: inout [String]) {
        switch value {
        case .object(let object):
            var afterString = false
            for (index, (key, member)) in zip(object.keys, object.values).enumerated() {
                guard !key.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 })
                else { continue }
                let isString: Bool
                let isContainer: Bool
                switch member {
                case .string: (isString, isContainer) = (true, false)
                case .array, .object: (isString, isContainer) = (false, true)
                default: (isString, isContainer) = (false, false)
                }
                strings.append(isContainer ? "\(key)/" : topLevel ? "\(key)\"" : "/\(key)\"")
                if !topLevel {
                    let lead = index == 0 ? "{" : afterString ? "\"," : ","
                    strings.append(lead + "\"\(key)\":" + (isString ? "\"" : ""))
                }
                afterString = isString
                names(in: member, topLevel: false, into: &strings)
            }
        case .array(let items):
            for item in items { names(in: item, topLevel: false, into: &strings) }
        default:
            break
        }
    }

    /// The views of a short game the bot plays against itself in two seats, one per step of the clock.
    private static func sampleViews<Bot: GameBot>(_ bot: Bot.Type) -> [JSONValue] {
        let sampleSteps = 60, secondsPerStep = 5.0
        var random = SplitMix64(seed: 44)
        var now = 1_000_000.0
        guard let lists = sampleLists,
              var game = try? Bot.Game(settings: nil, lists: lists, now: now, using: &random) else { return [] }
        let seats = [Player(id: "p1", name: "Ana"), Player(id: "p2", name: "Bob")]
        for seat in seats { game.addPlayer(seat, now: now) }
        let words = BotWords(lists: lists)
        var bots = seats.map { _ in Bot(words: words) }
        var views: [JSONValue] = []
        for _ in 0..<sampleSteps {
            guard let view = try? JSONViewDiffer<Bot.Game.PublicView>().json(of: game.publicView) else { break }
            views.append(view)
            let state = ViewReading(view: view)
            if bots[0].finishedGame(in: state) != nil { try? game.startNext(now: now, using: &random) }
            for (index, seat) in seats.enumerated() {
                let choice = bots[index].choose(in: state, you: seat.id.rawValue, waiting: 0, invalidShare: 0,
                                                using: &random)
                if case .play(let move) = choice { try? game.play(move.move, by: seat.id, now: now) }
            }
            now += secondsPerStep
            _ = game.advance(to: now)
        }
        return views
    }

    /// Word lists for the sample games: secrets of several lengths (a game may want only some), one Scramble
    /// root and the words it spells.
    private static let sampleLists: WordLists? = {
        let secretWords = ["PLANETS", "GARDEN", "WINTER", "SNOWMAN", "LETTERS", "CRANE", "SLATE", "PLANT", "WORD"]
        guard let secrets = try? WordList(secretWords) else { return nil }
        let words = ["players", "parsley", "replays", "sparsely", "slayers", "pearls", "layers", "relays", "years",
                     "plays", "pales", "spare", "pears", "reaps", "slay", "ears", "sale", "real", "pry", "spy", "yes"]
        return WordLists(secrets: secrets, roots: ["sparsely"], lexicon: Lexicon(words: words))
    }()
}

/// A view as a bot reads the game's part of the room state.
private struct ViewReading: GameStateReading {
    let view: JSONValue

    func string(_ key: String) -> String? { view[key]?.stringValue }
    func int(_ key: String) -> Int? { view[key]?.intValue }
    func count(_ list: String) -> Int? { view[list]?.arrayValue?.count }
    func string(_ list: String, at index: Int, field: String) -> String? {
        guard let items = view[list]?.arrayValue, items.indices.contains(index) else { return nil }
        return items[index][field]?.stringValue
    }
}
