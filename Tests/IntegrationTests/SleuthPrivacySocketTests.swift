import Foundation
import JSON
import Rooms
import Testing
@testable import WordRoomsServer

/// Sleuth's privacy over real sockets: while a round runs, a player's letters travel to that player alone (their
/// `private` messages), never to another player (here on a permessage-deflate connection, whose compressed
/// patches are inflated and read too) nor to a spectator, and the secret travels to nobody; once the round is
/// over, both are public. A resume and a server restart bring the player's private view back whole.
@Suite struct SleuthPrivacySocketTests {
    /// Ana's tries and Bob's: dictionary words that are never secrets, and that no protocol name contains.
    private static let anaWords = ["fjord", "glyph"]
    private static let bobWord = "nymph"

    /// Each text message in `payloads`, parsed.
    private static func messages(_ payloads: [[UInt8]]) throws -> [JSONValue] {
        try payloads.map { try JSONParser().parse($0) }
    }

    /// The private view `payloads` (a player's messages, from a `welcome`) build: the welcome's, then each
    /// `private` message's operations and each snapshot's whole view in turn.
    private static func privateView(from payloads: [[UInt8]]) throws -> JSONValue? {
        var view: JSONValue?
        for message in try messages(payloads) {
            switch message["type"]?.stringValue {
            case "welcome", "snapshot": view = message["private"]
            case "private":
                var current = view ?? .null
                try JSONPatch(json: message["ops"]!).apply(to: &current)
                view = current
            default: break
            }
        }
        return view
    }

    /// `(word, pattern)` of each try in a private view.
    private static func ownTries(_ view: JSONValue?) -> [[String]] {
        (view?["tries"]?.arrayValue ?? []).map { [$0["word"]?.stringValue ?? "", $0["pattern"]?.stringValue ?? ""] }
    }

