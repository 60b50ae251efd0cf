import Dispatch
import JSON
@testable import Rooms
import RoomsTestSupport
import Testing
import WordGames
import WordRoomsServer

/// Private views over real sockets: a room of the test game `SecretHandsGame` (not in `GameCatalog`, so it is
/// opened on the server's registry directly) with two players and a spectator, who then talk to it only over
/// the wire. Each player's bytes hold their own hand and nobody else's; the spectator's hold none.
@Suite struct PrivateViewSocketTests {
    /// Opens an empty room of the test game on `server`'s registry; the first player to join hosts it.
    private static func openHandsRoom(on server: WordRoomsServer) -> String {
        let opened = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var code = ""
        server.registry.enqueue { registry in
            code = registry.open(PluginRoomGame(game: SecretHandsGame()), isPublic: true).code.rawValue
            opened.signal()
        }
        opened.wait()
        return code
    }

    private static func hand(_ id: String, _ name: String, deal: Int) -> JSONValue {
        try! JSONValueEncoder(writesNilMembers: true).encode(SecretHandsGame.hand(of: PlayerID(id), name: name,
                                                                                   deal: deal))
    }

    /// Nothing `client` received holds a hand but `own`'s.
    private static func expectNoOtherSecrets(_ client: GameClient, own: String?,
                                             sourceLocation: SourceLocation = #_sourceLocation) {
        for payload in client.received {
            let text = String(decoding: payload, as: UTF8.self)
            for id in ["p1", "p2", "s3"] where id != own {
                #expect(!text.contains("hand-\(id)-"), "\(text)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func eachPlayerGetsOnlyTheirOwnPrivateViewAndItsOperationsAfterThePatch() async throws {
        try await withServer { server in
            let code = Self.openHandsRoom(on: server)
            let ana = try GameClient.join(port: server.port, code: code, name: "Ana")
            let bob = try GameClient.join(port: server.port, code: code, name: "Bob")
            let cleo = try GameClient.join(port: server.port, code: code, name: "Cleo", spectator: true)
            var views: [String: JSONValue] = [:]
            for (client, id, name) in [(ana, "p1", "Ana"), (bob, "p2", "Bob")] {
                let welcome = try JSONParser().parse(try #require(client.received.first))
                #expect(welcome["private"] == Self.hand(id, name, deal: 0))
                views[id] = welcome["private"]
            }
            let cleoWelcome = try JSONParser().parse(try #require(cleo.received.first))
            #expect(cleoWelcome["type"]?.stringValue == "welcome" && cleoWelcome["private"] == nil)

            // A new deal: each player gets the patch, then their own operations, which give their new hand.
            try ana.send(["type": "new_game"])
            for (client, id, name) in [(ana, "p1", "Ana"), (bob, "p2", "Bob")] {
                let message = try client.receive {
                    $0["type"]?.stringValue == "private" || client.state["secret-hands"]?["deal"] == 1
                }
                #expect(message["type"]?.stringValue == "patch", "the patch of the change comes first")
                let operations = try client.receive { $0["type"]?.stringValue == "private" }
                #expect(operations["seq"] == nil)
                views[id] = try JSONPatch(json: operations["ops"]!).apply(to: views[id]!)
                #expect(views[id] == Self.hand(id, name, deal: 1))
            }
            try cleo.receive { _ in cleo.state["secret-hands"]?["deal"] == 1 }

            // Bob moves to the spectators: his view goes (`null` at the root); resync answers carry none then.
            try bob.send(["type": "seat", "role": "spectator"])
            let gone = try bob.receive { $0["type"]?.stringValue == "private" }
            #expect(gone["ops"] == [["op": "replace", "path": "", "value": .null]])
            try bob.send(["type": "resync"])
            #expect(try bob.receive { $0["type"]?.stringValue == "snapshot" }["private"] == nil)
            try ana.send(["type": "resync"])
            let anaSnapshot = try ana.receive { $0["type"]?.stringValue == "snapshot" }
            #expect(anaSnapshot["private"] == Self.hand("p1", "Ana", deal: 1))
            _ = try cleo.freshSnapshot()

            Self.expectNoOtherSecrets(ana, own: "p1")
            Self.expectNoOtherSecrets(bob, own: "p2")
            Self.expectNoOtherSecrets(cleo, own: nil)
        }
    }

    /// On a connection that follows the room's compressed stream, `private` messages come plain between the
    /// stream's patches, and every compressed patch still inflates (a plain message never enters the window).
    @Test func privateMessagesStayOutOfTheCompressedStream() async throws {
        try await withServer { server in
            let code = Self.openHandsRoom(on: server)
            let ana = try GameClient.join(port: server.port, code: code, name: "Ana")
            let bob = try DeflateRoomClient(label: "bob", port: server.port,
                                            mode: .deflate(inflaterBits: 11, deflaterBits: 15))
            #expect(try bob.join(["type": "join", "code": JSONValue(code), "name": "Bob"]) == nil)
            for deal in 1...4 {
                try ana.send(["type": "new_game"])
                try bob.wait(for: "deal \(deal)") { bob.state["secret-hands"]?["deal"] == JSONValue(deal) }
            }
            // The resync answer follows every private message sent before it: Bob has read them all then.
            let compared = try bob.compareWithSnapshot()
            #expect(compared.replica.state == compared.snapshot.state)
            #expect(bob.compressedMessages >= 3, "the stream carried the deals' patches")
            // Plain: the welcome, the snapshot, and one private message per deal.
            #expect(bob.plainMessages >= 2 + 4)
        }
    }
}
