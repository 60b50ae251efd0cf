import JSON
import Testing
@testable import Rooms
import RoomsTestSupport
import WordGamesTestSupport

@Suite struct ClientMessageTests {
    private func parse(_ text: String) throws(RoomError) -> ClientMessage {
        let bytes = Array(text.utf8)
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(RoomError) in try ClientMessage.parse(raw) }
        }
        return try result.get()
    }

    private func errorCode(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func socketTextParsesLikeAnyBytes() throws {
        // A name with 2- and 4-byte UTF-8, as a WebSocket session hands over a validated text message.
        let text = #"{"type":"create","game":"snowman","name":"Zo\#u{E9} \#u{1F600}"}"#
        let parsed = try Array(text.utf8).withUnsafeBytes { raw throws(RoomError) in try ClientMessage.parse(text: raw) }
        #expect(parsed == (try parse(text)))
        #expect(parsed == .create(game: .snowman, name: "Zo\u{E9} \u{1F600}", isPublic: true, settings: [:], client: nil))
    }

    @Test func socketTextStillRefusesWhatIsNotJSON() {
        let code = Array("{\"type\":".utf8).withUnsafeBytes { raw in
            Result { () throws(RoomError) in try ClientMessage.parse(text: raw) }
        }
        #expect(throws: RoomError.self) { try code.get() }
        #expect((try? code.get()) == nil)
        if case .failure(let error) = code { #expect(error.code == "bad-message") }
    }

    @Test func parsesEveryMessageType() throws {
        #expect(try parse(#"{"type":"create","game":"scramble","name":"Ana","public":false}"#)
            == .create(game: .scramble, name: "Ana", isPublic: false, settings: [:], client: nil))
        #expect(try parse(#"{"type":"join","code":"qhtw","name":"Bob"}"#)
            == .join(code: RoomCode("QHTW")!, name: "Bob", token: nil, lastSeq: nil, spectator: false, client: nil))
        let token = "0123456789abcdef0123456789abcdef"
        #expect(try parse(#"{"type":"join","code":"QHTW","token":"\#(token)","seq":9}"#)
            == .join(code: RoomCode("QHTW")!, name: nil, token: ResumeToken(token), lastSeq: 9, spectator: false, client: nil))
        #expect(try parse(#"{"type":"guess","letter":"e"}"#) == .guess("e"))
        #expect(try parse(#"{"type":"word","word":"toast"}"#) == .word("toast"))
        #expect(try parse(#"{"type":"new_game"}"#) == .newGame)
        #expect(try parse(#"{"type":"settings","settings":{"rounds":4}}"#) == .settings(["rounds": 4]))
        #expect(try parse(#"{"type":"kick","player":"p2"}"#) == .kick(player: "p2"))
        #expect(try parse(#"{"type":"host","player":"p2"}"#) == .makeHost(player: "p2"))
        #expect(try parse(#"{"type":"chat","text":"hi"}"#) == .chat("hi"))
        #expect(try parse(#"{"type":"resync"}"#) == .resync)
        #expect(try parse(#"{"type":"leave"}"#) == .leave)
        #expect(try parse(#"{"type":"lobby","subscribe":false}"#) == .lobby(subscribe: false, game: nil))
        #expect(try parse(#"{"type":"lobby","game":"scramble"}"#) == .lobby(subscribe: true, game: .scramble))
        #expect(throws: RoomError.self) { try parse(#"{"type":"lobby","game":"chess"}"#) }
        let client = "Zx8_k-2fQ1wE9rT4yU6iOp"
        #expect(try parse(#"{"type":"join","code":"QHTW","name":"Bob","client":"\#(client)"}"#)
            == .join(code: RoomCode("QHTW")!, name: "Bob", token: nil, lastSeq: nil, spectator: false,
                     client: ClientID(client)))
        #expect(try parse(#"{"type":"peek","code":"qhtw"}"#) == .peek(code: RoomCode("QHTW")!))
        // A private room's key rides along with join and peek; anything else in its place is refused.
        #expect(try parse(#"{"type":"peek","code":"qhtw","key":"abcDEF0123456-_x"}"#)
            == .peek(code: RoomCode("QHTW")!, key: RoomKey("abcDEF0123456-_x")))
        #expect(try parse(#"{"type":"join","code":"QHTW","name":"Bob","key":"abcDEF0123456-_x"}"#)
            == .join(code: RoomCode("QHTW")!, name: "Bob", token: nil, lastSeq: nil, spectator: false, client: nil,
                     key: RoomKey("abcDEF0123456-_x")))
        #expect(throws: RoomError.self) { try parse(#"{"type":"peek","code":"QHTW","key":"short"}"#) }
        #expect(try parse(#"{"type":"ping","id":41}"#) == .ping(id: 41))
        #expect(try parse(#"{"type":"ping"}"#) == .ping(id: nil))
        #expect(try parse(#"{"type":"lock","locked":true}"#) == .lock(true))
        #expect(try parse(#"{"type":"unban","ban":"b2"}"#) == .unban(ban: "b2"))
        #expect(try parse(#"{"type":"skip"}"#) == .skip)
        #expect(try parse(#"{"type":"react","emoji":"🎉"}"#) == .react(emoji: "🎉"))
        #expect(try parse(#"{"type":"rename","name":"Bobby"}"#) == .rename(name: "Bobby"))
        #expect(try parse(#"{"type":"seat","role":"player"}"#) == .seat(role: .player, player: nil))
        #expect(try parse(#"{"type":"seat","role":"spectator","player":"p3"}"#) == .seat(role: .spectator, player: "p3"))
        #expect(try parse(#"{"type":"ready"}"#) == .ready)
        #expect(try parse(#"{"type":"ready","word":"ignored"}"#) == .move(GameMove(type: "ready", fields: ["word": "ignored"])))
    }

    @Test(arguments: [
        (#"{"type":"react"}"#, "bad-message"),
        (#"{"type":"react","emoji":7}"#, "bad-message"),
        (#"{"type":"react","emoji":"🎉🎉🎉🎉🎉🎉🎉🎉🎉"}"#, "too-long"),
        (#"{"type":"rename"}"#, "bad-message"),
        (#"{"type":"seat"}"#, "bad-message"),
        (#"{"type":"seat","role":"host"}"#, "bad-message"),
        (#"{"type":"seat","role":"player","player":5}"#, "bad-message"),
    ])
    func refusesMalformedPartyMessages(text: String, code: String) {
        #expect(errorCode(text) == code)
    }

    @Test(arguments: [
        ("not json", "bad-message"),
        ("[1,2]", "bad-message"),
        (#"{"kind":"guess"}"#, "bad-message"),
        (#"{"type":"dance"}"#, "unknown-type"),
        (#"{"type":"guess"}"#, "bad-message"),
        (#"{"type":"guess","letter":5}"#, "bad-message"),
        (#"{"type":"join","code":"IO10","name":"x"}"#, "bad-code"),
        (#"{"type":"join","code":"QHTW"}"#, "bad-message"),
        (#"{"type":"join","code":"QHTW","token":"xyz"}"#, "bad-message"),
        (#"{"type":"create","game":"chess","name":"x"}"#, "bad-message"),
        (#"{"type":"word","word":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}"#, "too-long"),
        (#"{"type":"chat","text":{"a":[[[[[[[[[[1]]]]]]]]]]}}"#, "bad-message"),
    ])
    func refusesMalformedMessages(text: String, code: String) {
        #expect(errorCode(text) == code)
    }

    @Test func refusesOversizedDocuments() {
        // A string longer than the parser's 8 KiB, and a document longer than its 12 KiB.
        let longString = #"{"type":"chat","text":"\#(String(repeating: "a", count: 8193))"}"#
        #expect(errorCode(longString) == "bad-message")
        let strings = (0..<3).map { #""s\#($0)":"\#(String(repeating: "a", count: 4100))""# }.joined(separator: ",")
        let longDocument = #"{"type":"create","game":"snowman","name":"Ana","settings":{\#(strings)}}"#
        #expect(longDocument.utf8.count > 12288)
        #expect(errorCode(longDocument) == "bad-message")
    }

    /// A host's list of 500 ten-letter words (the most a list holds), one a line, fits in one `settings` message.
    @Test func aFullCustomWordListFitsInOneMessage() throws {
        let words = (0..<500).map(tenLetterWord)
        #expect(Set(words).count == 500)
        let text = #"{"type":"settings","settings":{"customWords":"\#(words.joined(separator: "\\n"))"}}"#
        #expect(text.utf8.count > 5_000)
        guard case .settings(let settings) = try parse(text) else {
            Issue.record("not parsed as settings")
            return
        }
        #expect(settings["customWords"]?.stringValue?.split(separator: "\n").count == 500)
    }

}

@Suite struct RoomCodeTests {
    @Test func acceptsCodesCaseInsensitively() {
        #expect(RoomCode(" qhtw ")?.rawValue == "QHTW")
    }

    @Test(arguments: ["QHT", "QHTWXY", "QHT1", "QHTO", "QHTI", "QHTL", "QHTU", "AQHT1", ""])
    func refusesLookAlikesAndWrongLengths(text: String) {
        #expect(RoomCode(text) == nil)
    }

    @Test func randomCodesUseTheWholeAlphabet() {
        var generator = SystemRandomNumberGenerator()
        var seen = Set<UInt8>()
        for _ in 0..<2000 {
            seen.formUnion(RoomCode.random(using: &generator).rawValue.utf8)
        }
        #expect(seen == Set(RoomCode.alphabet))
    }
}

@Suite struct ResumeTokenTests {
    @Test func roundTripsThroughText() throws {
        let token = ResumeToken.random()
        let parsed = try #require(ResumeToken(token.description))
        #expect(parsed.matches(token))
        #expect(token.description.count == 32)
    }

    @Test func freshTokensDiffer() {
        #expect(!ResumeToken.random().matches(ResumeToken.random()))
    }

    @Test(arguments: ["", "0123", String(repeating: "g", count: 32), String(repeating: "0", count: 33)])
    func refusesMalformedText(text: String) {
        #expect(ResumeToken(text) == nil)
    }
}

@Suite struct ShardedRoomCodeTests {
    @Test func shardCodesStartWithTheShardLetter() {
        var generator = SystemRandomNumberGenerator()
        for shard in [0, 1, 21] {
            let code = RoomCode.random(shard: shard, using: &generator)
            #expect(code.rawValue.count == 5)
            #expect(code.shard == shard)
            #expect(code.rawValue.first.map(String.init) == String(decoding: [RoomCode.alphabet[shard]], as: UTF8.self))
        }
        #expect(RoomCode.random(using: &generator).shard == nil)
    }
}
