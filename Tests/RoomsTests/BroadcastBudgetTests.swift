import Testing
@testable import Rooms

/// The room's budget of broadcast bytes for what its members say.
@Suite struct BroadcastBudgetTests {
    @Test func spendsABurstOfTwoSecondsThenRefillsAtTheRate() {
        var budget = BroadcastBudget()
        var spent: Bool
        spent = budget.spend(1_500, perSecond: 1_000, now: 10)
        #expect(spent)
        spent = budget.spend(600, perSecond: 1_000, now: 10)
        #expect(!spent, "500 left of the 2,000 burst")
        spent = budget.spend(500, perSecond: 1_000, now: 10)
        #expect(spent)
        spent = budget.spend(1, perSecond: 1_000, now: 10)
        #expect(!spent)
        spent = budget.spend(1_000, perSecond: 1_000, now: 11)
        #expect(spent)
        spent = budget.spend(2_000, perSecond: 1_000, now: 100)
        #expect(spent, "never more than the burst")
        spent = budget.spend(1, perSecond: 1_000, now: 100)
        #expect(!spent)
    }
}
