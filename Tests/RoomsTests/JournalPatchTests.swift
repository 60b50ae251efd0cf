import Foundation
import JSON
import Testing
@testable import Rooms

/// The journal's patch records: written framed in one go on the room's thread, read back exactly, and chained
/// after a room's record only as far as they describe one history.
@Suite struct JournalPatchTests {
    private static let message = Array(#"{"type":"patch","seq":12,"ops":[{"op":"replace","path":"/a","value":"x}"}]}"#.utf8)

    private static func patch(_ seq: Int, version: Int, _ text: String = "p") -> JournalPatch {
        JournalPatch(code: "QHTW", version: version, seq: seq, message: Array(#"{"seq":\#(seq),"t":"\#(text)"}"#.utf8))
    }

    @Test func aFramedPatchIsARecordOfTheJournalAndReadsBackExactly() throws {
        var buffer = RecordFile.header
        JournalPatch.appendFramed(code: "QHTW", version: 41, seq: 12, message: Self.message, to: &buffer)
        JournalPatch.appendFramed(code: "AB12", version: 0, seq: 1_234_567, message: Array("{}".utf8), to: &buffer)
        let contents = RecordFile.parse(buffer, name: "rooms.journal")
        #expect(contents.problem == nil)
        #expect(contents.records.count == 2)
        let first = try #require(JournalPatch(payload: contents.records[0]))
        #expect(first == JournalPatch(code: "QHTW", version: 41, seq: 12, message: Self.message))
        #expect(first.payload == contents.records[0])
        #expect(String(decoding: first.payload, as: UTF8.self).hasPrefix(#"{"format":3,"patch":"QHTW","version":41,"seq":12,"message":{"#))
        let second = try #require(JournalPatch(payload: contents.records[1]))
        #expect(second.code == "AB12" && second.version == 0 && second.seq == 1_234_567 && second.message == Array("{}".utf8))
    }

    /// A room's record is not a patch, nor is a damaged patch; the loader then reads them as records (or skips).
    @Test(arguments: [
        #"{"format":3,"code":"QHTW","version":4,"room":null}"#,
        #"{"format":3,"patch":"QHTW","version":4,"seq":5,"message":{}"#,
        #"{"format":3,"patch":"QH\"W","version":4,"seq":5,"message":{}}"#,
        #"{"format":3,"patch":"QHTW","version":-4,"seq":5,"message":{}}"#,
        #"{"format":3,"patch":"QHTW","version":4,"seq":5,"message":[]}"#,
        #"{"format":3,"patch":"","version":4,"seq":5,"message":{}}"#,
    ])
    func otherPayloadsAreNotPatches(_ text: String) {
        #expect(JournalPatch(payload: Array(text.utf8)) == nil)
    }

    @Test func theRunFollowsTheRecordWithoutAGap() {
        let patches = [Self.patch(13, version: 7), Self.patch(11, version: 7), Self.patch(12, version: 7),
                       Self.patch(10, version: 6), Self.patch(15, version: 7)]
        #expect(JournalPatch.run(after: 10, version: 7, in: patches) == [11, 12, 13].map { Self.patch($0, version: 7).message })
        #expect(JournalPatch.run(after: 13, version: 7, in: patches).isEmpty, "14 is missing")
        #expect(JournalPatch.run(after: 9, version: 7, in: patches).isEmpty, "10 is of an older record")
    }

    /// After a crash and a restart, the new process writes patches with the seqs that followed its restore,
    /// under a higher version: those count, and an old patch after them does not.
    @Test func aLaterProcessesPatchesOutrankTheOldOnes() {
        let patches = [Self.patch(11, version: 7, "old"), Self.patch(12, version: 7, "old"),
                       Self.patch(13, version: 7, "old"),
                       Self.patch(12, version: 9, "new"), Self.patch(14, version: 7, "old")]
        #expect(JournalPatch.run(after: 10, version: 7, in: patches)
                == [Self.patch(11, version: 7, "old").message, Self.patch(12, version: 9, "new").message])
    }

    /// The patches before a record: back from its seq without a gap, below its version, newest process first.
    @Test func theLeadEndsAtTheRecordAndGoesBackWithoutAGap() {
        let patches = [Self.patch(10, version: 6), Self.patch(9, version: 6, "old"), Self.patch(9, version: 5, "older"),
                       Self.patch(8, version: 5), Self.patch(6, version: 5), Self.patch(11, version: 7),
                       Self.patch(10, version: 7, "not before the record")]
        #expect(JournalPatch.lead(upTo: 10, version: 7, in: patches, limit: 32)
                == [Self.patch(8, version: 5).message, Self.patch(9, version: 6, "old").message,
                    Self.patch(10, version: 6).message])
        #expect(JournalPatch.lead(upTo: 10, version: 7, in: patches, limit: 2).count == 2)
        #expect(JournalPatch.lead(upTo: 12, version: 7, in: patches, limit: 32).isEmpty)
        // Going back, a later process's patch never comes before an older one's.
        let mixed = [Self.patch(10, version: 5), Self.patch(9, version: 6)]
        #expect(JournalPatch.lead(upTo: 10, version: 7, in: mixed, limit: 32) == [Self.patch(10, version: 5).message])
    }
}
