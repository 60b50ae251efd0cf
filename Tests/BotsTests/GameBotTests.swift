import JSON
import Testing
@testable import Bots

@Suite struct GameBotTests {
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
        #expect(GameBot.touches(patch, ["scramble", "found"]) == touches)
    }
}