    /// `text` without what may hold a five-letter protocol word: member names (keys), message and operation types,
    /// operation paths, and the status line of a running round. What is left holds game data only.
    private static func dataOnly(_ text: String) -> String {
        var text = text.replacingOccurrences(of: #""[A-Za-z]+":"#, with: ":", options: .regularExpression)
        text = text.replacingOccurrences(of: #":"/[^"]*""#, with: ":", options: .regularExpression)
        text = text.replacingOccurrences(of: #":"(patch|private|snapshot|welcome|add|replace|remove|sleuth|player|playing|spectator|lobby)""#,
                                         with: ":", options: .regularExpression)
        return text.replacingOccurrences(of: #"Round \d+: find the 5-letter word in 6 tries"#, with: "",
                                         options: .regularExpression)
    }

    /// None of `payloads` holds any of `words`, in any case.
    private static func expectNone(of words: [String], in payloads: ArraySlice<[UInt8]>, _ who: String,
                                   sourceLocation: SourceLocation = #_sourceLocation) {
        for payload in payloads {
            let text = dataOnly(String(decoding: payload, as: UTF8.self)).lowercased()
            for word in words {
                #expect(!text.contains(word), "\(who) received \(word) while the round ran: \(text.prefix(300))",
                        sourceLocation: sourceLocation)
            }
        }
    }

    /// The public tries of `state` as `(player, word or "", pattern)`.
    private static func publicTries(_ state: JSONValue) -> [[String]] {
        (state["sleuth"]?["tries"]?.arrayValue ?? []).map {
            [$0["player"]?.stringValue ?? "", $0["word"]?.stringValue ?? "", $0["pattern"]?.stringValue ?? ""]
        }
    }

    @Test func aPlayersLettersAndTheSecretStayOffOtherWiresUntilTheRoundEndsAcrossAResumeAndARestart() async throws {
        let data = RestartTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let clock = TestClock(start: 1_800_000_000)
        var options = loopbackServerOptions()
        options.dataDirectory = data
        let first = try WordRoomsServer(options: options, clock: { clock.now })
        // Before the restart: Ana (plain), Bob (permessage-deflate, following the room's compressed stream) and the
        // spectator Cleo (plain). Their messages are checked once the secret is known, at the end.
        let before = try await onThread { () -> Unchecked<(GameClient, DeflateRoomClient, GameClient)> in
            let ana = try GameClient.create(port: first.port, game: "sleuth", name: "Ana", settings: ["roundSeconds": 60])
            let code = try #require(ana.code)
            let bob = try DeflateRoomClient(label: "bob", port: first.port, mode: .deflate(inflaterBits: 15, deflaterBits: 15))
            #expect(try bob.join(["type": "join", "code": JSONValue(code), "name": "Bob"]) == nil)
            let cleo = try GameClient.join(port: first.port, code: code, name: "Cleo", spectator: true)
            try ana.send(["type": "new_game"])
            for client in [ana, cleo] {
                try client.receive { _ in client.state["sleuth"]?["phase"]?.stringValue == "playing" }
            }
            try bob.wait(for: "the round") { bob.state["sleuth"]?["phase"]?.stringValue == "playing" }

            for word in Self.anaWords {
                try ana.send(["type": "try", "word": JSONValue(word.uppercased())])
                // The patch (the pattern, for everyone) comes first, then Ana's own operations.
                try ana.receive { $0["type"]?.stringValue == "private" }
            }
            try bob.send(["type": "try", "word": JSONValue(Self.bobWord)], compressed: true)
            try ana.receive { _ in Self.publicTries(ana.state).count == 3 }
            try bob.wait(for: "three tries") { Self.publicTries(bob.state).count == 3 }
            try cleo.receive { _ in Self.publicTries(cleo.state).count == 3 }
            #expect(bob.compressedMessages > 0, "Bob's patches came compressed, and were read inflated")

            // Ana's own messages carry her letters and patterns, the same patterns everyone sees, and no letter of
            // Bob's; the public tries carry no word.
            let anaView = try Self.privateView(from: ana.received)
            let patterns = Self.publicTries(cleo.state).filter { $0[0] == ana.you }.map { $0[2] }
            #expect(Self.ownTries(anaView) == zip(Self.anaWords, patterns).map { [$0, $1] })
            #expect(patterns.count == 2 && patterns.allSatisfy { $0.count == 5 })
            #expect(Self.publicTries(cleo.state).allSatisfy { $0[1].isEmpty })
            #expect(cleo.state["sleuth"]?["secret"] == .null)
            Self.expectNone(of: [Self.bobWord], in: ana.received[...], "Ana")
            #expect(try Self.privateView(from: bob.texts).map(Self.ownTries) == [[Self.bobWord, Self.publicTries(cleo.state)[2][2]]])
            #expect(try Self.messages(cleo.received).allSatisfy { $0["private"] == nil && $0["type"]?.stringValue != "private" },
                    "a spectator gets no private view")

            // Ana's socket drops; her resume (token and seq) brings her whole private view back.
            ana.socket.abort()
            let resumed = try RestartTests.resume(ana, port: first.port)
            #expect(resumed.received.count == 1 && resumed.you == "p1")
            #expect(try Self.ownTries(Self.privateView(from: resumed.received)) == Self.ownTries(anaView))
            first.shutdown()
            return Unchecked(value: (resumed, bob, cleo))
        }

        // A graceful restart from the data directory: the round and Ana's private view are back.
        let second = try WordRoomsServer(options: options, clock: { clock.now })
        try await onThread {
            defer { second.shutdown() }
            let (ana, bob, cleo) = before.value
            let code = try #require(ana.code)
            let anaBack = try RestartTests.resume(ana, port: second.port)
            #expect(anaBack.you == "p1")
            #expect(try Self.ownTries(Self.privateView(from: anaBack.received)) == Self.ownTries(Self.privateView(from: ana.received)))
            let cleoBack = try RestartTests.resume(cleo, port: second.port)
            let bobBack = try DeflateRoomClient(label: "bob again", port: second.port, mode: .deflate(inflaterBits: 15, deflaterBits: 15))
            #expect(try bobBack.join(["type": "join", "code": JSONValue(code), "name": "Bob", "spectator": true]) == nil,
                    "a new spectator on a compressed connection")
            for client in [anaBack, cleoBack] { try client.waitForSeq(client.seq) }
            #expect(Self.publicTries(bobBack.state).count == 3 && bobBack.state["sleuth"]?["phase"]?.stringValue == "playing")
            #expect(Self.publicTries(cleoBack.state).count == 3)
            // Everything the others received while the round ran, before the restart and after it.
            let running = (bob: bob.texts.count, bobBack: bobBack.texts.count, cleo: cleo.received.count,
                           cleoBack: cleoBack.received.count)

            // The round times out: everyone sees the secret and every try's word.
            clock.advance(61)
            waitFor { for room in await second.registry.allRooms() { room.tick() } }
            for client in [anaBack, cleoBack] {
                try client.receive { _ in client.state["sleuth"]?["phase"]?.stringValue == "over" }
            }
            try bobBack.wait(for: "the round's end") { bobBack.state["sleuth"]?["phase"]?.stringValue == "over" }
            let secret = try #require(cleoBack.state["sleuth"]?["secret"]?.stringValue)
            #expect(secret.count == 5 && secret == secret.uppercased())
            for state in [anaBack.state, cleoBack.state, bobBack.state] {
                #expect(state["sleuth"]?["secret"]?.stringValue == secret)
                #expect(Self.publicTries(state).map { $0[1] } == Self.anaWords + [Self.bobWord])
            }

            let hidden = Self.anaWords + [secret.lowercased()]
            Self.expectNone(of: hidden, in: bob.texts.prefix(running.bob), "Bob")
            Self.expectNone(of: hidden, in: bobBack.texts.prefix(running.bobBack), "Bob, back as a spectator")
            Self.expectNone(of: hidden, in: cleo.received.prefix(running.cleo), "Cleo")
            Self.expectNone(of: hidden, in: cleoBack.received.prefix(running.cleoBack), "Cleo, back")
            Self.expectNone(of: [secret.lowercased()], in: ana.received[...], "Ana")
        }
    }
}
