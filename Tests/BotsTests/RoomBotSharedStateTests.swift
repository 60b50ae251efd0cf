@testable import JSON
import Testing
@testable import Bots

/// A welcome's or snapshot's state parsed once for the room's bots: the message each bot gets must be what
/// parsing it whole gives, whatever the bytes.
@Suite struct RoomBotSharedStateTests {
    private func message(_ text: String, room: RoomPlan) -> JSONValue? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { RoomBot.withSharedState(UnsafeRawBufferPointer($0), room: room) }
    }

    private static let state = #"{"members":[{"id":"p1","name":"Ana \"A\", \u00e9"}],"chat":[],"snowman":{"status":"inProgress","state":"x"}}"#

    @Test(arguments: [
        #"{"type":"welcome","code":"ABCD","you":"p1","token":"t.1","seq":12,"serverTime":1.5,"state":\#(state)}"#,
        #"{"type":"snapshot","seq":40,"state":\#(state)}"#,
        #"{"type":"welcome","code":"ABCD","you":"p2","token":"t.2","seq":12,"serverTime":1.5,"state":{}}"#,
    ])
    func theMessageIsWhatParsingItWholeGives(text: String) throws {
        let room = RoomPlan(index: 0, game: .snowman, plannedPlayers: 2)
        let shared = try #require(message(text, room: room))
        #expect(shared == (try JSONParser().parse(text)))
    }

    @Test func roomMatesWithTheSameStateShareOneParse() throws {
        let room = RoomPlan(index: 0, game: .snowman, plannedPlayers: 2)
        let first = try #require(message(#"{"type":"welcome","you":"p1","seq":3,"state":\#(Self.state)}"#, room: room))
        let second = try #require(message(#"{"type":"welcome","you":"p2","seq":3,"state":\#(Self.state)}"#, room: room))
        #expect(first["you"]?.stringValue == "p1" && second["you"]?.stringValue == "p2")
        let a = try #require(first["state"]?.objectValue), b = try #require(second["state"]?.objectValue)
        #expect(a.isIdentical(to: b), "the second bot reuses the first's parse")

        let other = try #require(message(#"{"type":"snapshot","seq":4,"state":{"members":[]}}"#, room: room))
        #expect(other["state"] == (try JSONParser().parse(#"{"members":[]}"#)), "other bytes are parsed anew")
        #expect(!(try #require(other["state"]?.objectValue)).isIdentical(to: a))
    }

    @Test(arguments: [
        #"{"type":"patch","seq":4,"ops":[{"op":"add","path":"/state","value":1}]}"#,   // not a welcome
        #"{"type":"welcome","state":{"a":1},"seq":3}"#,                                    // state not last
        #"{"type":"welcome","seq":3}"#,                                                    // no state
        #"{"type":"welcome","seq":3,"state":"#,                                            // cut short
        #"{"type":"welcome","seq":3,"state":{"a":}"#,                                      // a broken state
    ])
    func otherMessagesAreLeftToTheWholeParse(text: String) {
        let room = RoomPlan(index: 0, game: .snowman, plannedPlayers: 2)
        #expect(message(text, room: room) == nil)
    }

    @Test func aStateFarBehindTheMarkerLimitIsParsedWhole() throws {
        // The marker is only looked for in the first 256 bytes: a long head leaves the message to the whole parse.
        let long = String(repeating: "x", count: 300)
        let text = #"{"type":"welcome","token":"\#(long)","state":{"a":1}}"#
        let room = RoomPlan(index: 0, game: .snowman, plannedPlayers: 2)
        #expect(message(text, room: room) == nil)
    }
}
