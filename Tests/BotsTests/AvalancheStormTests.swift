import Testing
@testable import Bots

@Suite struct AvalancheStormTests {
    private let second: UInt64 = 1_000_000_000

    private func progress(seated: Int = 8, lost: Int = 0, away: Int = 0, refused: Int = 0,
                          firstLossAt: UInt64? = nil) -> AvalancheCrew.Progress {
        var progress = AvalancheCrew.Progress()
        progress.bots = 8
        progress.seated = seated
        progress.lost = lost
        progress.away = away
        progress.refused = refused
        progress.firstLossAt = firstLossAt
        return progress
    }

    @Test func clientsDropAtTheChosenMomentAndTheStormEndsWhenAllAreBack() {
        var storm = AvalancheStorm(mode: .clients, dropAt: 5 * second, giveUpNanoseconds: 10 * second)
        #expect(storm.next(progress(), now: 4 * second) == .wait)
        #expect(storm.next(progress(), now: 5 * second) == .drop)
        #expect(storm.next(progress(lost: 8, away: 8, firstLossAt: 5 * second), now: 5 * second + 1) == .stormBegan)
        #expect(storm.next(progress(lost: 8, away: 3, firstLossAt: 5 * second), now: 6 * second) == .wait)
        #expect(storm.next(progress(lost: 8, away: 0, firstLossAt: 5 * second), now: 7 * second) == .allBack)
    }

    @Test func theDropWaitsForBotsStillEnteringTheirRoomsUpToTheDeadline() {
        var entering = progress(seated: 5)
        entering.entering = 3
        var storm = AvalancheStorm(mode: .clients, dropAt: 5 * second, giveUpNanoseconds: 10 * second)
        #expect(storm.next(entering, now: 6 * second) == .wait)
        #expect(storm.next(progress(), now: 7 * second) == .drop)
        var late = AvalancheStorm(mode: .server, dropAt: 5 * second, giveUpNanoseconds: 10 * second)
        #expect(late.next(entering, now: 14 * second) == .wait)
        #expect(late.next(entering, now: 15 * second) == .awaitServer)
    }

    @Test func serverModeWaitsForEveryConnectionToGoNotOnlyTheFirst() {
        var storm = AvalancheStorm(mode: .server, dropAt: 2 * second, giveUpNanoseconds: 30 * second)
        #expect(storm.next(progress(), now: 2 * second) == .awaitServer)
        #expect(storm.next(progress(), now: 9 * second) == .wait)
        #expect(storm.next(progress(lost: 1, away: 1, firstLossAt: 9 * second), now: 9 * second) == .stormBegan)
        // One bot lost and back already, seven connections not yet closed by the server: not over.
        #expect(storm.next(progress(lost: 1, away: 0, firstLossAt: 9 * second), now: 10 * second) == .wait)
        #expect(storm.next(progress(lost: 8, away: 0, firstLossAt: 9 * second), now: 11 * second) == .allBack)
    }

    @Test func botsStillAwayAtTheDeadlineEndTheStorm() {
        var storm = AvalancheStorm(mode: .clients, dropAt: 0, giveUpNanoseconds: 10 * second)
        _ = storm.next(progress(), now: 0)
        _ = storm.next(progress(lost: 8, away: 8, firstLossAt: 0), now: 1)
        #expect(storm.next(progress(lost: 8, away: 2, firstLossAt: 0), now: 9 * second) == .wait)
        guard case .gaveUp = storm.next(progress(lost: 8, away: 2, firstLossAt: 0), now: 10 * second) else {
            Issue.record("expected the storm to give up")
            return
        }
    }

    @Test func refusedBotsDoNotKeepTheStormGoing() {
        var storm = AvalancheStorm(mode: .clients, dropAt: 0, giveUpNanoseconds: 10 * second)
        _ = storm.next(progress(), now: 0)
        _ = storm.next(progress(lost: 8, away: 8, firstLossAt: 0), now: 1)
        #expect(storm.next(progress(lost: 8, away: 1, refused: 1, firstLossAt: 0), now: second) == .allBack)
    }

    @Test func aServerThatNeverGoesAwayEndsTheRun() {
        var storm = AvalancheStorm(mode: .server, dropAt: 0, giveUpNanoseconds: 5 * second)
        _ = storm.next(progress(), now: 0)
        #expect(storm.next(progress(), now: 5 * second) == .gaveUp("the server never went away"))
    }
}
