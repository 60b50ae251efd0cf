import Testing
@testable import Rooms

/// A failure that repeats is logged once, then as a count at most every window.
@Suite struct LogCoalescerTests {
    let line = "journal: write failed: No space left on device (ENOSPC)"

    @Test func theFirstOccurrenceIsLoggedAndRepeatsAreCounted() {
        var lines = LogCoalescer()
        #expect(lines.note(line, now: 100) == line)
        for step in 1...311 {
            #expect(lines.note(line, now: 100 + Double(step) * 0.01) == nil)
        }
        #expect(lines.due(now: 105).isEmpty, "not before the window ends")
        #expect(lines.due(now: 110) == ["\(line) ×311 in the last 10 s"])
        #expect(lines.due(now: 121).isEmpty, "nothing new to count")
        // Quiet for a window: the next occurrence is logged at once again.
        #expect(lines.note(line, now: 130) == line)
    }

    @Test func aRepeatAfterTheWindowLogsTheCount() {
        var lines = LogCoalescer()
        _ = lines.note(line, now: 0)
        _ = lines.note(line, now: 1)
        #expect(lines.note(line, now: 10.5) == "\(line) ×2 in the last 10 s")
    }

    @Test func causesAreCountedApart() {
        var lines = LogCoalescer()
        let other = "journal: fsync failed: Input/output error (EIO)"
        #expect(lines.note(line, now: 0) == line)
        #expect(lines.note(other, now: 0.5) == other)
        _ = lines.note(line, now: 1)
        #expect(lines.drain(now: 2.5) == ["\(line) ×1 in the last 2.5 s"])
        #expect(lines.note(other, now: 3) == other, "drained causes start over")
    }
}
