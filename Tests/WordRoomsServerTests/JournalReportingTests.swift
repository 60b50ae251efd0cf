@testable import Rooms
import Testing
import Transport
@testable import WordRoomsServer

/// What the server says about saving: the stop line, and `/metrics` while saving fails.
@Suite struct JournalReportingTests {
    @Test func theStopLineSaysWhatWasNotSavedAndWhy() {
        let all = RoomJournal.SaveOutcome(unsaved: 0, cause: nil)
        #expect(WordRoomsServer.savedClause(rooms: 30, outcome: all, seconds: "0.12 s") == "saved 30 rooms in 0.12 s")
        let full = RoomJournal.SaveOutcome(unsaved: 29, cause: "No space left on device (ENOSPC)")
        #expect(WordRoomsServer.savedClause(rooms: 30, outcome: full, seconds: "1.03 s")
                == "saved 1 of 30 rooms in 1.03 s; 29 not saved (No space left on device (ENOSPC))")
    }

    @Test func metricsCountTheFailuresAndSayWhetherSavingFails() {
        let health = RoomJournal.Health(failure: "No space left on device (ENOSPC) for 3 s; 2 rooms not saved",
                                        writeFailures: 312, unsavedRooms: 2)
        let text = MetricsReport.render(transport: TransportCounters(), rooms: [:], roomsCreated: 0,
                                        fanout: LatencyHistogram().snapshot, process: .current(), journal: health)
        #expect(text.contains("# TYPE wordrooms_journal_write_failures_total counter\nwordrooms_journal_write_failures_total 312\n"))
        #expect(text.contains("\nwordrooms_journal_failing 1\n"))
        #expect(text.contains("\nwordrooms_journal_unsaved_rooms 2\n"))
        let without = MetricsReport.render(transport: TransportCounters(), rooms: [:], roomsCreated: 0,
                                           fanout: LatencyHistogram().snapshot, process: .current())
        #expect(!without.contains("wordrooms_journal"), "no --data, no journal metrics")
    }
}
