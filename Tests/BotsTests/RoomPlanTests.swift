import Testing
import WordGames
@testable import Bots

/// Delivery timing: every member's reading of the patch that shows a timed move becomes one sample, whether it
/// came before or after the mover recognized its move.
@Suite struct RoomPlanTests {
    private func plan() -> RoomPlan { RoomPlan(index: 0, game: SnowmanBot.self, plannedPlayers: 2) }

    @Test func readingsBeforeAndAfterTheMoverCount() {
        let room = plan()
        var delivery = LogLinearHistogram()
        room.patchRead(seq: 5, at: 3_000_000, delivery: &delivery)   // a spectator, before the mover
        room.patchRead(seq: 5, at: 4_000_000, delivery: &delivery)   // the mover
        #expect(delivery.count == 0, "nothing is timed before the mover says which move the patch shows")
        room.moveShown(seq: 5, sentAt: 1_000_000, delivery: &delivery)
        #expect(delivery.count == 2)
        room.patchRead(seq: 5, at: 6_000_000, delivery: &delivery)   // a late spectator
        #expect(delivery.count == 3)
        #expect(delivery.min == 2_000 && delivery.max == 5_000, "microseconds from the send")
    }

    @Test func patchesThatShowNoTimedMoveAreNotTimed() {
        let room = plan()
        var delivery = LogLinearHistogram()
        room.patchRead(seq: 1, at: 1_000_000, delivery: &delivery)   // a join
        room.patchRead(seq: 2, at: 2_000_000, delivery: &delivery)
        room.moveShown(seq: 2, sentAt: 1_500_000, delivery: &delivery)
        #expect(delivery.count == 1)
        #expect(delivery.max == 500)
    }

    @Test func oldReadingsAreForgotten() {
        let room = plan()
        var delivery = LogLinearHistogram()
        for seq in 1...2_000 {
            room.patchRead(seq: seq, at: UInt64(seq) * 1_000_000, delivery: &delivery)
        }
        // Seq 1 fell out of the window: a mover recognizing it now times only readings to come.
        room.moveShown(seq: 1, sentAt: 0, delivery: &delivery)
        #expect(delivery.count == 0)
        room.moveShown(seq: 2_000, sentAt: 1_999_000_000, delivery: &delivery)
        #expect(delivery.count == 1)
    }
}
