import JSON
import Testing
@testable import Bots

@Suite struct PendingMovesTests {
    @Test(arguments: [
        ("/scramble/found/0", true),       // a word added
        ("/scramble/found", true),         // the list replaced
        ("/scramble", true),               // the game replaced
        ("", true),                        // the whole state replaced
        ("/scramble/foundCount", false),   // a sibling whose name starts the same
        ("/scramble/scores/0/score", false),
        ("/members/2/connected", false),
    ])
    func aPatchTouchesAPathThroughItsAncestorsAndDescendants(opPath: String, touches: Bool) throws {
        let patch = JSONPatch([.replace(path: try JSONPointer(opPath), value: 1)])
        #expect(PendingMoves.touches(patch, ["scramble", "found"]) == touches)
    }
}

/// A bot reading behind its room's shared state tells from the patch itself whether it shows its move.
@Suite struct PendingMovesRevealsTests {
    private let chat = ["chat"]
    private let mine: JSONValue = ["id": 9, "player": "p2", "text": "hello #3"]
    private let theirs: JSONValue = ["id": 8, "player": "p1", "text": "hello #3"]

    private func isMine(_ entry: JSONValue) -> Bool {
        entry["text"]?.stringValue == "hello #3" && entry["player"]?.stringValue == "p2"
    }

    private func patch(_ operations: [JSONPatch.Operation]) -> JSONPatch { JSONPatch(operations) }

    @Test func anEntryAddedAtTheListsEnd() throws {
        let added = patch([.remove(path: try JSONPointer("/chat/0")), .add(path: try JSONPointer("/chat/29"), value: mine)])
        #expect(PendingMoves.reveals(added, in: chat, isMine))
        let someoneElses = patch([.add(path: try JSONPointer("/chat/29"), value: theirs)])
        #expect(!PendingMoves.reveals(someoneElses, in: chat, isMine), "the same text from another player")
    }

    @Test func theListOrAContainerOfItReplaced() throws {
        #expect(PendingMoves.reveals(patch([.replace(path: try JSONPointer("/chat"), value: [theirs, mine])]), in: chat, isMine))
        let state: JSONValue = ["code": "ABCD", "chat": [mine]]
        #expect(PendingMoves.reveals(patch([.replace(path: try JSONPointer(""), value: state)]), in: chat, isMine))
        let found = ["scramble", "found"]
        let game: JSONValue = ["found": [["word": "tone", "player": "p2"]]]
        #expect(PendingMoves.reveals(patch([.replace(path: try JSONPointer("/scramble"), value: game)]), in: found) {
            $0["word"]?.stringValue == "tone" && $0["player"]?.stringValue == "p2"
        })
    }

    @Test func otherOperationsRevealNothing() throws {
        #expect(!PendingMoves.reveals(patch([.remove(path: try JSONPointer("/chat/3"))]), in: chat, isMine))
        #expect(!PendingMoves.reveals(patch([.replace(path: try JSONPointer("/chat/3/text"), value: "hello #3")]), in: chat, isMine),
                "a field inside an entry is not an entry")
        #expect(!PendingMoves.reveals(patch([.add(path: try JSONPointer("/members/2"), value: mine)]), in: chat, isMine))
        #expect(!PendingMoves.reveals(patch([.replace(path: try JSONPointer("/snowman"), value: ["chat": [mine]])]), in: chat, isMine),
                "a list of the same name elsewhere")
    }
}

/// A bot tells from its rebuilt state whether its game move shows, in the game's own list and at its newest end.
@Suite struct PendingMovesShowsTests {
    private let foundList = PendingMoves.ShownList(path: ["scramble", "found"], newestFirst: true)
    private let guessesList = PendingMoves.ShownList(path: ["snowman", "guesses"], newestFirst: false)

    private func move(_ fields: [(field: String, value: String)]?) -> PendingMoves.Move {
        PendingMoves.Move(kind: .game(shownAs: fields, expectedRefusals: []), sentAt: 0, seqAtSend: 0)
    }

    @Test func aMoveShowsByItsFieldsAndItsPlayerAtTheNewestEnd() {
        let state: JSONValue = ["scramble": ["found": [["word": "tone", "player": "p2"], ["word": "note", "player": "p1"]]]]
        #expect(PendingMoves.shows(move([("word", "tone")]), by: "p2", in: state, gameList: foundList, newest: 1))
        #expect(!PendingMoves.shows(move([("word", "tone")]), by: "p1", in: state, gameList: foundList, newest: nil),
                "another player's entry")
        #expect(!PendingMoves.shows(move([("word", "note")]), by: "p1", in: state, gameList: foundList, newest: 1),
                "outside the newest window (found words grow at the front)")
        #expect(PendingMoves.shows(move([("word", "note")]), by: "p1", in: state, gameList: foundList, newest: nil))
        let guesses: JSONValue = ["snowman": ["guesses": [["letter": "E", "player": "p1"], ["letter": "T", "player": "p2"]]]]
        #expect(PendingMoves.shows(move([("letter", "T")]), by: "p2", in: guesses, gameList: guessesList, newest: 1))
        #expect(!PendingMoves.shows(move([("letter", "E")]), by: "p1", in: guesses, gameList: guessesList, newest: 1),
                "guesses grow at the back")
    }

    @Test func aMoveMadeToBeRefusedNeverShows() {
        let state: JSONValue = ["scramble": ["found": [["word": "xq", "player": "p1"]]]]
        #expect(!PendingMoves.shows(move(nil), by: "p1", in: state, gameList: foundList, newest: nil))
    }

    @Test func theNewestWindowLooksEverywhereWhenTheGamesListIsReplaced() throws {
        let added = JSONPatch([.add(path: try JSONPointer("/scramble/found/0"), value: 1)])
        #expect(PendingMoves.newestWindow(added, gameList: foundList.path) == 2)
        let replaced = JSONPatch([.replace(path: try JSONPointer("/scramble"), value: [:])])
        #expect(PendingMoves.newestWindow(replaced, gameList: foundList.path) == nil)
    }
}
