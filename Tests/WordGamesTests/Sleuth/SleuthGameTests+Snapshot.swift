import Foundation
import Testing
@testable import WordGames

/// The data directory's form of a Sleuth game: the secret and every try's letters survive a restart.
@Suite struct SleuthSnapshotTests {
    @Test func aSnapshotBringsBackTheRoundExactly() throws {
        var game = try SleuthFixtures.playedRound()
        let data = try JSONEncoder().encode(game.snapshot)
        let saved = try JSONDecoder().decode(SleuthGame.Snapshot.self, from: data)
        #expect(saved == game.snapshot)
        var restored = try SleuthGame(snapshot: saved, lexicon: SleuthFixtures.lexicon, secrets: ["crane"])
        #expect(restored.publicView == game.publicView)
        #expect(restored.privateView(for: "alice") == game.privateView(for: "alice"))
        #expect(restored.secret == "crane")
        // And plays on alike.
        try game.guess("crane", by: "bob", now: 10)
        try restored.guess("crane", by: "bob", now: 10)
        #expect(restored.snapshot == game.snapshot)
    }

    @Test func anInconsistentSnapshotIsRefused() throws {
        var saved = try SleuthFixtures.playedRound().snapshot
        saved.secret = nil
        #expect(throws: SnapshotError.self) {
            try SleuthGame(snapshot: saved, lexicon: SleuthFixtures.lexicon)
        }
        saved.secret = "crane"
        saved.roundEndsAt = nil
        #expect(throws: SnapshotError.self) {
            try SleuthGame(snapshot: saved, lexicon: SleuthFixtures.lexicon)
        }
    }
}
