import Foundation
import JSON
import Rooms
import Testing
import WordGames
@testable import WordRoomsServer

/// Each room's patches are compressed once in one shared deflate stream (RFC 7692 with context takeover) and a
/// member that negotiated compression is sent them compressed only while it is in step with the stream; everything
/// else goes plain. This checks that from the outside, over real sockets, under a random schedule per seed: joins
/// (players and spectators, mid-game), Snowman guesses and Word Scramble words, chat bursts, leaves and rejoins on
/// the same socket (also right behind the `leave`, so two rooms' messages interleave), dropped connections resumed
/// with token and `seq` (replays) or without, `resync`, a client on a slow link that stops reading (it catches up,
/// or is cut off with 1008), clients that offer nothing, and clients whose offer rules the streams out
/// (`server_max_window_bits=10`, `server_no_context_takeover`).
///
/// Each client does its own framing and zlib (`DeflateRoomClient`) and fails at the first message that does not
/// inflate, comes compressed without being a patch or to a client that cannot take it, or breaks the patch
/// sequence. At the end every connected replica must equal a snapshot taken for it (fresh observers included),
/// compressed messages must have flowed both ways, and each room's stream must have started afresh only for its
/// newcomers (a member that cannot follow it must not make it restart for everyone).
@Suite struct CompressedRoomStreamTests {
    static let steps = 300

    @Test(.serialized, arguments: [1, 2, 3, 4] as [UInt64])
    func everyReplicaInflatesEveryPatchAndEndsOnTheRoomState(seed: UInt64) async throws {
        var rooms = RoomConfiguration()
        // Disconnected players' turns pass on soon: the room then publishes on its own, between the clients' moves.
        rooms.awayTurnSeconds = 1
        // A short history: some resumes get their missed patches replayed, the others the whole state.
        rooms.patchHistory = 24
        var limits = GameLimits()
        limits.messagesPerSecond = 10_000
        limits.messageBurst = 10_000
        limits.handshakesPerSecond = 10_000
        try await withServer(maxMessageBytes: 4 * 1024, rooms: rooms, limits: limits, options: { options in
            // A client on a slow link (small socket buffers at both ends) that stops reading backs up into the
            // server's queue and is cut off (1008) after some kilobytes; one that reads again sooner catches up.
            options.maxOutboundBytes = 8 * 1024
        }) { server in
            let run = try RoomStreamRun(seed: seed, port: server.port)
            defer { run.closeAll() }
            try run.setUp()
            for step in 0..<Self.steps {
                try run.perform(step: step)
            }
            try run.finish()
        }
    }
}

/// One seeded schedule against one server: which client does what, and the bookkeeping the checks need. The
/// choices come from the seed; the order in which the server's threads interleave them does not (nothing here
/// depends on it but the moves' content, picked from the replicas).
private final class RoomStreamRun {
    /// A seat whose connection dropped: its last connection keeps the replica to resume from.
    private struct DroppedSeat {
        let client: DeflateRoomClient
        let code: String
        let token: String
    }

    private var random: SplitMix64
    private let port: Int
    private let lexicon: Lexicon
    private var wordsByRoot: [String: [String]] = [:]
    private var codes: [String] = []
    /// Every connection ever opened, for the counts checked at the end.
    private var everyone: [DeflateRoomClient] = []
    /// Open connections, in a room or in the lobby.
    private var live: [DeflateRoomClient] = []
    private var dropped: [DroppedSeat] = []
    /// The client that stopped reading, and the step at which it reads again.
    private var paused: (client: DeflateRoomClient, until: Int)?
    private var labels = 0
    /// One spectator per room that takes its stream and only reads, from the start to the end.
    private var witnesses: [DeflateRoomClient] = []
    /// Joins and resumes of clients that take the streams, per room: each may restart the room's stream once.
    private var streamEntries: [String: Int] = [:]
    /// Clients on a slow link: only they may be closed by the server (1008, too slow).
    private var slowLinks: Set<ObjectIdentifier> = []

    init(seed: UInt64, port: Int) throws {
        random = SplitMix64(seed: seed)
        self.port = port
        lexicon = try WordLists.bundled().lexicon
    }

    func closeAll() {
        for client in everyone { client.abort() }
    }

    // MARK: The schedule

