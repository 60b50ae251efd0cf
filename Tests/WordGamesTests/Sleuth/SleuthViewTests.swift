import Foundation
import Testing
@testable import WordGames

@Suite struct SleuthViewTests {
    private func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func thePublicViewOfARoundHoldsPatternsOnly() throws {
        let game = try SleuthFixtures.playedRound()
        let bytes = try json(game.publicView)
        for secret in ["stare", "llama", "trace", "crane", "STARE", "LLAMA", "TRACE", "CRANE"] {
            #expect(!bytes.contains(secret), "\(secret) leaked: \(bytes)")
        }
        #expect(bytes.contains(#"{"pattern":"aarpr","player":"alice","word":null}"#))
        #expect(bytes.contains(#""secret":null"#))
        #expect(game.publicView.tries.map(\.pattern) == ["aarpr", "aaraa", "arrpr"])
        // Nor does a debugger's or a log's dump of the game hold them.
        let dumped = Fixtures.everything(in: game)
        #expect(!dumped.contains("stare") && !dumped.contains("crane"))
    }

    @Test func thePublicViewIsExactlyAsTheAppendixShowsIt() throws {
        var game = try SleuthFixtures.game()
        try game.guess("stare", by: "alice", now: 1)
        #expect(try json(game.publicView) == """
            {"boards":[{"done":false,"name":"Alice","player":"alice","points":0,"solved":false,"tries":1},\
            {"done":false,"name":"Bob","player":"bob","points":0,"solved":false,"tries":0}],"canStartNext":false,\
            "leaderboard":[],"maxTries":6,"nextSettings":{"roundSeconds":180},"phase":"playing","round":1,\
            "roundEndsAt":180,"secret":null,"settings":{"roundSeconds":180},\
            "statusLine":"Round 1: find the 5-letter word in 6 tries",\
            "tries":[{"pattern":"aarpr","player":"alice","word":null}],"wordLength":5}
            """)
        #expect(try json(game.privateView(for: "alice")) == """
            {"round":1,"tries":[{"pattern":"aarpr","word":"stare"}]}
            """)
    }

    @Test func eachPlayerPrivatelySeesTheirOwnLettersOnly() throws {
        let game = try SleuthFixtures.playedRound()
        let alice = try json(game.privateView(for: "alice"))
        #expect(alice.contains("stare") && alice.contains("trace") && !alice.contains("llama"))
        #expect(!alice.contains("crane"), "the secret is nobody's")
        let bob = try json(game.privateView(for: "bob"))
        #expect(bob == #"{"round":1,"tries":[{"pattern":"aaraa","word":"llama"}]}"#)
        #expect(game.privateView(for: "spectator") == nil)
    }

    @Test func everythingIsShownOnceTheRoundIsOver() throws {
        var game = try SleuthFixtures.playedRound()
        _ = game.advance(to: 180)
        let bytes = try json(game.publicView)
        #expect(bytes.contains(#""secret":"CRANE""#))
        #expect(bytes.contains(#"{"pattern":"aaraa","player":"bob","word":"llama"}"#))
        #expect(bytes.contains(#""statusLine":"Round 1 is over: the word was CRANE""#))
        #expect(bytes.contains(#""canStartNext":true"#))
        #expect(game.publicView.leaderboard.map(\.player) == ["alice", "bob"])
    }

    @Test func theLobbyShowsNoRound() throws {
        let game = try SleuthFixtures.game(start: false)
        let view = game.publicView
        #expect(view.phase == .lobby && view.round == 0 && view.boards.isEmpty && view.tries.isEmpty)
        #expect(view.statusLine == "Waiting for the host to start the first round")
        #expect(view.canStartNext)
        #expect(game.privateView(for: "alice") == SleuthPrivateView(round: 0, tries: []))
    }
}
