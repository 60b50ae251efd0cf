import JSON
import Rooms
import Testing

/// Issue 43 over real sockets: the heartbeat a page keeps with its pings (closed with 4002 once silent, bots that
/// never ping left alone), and a second connection of the same browser told its seat is in use until it takes it
/// over.
@Suite struct SeatsSocketTests {
    static let bobBrowser = "bob-browser-00000000001"

    /// Reads until the server closes; returns the close code.
    private static func closeCode(of client: GameClient) throws -> UInt16? {
        while true {
            let frame = try client.socket.readFrame()
            if frame.opcode == 0x9 { try client.socket.sendFrame(.pong, frame.payload) }
            if frame.opcode == 0x8 { return frame.closeCode }
        }
    }

    @Test func aSeatedPageThatStopsPingingIsClosedWith4002AndABotIsNot() async throws {
        var rooms = RoomConfiguration()
        rooms.silenceSeconds = 1
        try await withServer(rooms: rooms) { server in
            let bot = try GameClient.create(port: server.port, game: "snowman", name: "Bot")
            let code = try #require(bot.code)
            // The page pings as soon as its socket opens, before its join is answered.
            let page = try GameClient(port: server.port)
            try page.send(["type": "ping", "id": 1])
            try page.send(["type": "join", "code": JSONValue(code), "name": "Bob"])
            try page.receive { $0["type"]?.stringValue == "welcome" }
            #expect(try Self.closeCode(of: page) == 4002)
            // The bot, which never pinged, is still served and sees Bob away.
            try bot.receive {
                _ in bot.state["members"]?.arrayValue?.last?["connected"]?.boolValue == false
            }
            try bot.send(["type": "chat", "text": "still here"])
            try bot.receive { _ in bot.state["chat"]?.arrayValue?.last?["text"]?.stringValue == "still here" }
        }
    }

    @Test func aSecondConnectionOfTheBrowserHearsSeatInUseThenTakesTheSeatOver() async throws {
        try await withServer { server in
            let host = try GameClient.create(port: server.port, game: "snowman", name: "Ana")
            let code = JSONValue(try #require(host.code))
            let first = try GameClient(port: server.port)
            try first.send(["type": "join", "code": code, "name": "Bob", "client": JSONValue(Self.bobBrowser)])
            try first.receive { $0["type"]?.stringValue == "welcome" }
            let seat = try #require(first.you)

            let second = try GameClient(port: server.port)
            try second.send(["type": "peek", "code": code, "client": JSONValue(Self.bobBrowser)])
            let peek = try second.receive { $0["type"]?.stringValue == "room" }
            #expect(peek["seated"]?.boolValue == true)
            try second.send(["type": "join", "code": code, "name": "Bob", "client": JSONValue(Self.bobBrowser)])
            #expect(try second.waitForError()["code"]?.stringValue == "seat-in-use")
            try second.send(["type": "join", "code": code, "name": "Bob", "client": JSONValue(Self.bobBrowser),
                             "takeover": true])
            try second.receive { $0["type"]?.stringValue == "welcome" }
            #expect(second.you == seat)
            #expect(try first.waitForError()["code"]?.stringValue == "replaced")
            #expect(try Self.closeCode(of: first) == 4000)
            try host.receive { _ in host.state["members"]?.arrayValue?.count == 2
                && host.state["members"]?.arrayValue?.last?["connected"]?.boolValue == true }
        }
    }
}