    func setUp() throws {
        let snowmanHost = try connect(mode: .deflate(inflaterBits: 11, deflaterBits: 15))
        try snowmanHost.join(["type": "create", "game": "snowman", "name": "Ana",
                              "settings": ["maxWrongGuesses": 10, "turnSeconds": 0]])
        let scrambleHost = try connect(mode: randomMode())
        try scrambleHost.join(["type": "create", "game": "scramble", "name": "Bea",
                               "settings": ["rounds": 3, "roundSeconds": 300, "minWordLength": 3]])
        for host in [snowmanHost, scrambleHost] {
            guard let code = host.code else {
                throw DeflateRoomClient.Violation(description: "create refused: \(host.errors)")
            }
            codes.append(code)
        }
        try scrambleHost.send(["type": "new_game"])
        for code in codes {
            let witness = try connect(mode: .deflate(inflaterBits: 11, deflaterBits: 15), slowLink: false,
                                      listed: false)
            if let refusal = try witness.join(["type": "join", "code": JSONValue(code), "name": "Witness",
                                               "spectator": true]) {
                throw DeflateRoomClient.Violation(description: "witness refused: \(refusal)")
            }
            witnesses.append(witness)
        }
        for index in 0..<4 { try joinNewcomer(name: "Early\(index)") }
    }

