import JSON
import Testing
import WordGamesTestSupport

/// The Snowman party features over real sockets against the real server: the waiting room, the host's own words.
@Suite struct SnowmanPartySocketTests {
    /// Ten made-up words: none can turn up in a message for another reason.
    static let words = ["zorblat", "quimbly", "fenwaxo", "glorpish", "snazzle", "wumpkin", "dribzat", "plonkus",
                        "vextrope", "jibberoo"]


    /// The texts of every message `client` got, lowercased.
    static func texts(_ client: GameClient) -> [String] {
        client.received.map { String(decoding: $0, as: UTF8.self).lowercased() }
    }

    @Test func theHostStartsAWaitingRoomWithTheirOwnWordsThatNobodyElseSees() async throws {
        try await withServer { server in
            let host = try GameClient.create(port: server.port, game: "snowman", name: "Ana",
                                             settings: ["waitForHost": true])
            let bob = try GameClient.join(port: server.port, code: try #require(host.code), name: "Bob")
            let cleo = try GameClient.join(port: server.port, code: try #require(host.code), name: "Cleo",
                                           spectator: true)
            for client in [host, bob] { try client.waitForSeq(cleo.seq) }
            #expect(bob.snowman["status"] == "waiting")
            #expect(bob.snowman["positions"] == [])
            #expect(bob.snowman["turn"] == .null)

            // Nobody can guess before the host starts the game.
            try bob.send(["type": "guess", "letter": "e"])
            let refused = try bob.waitForError()
            #expect(refused["code"] == "game-not-started")
            #expect(refused["move"] == "guess")

            // The most a list holds, 500 words of ten letters, fits in one message.
            let full = (0..<500).map(tenLetterWord).joined(separator: "\n")
            try host.send(["type": "settings", "settings": ["customWords": JSONValue(full)]])
            try host.receive { $0["type"] == "patch" || $0["type"] == "error" }
            #expect(host.errors.isEmpty, "\(host.errors)")
            #expect(host.snowman["nextSettings"]?["customWords"] == 500)

            // A bad list is refused, naming the line.
            try host.send(["type": "settings", "settings": ["customWords": "zorblat\nab\n"]])
            let bad = try host.waitForError()
            #expect(bad["code"] == "bad-words")
            #expect(bad["message"]?.stringValue?.contains(#"line 2: "ab" has 2 letters"#) == true)

            try host.send(["type": "settings", "settings": ["customWords": JSONValue(Self.words.joined(separator: "\n")),
                                                            "wordSource": "custom"]])
            try host.receive { $0["type"] == "patch" }
            let next = host.snowman["nextSettings"]
            #expect(next?["customWords"] == 10)
            #expect(next?["wordSource"] == "custom")

            try host.send(["type": "new_game"])
            for client in [host, bob, cleo] {
                try client.receive { _ in client.snowman["status"] == "inProgress" }
            }
            #expect(host.snowman["gameNumber"] == 1)
            #expect(host.snowman["settings"]?["wordSource"] == "custom")
            try GameSocketTests.playSnowman([host, bob])
            try cleo.waitForSeq(host.seq)
            let word = try #require(cleo.snowman["word"]?.stringValue)
            #expect(Self.words.map { $0.uppercased() }.contains(word), "\(word) is one of the host's words")
            try GameSocketTests.expectSecretKept([host, bob, cleo])
            try GameSocketTests.expectConsistent([host, bob, cleo])

            // The list itself never reached another member: no other of its words is in anything they got.
            for client in [bob, cleo] {
                let texts = Self.texts(client)
                #expect(texts.count > 10)
                for other in Self.words where other.uppercased() != word {
                    #expect(!texts.contains { $0.contains(other) }, "\(other) was sent to \(client.you ?? "?")")
                }
                #expect(!texts.contains { $0.contains(tenLetterWord(499)) })
            }
        }
    }
}