    func perform(step: Int) throws {
        if let paused, step >= paused.until {
            self.paused = nil
        }
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<8: try joinNewcomer(name: "N\(step)")
        case 8..<26: try chat(step: step)
        case 26..<50: try move()
        case 50..<55: try resync()
        case 55..<60: try leave(step: step)
        case 60..<68: try disconnect()
        case 68..<76: try resume()
        case 76..<80: try pause(step: step)
        case 80..<84: try joinFromLobby(step: step)
        case 84..<86: try lobbyOrPing(step: step)
        case 86..<92: try burst(step: step)
        default: try hostAction()
        }
        try pumpAll()
    }

    /// Lets every reader catch up, brings the dropped seats back, adds a fresh observer per room, and compares
    /// every connected replica with a snapshot taken for it.
    func finish() throws {
        paused = nil
        try pumpAll()
        while !dropped.isEmpty { try resume() }
        for code in codes {
            let observer = try connect(mode: .deflate(inflaterBits: 11, deflaterBits: 9))
            if let refusal = try observer.join(["type": "join", "code": JSONValue(code), "name": "Observer",
                                                "spectator": true]) {
                throw DeflateRoomClient.Violation(description: "observer refused: \(refusal)")
            }
            streamEntries[code, default: 0] += 1
        }
        for client in witnesses + live where client.inRoom {
            let compared: (replica: DeflateRoomClient.Replica, snapshot: DeflateRoomClient.Replica)
            do {
                compared = try client.compareWithSnapshot()
            } catch {
                // The reader that stopped may still be cut off while it catches up.
                guard client.isClosed && isAcceptableClose(of: client) else { throw error }
                continue
            }
            #expect(compared.replica.seq == compared.snapshot.seq, "\(client.label) [\(client.mode)]")
            #expect(compared.replica.state == compared.snapshot.state,
                    "\(client.label) [\(client.mode)]: replica differs from the snapshot")
        }
        // Every fresh start of a room's stream is one newcomer's (or the stream's first message): a member that
        // cannot take the stream never makes it restart for everyone.
        // (The slack covers a message that happens to refer to nothing before it.)
        for (witness, code) in zip(witnesses, codes) {
            let newcomers = streamEntries[code, default: 0]
            let fresh = "\(witness.selfContainedMessages) of \(witness.compressedMessages) compressed messages"
            #expect(witness.selfContainedMessages <= newcomers + 3,
                    "\(witness.label): \(fresh) were fresh starts, for \(newcomers) newcomers")
        }
        let compressing = everyone.filter(\.compresses)
        #expect(compressing.map(\.compressedMessages).reduce(0, +) > 0, "no compressed message at all")
        #expect(compressing.map(\.compressedSent).reduce(0, +) > 0, "no client sent a compressed message")
        for client in compressing where client.takesStreams && client.livePatches > 0 {
            #expect(client.compressedMessages > 0, "\(client.label) got \(client.livePatches) patches, none compressed")
        }
        for client in everyone where !client.takesStreams {
            #expect(client.compressedMessages == 0, "\(client.label) [\(client.mode)] got RSV1")
        }
        // Compressed client messages that the server misread would be answered as malformed.
        let misread = everyone.flatMap(\.errors).filter {
            ["bad-message", "unknown-type", "too-long"].contains($0["code"]?.stringValue ?? "")
        }
        #expect(misread.isEmpty, "\(misread)")
    }

    // MARK: Actions

    private func joinNewcomer(name: String) throws {
        guard live.count < 14 else { return try chat(step: 0) }
        let client = try connect(mode: randomMode())
        try join(client, name: name)
    }

    /// A client in the lobby joins a room as a new member: its connection moves from one room's stream to another
    /// (or back to the same room's).
    private func joinFromLobby(step: Int) throws {
        let inLobby = active.filter { !$0.inRoom }
        guard let client = inLobby.randomElement(using: &random) else { return try joinNewcomer(name: "N\(step)") }
        try join(client, name: "L\(step)")
    }

    private func join(_ client: DeflateRoomClient, name: String) throws {
        let code = codes.randomElement(using: &random)!
        let spectator = Int.random(in: 0..<4, using: &random) == 0
        let message: JSONValue = ["type": "join", "code": JSONValue(code), "name": JSONValue(name),
                                  "spectator": JSONValue(spectator)]
        let compressed = chance(70)
        if client.takesStreams { streamEntries[code, default: 0] += 1 }
        try exchange(client) {
            if let refusal = try client.join(message, compressed: compressed) {
                guard refusal["code"]?.stringValue == "room-full" else {
                    throw DeflateRoomClient.Violation(description: "\(client.label): join refused: \(refusal)")
                }
                try client.join(["type": "join", "code": JSONValue(code), "name": JSONValue(name), "spectator": true])
            }
        }
    }

    /// Messages outside any room's stream: a `lobby` subscription (its updates keep coming, plain, in the lobby
    /// and in rooms) or a `ping`.
    private func lobbyOrPing(step: Int) throws {
        guard let client = active.randomElement(using: &random) else { return }
        if chance(50) {
            try client.send(["type": "lobby", "subscribe": JSONValue(chance(70))], compressed: chance(50))
        } else {
            try client.send(["type": "ping", "id": JSONValue(step)], compressed: chance(50))
        }
    }

    private func chat(step: Int) throws {
        guard let client = member() else { return }
        try client.send(["type": "chat", "text": JSONValue(chatLine(step: step))], compressed: chance(70),
                        fragmented: chance(10))
    }

    /// Several chat lines in a row, of text that compresses poorly; many while a reader has stopped, which then
    /// falls behind by some kilobytes to some tens of kilobytes.
    private func burst(step: Int) throws {
        let lines = paused == nil ? Int.random(in: 3...6, using: &random) : Int.random(in: 10...50, using: &random)
        for _ in 0..<lines {
            guard let client = member() else { return }
            let letters = Array("abcdefghijklmnopqrstuvwxyz     ")
            let text = String((0..<Int.random(in: 120...190, using: &random)).map { _ in
                letters.randomElement(using: &random)!
            })
            try client.send(["type": "chat", "text": JSONValue("\(step) \(text)")], compressed: chance(70))
        }
    }

    /// A game move by a player of one room: the Snowman player whose turn it is guesses an unguessed letter (and
    /// now and then someone out of turn), a Word Scramble player submits a word of the root or a made-up one,
    /// and the host starts the next game once one is over.
    private func move() throws {
        let code = codes.randomElement(using: &random)!
        let players = active.filter { $0.inRoom && $0.code == code && ($0.you?.hasPrefix("p") ?? false) }
        guard let anyone = players.randomElement(using: &random) else { return }
        let compressed = chance(70)
        if let snowman = anyone.state["snowman"] {
            guard snowman["status"]?.stringValue == "inProgress" else {
                if let host = host(of: code) { try host.send(["type": "new_game"], compressed: compressed) }
                return
            }
            let onTurn = players.first { $0.state["snowman"]?["turn"]?.stringValue == $0.you }
            let guesser = chance(85) ? onTurn ?? anyone : anyone
            let guessed = Set((guesser.state["snowman"]?["guesses"]?.arrayValue ?? []).compactMap {
                $0["letter"]?.stringValue?.lowercased()
            })
            let letters = "abcdefghijklmnopqrstuvwxyz".map(String.init).filter { !guessed.contains($0) }
            let letter = letters.randomElement(using: &random) ?? "e"
            try guesser.send(["type": "guess", "letter": JSONValue(letter)], compressed: compressed,
                             fragmented: chance(10))
        } else if let scramble = anyone.state["scramble"] {
            guard scramble["phase"]?.stringValue == "playing",
                  let root = scramble["root"]?.stringValue?.lowercased() else {
                if let host = host(of: code) { try host.send(["type": "new_game"], compressed: compressed) }
                return
            }
            let found = Set((scramble["found"]?.arrayValue ?? []).compactMap { $0["word"]?.stringValue?.lowercased() })
            let words = wordsOf(root).filter { !found.contains($0) }
            let word: String
            if chance(75), let valid = words.randomElement(using: &random) {
                word = valid
            } else {
                word = String(root.shuffled(using: &random).prefix(Int.random(in: 3...6, using: &random)))
            }
            try anyone.send(["type": "word", "word": JSONValue(word)], compressed: compressed)
        }
    }

    private func hostAction() throws {
        let code = codes.randomElement(using: &random)!
        guard let host = host(of: code) else { return }
        if host.state["snowman"] != nil {
            if chance(50) {
                try host.send(["type": "skip"], compressed: chance(50))
            } else {
                let wrongGuesses = Int.random(in: 3...10, using: &random)
                try host.send(["type": "settings", "settings": ["maxWrongGuesses": JSONValue(wrongGuesses)]],
                              compressed: chance(50))
            }
        } else {
            let length = Int.random(in: 3...5, using: &random)
            try host.send(["type": "settings", "settings": ["minWordLength": JSONValue(length)]],
                          compressed: chance(50))
        }
    }

    private func resync() throws {
        try member()?.requestSnapshot(compressed: chance(50))
    }

    /// A member leaves for good and gets `left`; its socket then joins a room again, stays in the lobby, or
    /// closes. Or it joins a room right behind its `leave`, without waiting for `left`.
    private func leave(step: Int) throws {
        guard let client = member() else { return }
        if chance(30) {
            let code = codes.randomElement(using: &random)!
            if client.takesStreams { streamEntries[code, default: 0] += 1 }
            let message: JSONValue = ["type": "join", "code": JSONValue(code), "name": JSONValue("H\(step)"),
                                      "spectator": JSONValue(chance(25))]
            let compressed = chance(50)
            let switched = try exchange(client) {
                guard try client.switchRoomsWithoutWaiting(message, compressed: compressed) else {
                    throw DeflateRoomClient.Violation(description: "\(client.label): join refused: \(client.errors)")
                }
            }
            // Cut off halfway, it is unclear which seat it holds: it is not resumed.
            if !switched { live.removeAll { $0 === client } }
            return
        }
        let before = client.lefts
        try client.send(["type": "leave"], compressed: chance(50))
        guard try exchange(client, { try client.wait(for: "left") { client.lefts > before } }) else {
            // Cut off before `left`: the seat may be given up already, so it is not resumed.
            live.removeAll { $0 === client }
            return
        }
        switch Int.random(in: 0..<3, using: &random) {
        case 0: try join(client, name: "R\(step)")
        case 1: break
        default:
            client.abort()
            live.removeAll { $0 === client }
        }
    }

    /// A member's connection drops without a close; its seat waits for a resume.
    private func disconnect() throws {
        guard let client = member(), let code = client.code, let token = client.token else { return }
        client.abort()
        live.removeAll { $0 === client }
        dropped.append(DroppedSeat(client: client, code: code, token: token))
    }

    /// A dropped seat comes back on a new connection (compressing or not), mostly with its `seq` so that the room
    /// replays what it missed (or sends the whole state when its history no longer reaches back).
    private func resume() throws {
        guard !dropped.isEmpty else { return }
        let seat = dropped.remove(at: Int.random(in: 0..<dropped.count, using: &random))
        let client = try connect(mode: randomMode())
        var message: JSONObject = ["type": "join", "code": JSONValue(seat.code), "token": JSONValue(seat.token)]
        if chance(80) {
            // With its `seq`, the room replays what the seat missed (or sends the state if that is too long ago).
            client.adoptReplica(of: seat.client)
            message["seq"] = JSONValue(seat.client.seq)
        }
        let compressed = chance(60)
        if client.takesStreams { streamEntries[seat.code, default: 0] += 1 }
        try exchange(client) {
            if let refusal = try client.join(.object(message), compressed: compressed) {
                throw DeflateRoomClient.Violation(description: "\(client.label): resume refused: \(refusal)")
            }
        }
    }

    /// A client stops reading for a while (preferably one with a small receive buffer, which backs up fast).
    private func pause(step: Int) throws {
        let small = active.filter { $0.inRoom && slowLinks.contains(ObjectIdentifier($0)) }
        guard paused == nil, let client = chance(70) ? small.randomElement(using: &random) ?? member() : member() else {
            return
        }
        paused = (client, step + Int.random(in: 10...80, using: &random))
        // Requests sent just before it stopped: their snapshots (plain, kilobytes each) queue up between the
        // room's compressed patches.
        for _ in 0..<Int.random(in: 0...6, using: &random) {
            try client.requestSnapshot(compressed: chance(50))
        }
    }

    // MARK: Helpers

    /// Connections the schedule may use now: open and reading.
    private var active: [DeflateRoomClient] {
        live.filter { $0 !== paused?.client }
    }

    private func member() -> DeflateRoomClient? {
        active.filter(\.inRoom).randomElement(using: &random)
    }

    private func host(of code: String) -> DeflateRoomClient? {
        active.first { $0.inRoom && $0.code == code && $0.you != nil && $0.state["host"]?.stringValue == $0.you }
    }

    private func chance(_ percent: Int) -> Bool {
        Int.random(in: 0..<100, using: &random) < percent
    }

    private func randomMode() -> DeflateRoomClient.Mode {
        let roll = Int.random(in: 0..<100, using: &random)
        let deflaterBits = Int.random(in: 9...15, using: &random)
        switch roll {
        case 0..<20: return .plain
        case 20..<27: return .narrowDeflate(deflaterBits: deflaterBits)
        case 27..<32: return .resettingDeflate(deflaterBits: deflaterBits)
        case 32..<65: return .deflate(inflaterBits: 11, deflaterBits: deflaterBits)
        default: return .deflate(inflaterBits: 15, deflaterBits: deflaterBits)
        }
    }

    /// Opens a connection; `listed` ones are open to the schedule's actions.
    private func connect(mode: DeflateRoomClient.Mode, slowLink: Bool? = nil,
                         listed: Bool = true) throws -> DeflateRoomClient {
        labels += 1
        // A third of the clients are on a slow link, so that one of them that stops reading is cut off.
        let small = slowLink ?? (Int.random(in: 0..<3, using: &random) == 0)
        let client = try DeflateRoomClient(label: "c\(labels)\(small ? "s" : "")", port: port, mode: mode,
                                           receiveBuffer: small ? 4096 : nil)
        if small {
            guard client.shrinkServerSendBuffer(serverPort: port) else {
                throw DeflateRoomClient.Violation(description: "\(client.label): the server's socket was not found")
            }
            slowLinks.insert(ObjectIdentifier(client))
        }
        everyone.append(client)
        if listed { live.append(client) }
        return client
    }

    private func chatLine(step: Int) -> String {
        let words = ["nice", "guess", "again", "who", "is", "next", "wow", "close", "one", "letter", "more"]
        return (0..<Int.random(in: 1...8, using: &random)).map { _ in words.randomElement(using: &random)! }
            .joined(separator: " ") + " \(step)"
    }

    private func wordsOf(_ root: String) -> [String] {
        if let words = wordsByRoot[root] { return words }
        let words = lexicon.words(spelledFrom: root, minimumLength: 3).filter { $0 != root }
        wordsByRoot[root] = words
        return words
    }

    /// Reads what every reading client has received. A client the server closed must be one on a slow link
    /// (`isAcceptableClose`); its seat is then resumed later like any dropped one.
    private func pumpAll() throws {
        for client in witnesses + active {
            try client.drain()
        }
        for client in live where client.isClosed {
            guard isAcceptableClose(of: client) else {
                throw DeflateRoomClient.Violation(description: "\(client.label) [\(client.mode)] closed by the "
                                                  + "server (\(client.closeCode.map(String.init) ?? "no code"))")
            }
            live.removeAll { $0 === client }
            if client.inRoom, let code = client.code, let token = client.token {
                dropped.append(DroppedSeat(client: client, code: code, token: token))
            }
        }
    }

    /// Runs an exchange that waits for the server's answer. A slow-link client cut off meanwhile ends it early;
    /// `pumpAll` then takes the closure like a dropped connection.
    ///
    /// - Returns: whether the exchange completed.
    @discardableResult
    private func exchange(_ client: DeflateRoomClient, _ body: () throws -> Void) throws -> Bool {
        do {
            try body()
            return true
        } catch {
            guard client.isClosed && isAcceptableClose(of: client) else { throw error }
            return false
        }
    }

    /// Only a client on a slow link may be cut off: with 1008 (too slow), or dropped before that close frame
    /// reached it because it still did not read.
    private func isAcceptableClose(of client: DeflateRoomClient) -> Bool {
        slowLinks.contains(ObjectIdentifier(client)) && (client.closeCode == 1008 || client.endedWithoutCloseFrame)
    }
}
