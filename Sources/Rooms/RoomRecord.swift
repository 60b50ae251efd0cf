import JSON
import WordGames

/// A room as saved in the data directory: everything needed to bring it back after a restart, including the
/// secret word (the data directory is the server's own) and the players' resume tokens.
///
/// Written as one JSON object (`json`), with the game's snapshot as a JSON value of its own. The reader also
/// takes the records of earlier formats (`init(saved:format:)`).
struct RoomRecord: Sendable {
    struct MemberRecord: Sendable, Equatable {
        var id: String
        var name: String
        var token: String
        var isSpectator: Bool
        /// Absent in records saved before bans by browser id.
        var client: String?
    }

    struct BanRecord: Sendable, Equatable {
        var id: String
        var name: String
        var token: String
        var client: String?
        /// Absent in records saved before bans by address, and for removals from loopback.
        var address: String? = nil
    }

    var code: String
    var isPublic: Bool
    /// A private room's `RoomKey`; absent for public rooms and in records saved before keys.
    var key: String?
    /// The game's kind and its `RoomGame.snapshot`.
    var game: String
    var snapshot: JSONValue
    var members: [MemberRecord]
    var host: String?
    var chat: [ChatLine]
    var chatCounter: Int
    var memberCounter: Int
    /// Nil in records saved before bans had names; then `kicked` has their tokens.
    var bans: [BanRecord]?
    /// Tokens of removed players, read from records saved before bans had names (no longer written).
    var kicked: [String] = []
    var banCounter: Int?
    /// Each browser's member id after its seat went (`RoomMembership.pastSeats`), client id to member id; nil when none
    /// (and in records saved before seats followed the browser).
    var pastSeats: [String: String]? = nil
    var locked: Bool?
    /// The last `RoomGame.resultNotice` number announced; nil in records saved before result notices.
    var announcedResult: Int?
    var random: SplitMix64
    var seq: Int
    /// The state at `seq` as clients saw it, in records of format 2 and before. Records of format 3 leave it out
    /// (it was half of every record, and a busy room is written once a second) and name `connected` instead:
    /// the state at `seq` is then rebuilt from the record, as the room built it.
    var state: JSONValue?
    /// The members who had a connection when the record was taken (format 3): the one part of the state at
    /// `seq` that the rest of the record does not hold.
    var connected: [String]?
    /// Increases with every record written for this room; on replay the highest wins.
    var version: Int

    /// The game brought back from its snapshot.
    func game(lists: WordLists) throws(SavedObject.Unreadable) -> any RoomGame {
        try GameRegistry.restore(game, snapshot: snapshot, lists: lists)
    }

    // MARK: JSON

    var json: JSONValue {
        var object: JSONObject = [
            "code": JSONValue(code),
            "isPublic": JSONValue(isPublic),
            "game": JSONValue(game),
            "snapshot": snapshot,
            "members": .array(members.map { member -> JSONValue in
                var object: JSONObject = [
                    "id": JSONValue(member.id), "name": JSONValue(member.name), "token": JSONValue(member.token),
                    "isSpectator": JSONValue(member.isSpectator),
                ]
                if let client = member.client { object["client"] = JSONValue(client) }
                return .object(object)
            }),
            "host": nullable(host),
            "chat": .array(chat.map(\.savedJSON)),
            "chatCounter": JSONValue(chatCounter),
            "memberCounter": JSONValue(memberCounter),
        ]
        if let bans {
            object["bans"] = .array(bans.map { ban -> JSONValue in
                var object: JSONObject = ["id": JSONValue(ban.id), "name": JSONValue(ban.name),
                                          "token": JSONValue(ban.token)]
                if let client = ban.client { object["client"] = JSONValue(client) }
                if let address = ban.address { object["address"] = JSONValue(address) }
                return .object(object)
            })
        }
        if let key { object["key"] = JSONValue(key) }
        if let banCounter { object["banCounter"] = JSONValue(banCounter) }
        if let pastSeats {
            var seats = JSONObject()
            for (client, id) in pastSeats.sorted(by: { $0.key < $1.key }) { seats[client] = JSONValue(id) }
            object["pastSeats"] = .object(seats)
        }
        if let locked { object["locked"] = JSONValue(locked) }
        if let announcedResult { object["announcedResult"] = JSONValue(announcedResult) }
        // The generator's 64 bits as a signed integer: JSON integers beyond Int64 would come back rounded.
        object["random"] = .integer(Int64(bitPattern: random.state))
        object["seq"] = JSONValue(seq)
        if let state { object["state"] = state }
        if let connected { object["connected"] = .array(connected.map { JSONValue($0) }) }
        object["version"] = JSONValue(version)
        return .object(object)
    }

    /// Reads a record back.
    ///
    /// - Parameter format: the record's `JournalEntry` format. 1 is the Codable journal's: the game is
    ///   `{"snowman": {"_0": ...}}`, the state a JSON string, the generator `{"state": n}`. 2 holds the state
    ///   as a JSON value; 3 leaves it out and names the members then `connected`.
    init(saved value: JSONValue, format: Int) throws(SavedObject.Unreadable) {
        let legacy = format < 2
        let saved = try SavedObject(value, "room")
        code = try saved.string("code")
        isPublic = try saved.bool("isPublic")
        key = try saved.optionalString("key")
        if legacy {
            // Swift's synthesized Codable writes an enum case with one unnamed value as {"case": {"_0": value}}.
            let wrapper = try saved.object("game")
            guard wrapper.members.count == 1, let (kind, payload) = wrapper.members.first else {
                throw SavedObject.Unreadable("the room's game is not one saved game")
            }
            game = kind
            snapshot = try SavedObject(payload, "saved \(kind) game").value("_0")
        } else {
            game = try saved.string("game")
            snapshot = try saved.value("snapshot")
        }
        members = try saved.objects("members") { (member) throws(SavedObject.Unreadable) in
            MemberRecord(id: try member.string("id"), name: try member.string("name"),
                         token: try member.string("token"), isSpectator: try member.bool("isSpectator"),
                         client: try member.optionalString("client"))
        }
        host = try saved.optionalString("host")
        chat = try saved.objects("chat", ChatLine.init(saved:))
        chatCounter = try saved.int("chatCounter")
        memberCounter = try saved.int("memberCounter")
        kicked = try saved.optionalArray("kicked", SavedObject.stringEntry) ?? []
        bans = try saved.optionalObjects("bans") { (ban) throws(SavedObject.Unreadable) in
            BanRecord(id: try ban.string("id"), name: try ban.string("name"), token: try ban.string("token"),
                      client: try ban.optionalString("client"), address: try ban.optionalString("address"))
        }
        banCounter = try saved.optionalInt("banCounter")
        if let seats = saved.optional("pastSeats") {
            guard let object = seats.objectValue else {
                throw SavedObject.Unreadable("the browsers' past seats are not an object")
            }
            var read: [String: String] = [:]
            for (client, id) in object {
                guard let text = id.stringValue else {
                    throw SavedObject.Unreadable("the past seat of a browser is not a member id")
                }
                read[client] = text
            }
            pastSeats = read
        }
        locked = try saved.optionalBool("locked")
        announcedResult = try saved.optionalInt("announcedResult")
        seq = try saved.int("seq")
        version = try saved.int("version")
        if legacy {
            // A UInt64 beyond Int64.max was written as a plain number and is read back as a Double, rounded: the
            // room's next random picks differ from the old server's, which nobody can tell.
            let number = try saved.object("random").value("state")
            guard let bits = number.int64Value.map({ UInt64(bitPattern: $0) })
                    ?? number.doubleValue.map({ $0 <= 0 ? 0 : $0 < 0x1p64 ? UInt64($0) : UInt64.max }) else {
                throw SavedObject.Unreadable("the room's random generator has no state")
            }
            random = SplitMix64(seed: bits)
            do {
                state = try JSONParser(limits: RoomJournal.recordLimits).parse(try saved.string("state"))
            } catch {
                throw SavedObject.Unreadable("the room's saved state is not JSON: \(error)")
            }
        } else {
            guard let bits = try saved.value("random").int64Value else {
                throw SavedObject.Unreadable("the room's random generator is not a 64-bit integer")
            }
            random = SplitMix64(seed: UInt64(bitPattern: bits))
            if format < 3 {
                state = try saved.value("state")
            } else {
                connected = try saved.optionalArray("connected", SavedObject.stringEntry) ?? []
            }
        }
    }

    init(code: String, isPublic: Bool, game: String, snapshot: JSONValue, members: [MemberRecord], host: String?,
         chat: [ChatLine], chatCounter: Int, memberCounter: Int, bans: [BanRecord]?, banCounter: Int?,
         locked: Bool?, announcedResult: Int? = nil, random: SplitMix64, seq: Int, state: JSONValue? = nil,
         connected: [String]? = nil, version: Int, key: String? = nil) {
        self.code = code
        self.key = key
        self.isPublic = isPublic
        self.game = game
        self.snapshot = snapshot
        self.members = members
        self.host = host
        self.chat = chat
        self.chatCounter = chatCounter
        self.memberCounter = memberCounter
        self.bans = bans
        self.banCounter = banCounter
        self.locked = locked
        self.announcedResult = announcedResult
        self.random = random
        self.seq = seq
        self.state = state
        self.connected = connected
        self.version = version
    }
}

extension ChatLine {
    /// The line as saved: `player` and `name` left out for the room's own lines.
    var savedJSON: JSONValue {
        var object: JSONObject = ["id": JSONValue(id)]
        if let player { object["player"] = JSONValue(player.rawValue) }
        if let name { object["name"] = JSONValue(name) }
        object["text"] = JSONValue(text)
        object["at"] = JSONValue(at)
        if let notice { object["notice"] = JSONValue(notice.rawValue) }
        return .object(object)
    }

    /// An unknown `notice` (from a newer server) reads as none: the line itself still shows.
    init(saved: SavedObject) throws(SavedObject.Unreadable) {
        self.init(id: try saved.int("id"), player: try saved.optionalString("player").map { PlayerID($0) },
                  name: try saved.optionalString("name"), text: try saved.string("text"), at: try saved.double("at"),
                  notice: try saved.optionalString("notice").flatMap(ChatNotice.init(rawValue:)))
    }
}

extension RoomMachine {
    /// This room as a record to save.
    func record(version: Int) -> RoomRecord {
        let members = membership.members
        var saved = RoomRecord(
            code: code.rawValue, isPublic: isPublic, game: kind.rawValue, snapshot: game.snapshot,
            members: members.map {
                .init(id: $0.id.rawValue, name: $0.name, token: $0.token.description, isSpectator: $0.isSpectator,
                      client: $0.client?.rawValue)
            },
            host: hostControls.host?.rawValue, chat: chat.lines, chatCounter: chat.counter,
            memberCounter: membership.memberCounter,
            bans: hostControls.bans.map {
                .init(id: $0.id, name: $0.name, token: $0.token.description, client: $0.client?.rawValue,
                      address: $0.address)
            },
            banCounter: hostControls.banCounter, locked: hostControls.locked, announcedResult: chat.announcedResult,
            random: random, seq: publication.seq,
            connected: members.compactMap { $0.linkID == nil ? nil : $0.id.rawValue }, version: version,
            key: key?.rawValue)
        if !membership.pastSeats.isEmpty {
            saved.pastSeats = Dictionary(uniqueKeysWithValues: membership.pastSeats.map {
                ($0.key.rawValue, $0.value.rawValue)
            })
        }
        return saved
    }

    /// Brings the room back: every member is away (their connections died with the old process) and has the
    /// usual grace period to resume from now; one patch records that, so clients resuming at the saved `seq`
    /// get exactly what changed.
    mutating func restore(from record: RoomRecord, now: Double, into effects: inout [RoomEffect]) throws {
        membership.members = try record.members.map { saved in
            guard let token = ResumeToken(saved.token) else { throw RestoreError.badToken }
            var member = Member(id: PlayerID(saved.id), name: saved.name, token: token,
                                client: saved.client.flatMap(ClientID.init), isSpectator: saved.isSpectator,
                                link: nil, disconnectedAt: now)
            member.restoredSeq = record.seq
            return member
        }
        hostControls.host = record.host.map { PlayerID($0) }
        chat.lines = record.chat
        chat.counter = record.chatCounter
        membership.memberCounter = record.memberCounter
        if let saved = record.bans {
            hostControls.bans = saved.compactMap { ban in
                ResumeToken(ban.token).map {
                    Ban(id: ban.id, name: ban.name, token: $0, client: ban.client.flatMap(ClientID.init),
                        address: ban.address)
                }
            }
            hostControls.banCounter = record.banCounter ?? hostControls.bans.count
        } else {
            hostControls.bans = record.kicked.compactMap(ResumeToken.init).enumerated().map { index, token in
                Ban(id: "b\(index + 1)", name: "Removed player", token: token, client: nil)
            }
            hostControls.banCounter = hostControls.bans.count
        }
        hostControls.locked = record.locked ?? false
        for (client, id) in record.pastSeats ?? [:] {
            if let client = ClientID(client) { membership.pastSeats[client] = PlayerID(id) }
        }
        // A record from before result notices: the game's latest result was shown in its state already.
        chat.announcedResult = record.announcedResult ?? game.resultNotice?.number ?? 0
        random = record.random
        publication.seq = record.seq
        // Versions go on from the record's: the data directory still holds it (and maybe older ones), and on the
        // next start the highest version of a room wins. Counting again from 1 made the records of this process
        // lose to the one restored from until they outnumbered it, so a crash brought back the older state.
        publication.persistedVersion = record.version
        if let saved = record.state {
            state = saved
        } else {
            // Rebuilt as the old process built it: the same parts, the same builder, the members shown as they
            // were connected then. The builder goes on from there, so the publish below rebuilds and diffs only
            // the members (another version than the one built here) to tell clients that everyone is away.
            var builder = RoomStateBuilder(keepingEntries: false)
            var parts = stateParts(game: game)
            parts.shownConnected = Set((record.connected ?? []).map { PlayerID($0) })
            parts.membersVersion &-= 1
            _ = builder.update(parts)
            publication.restore(builtBy: builder)
        }
        publish(now: now, into: &effects)
        effects.append(.saveRestored)
        scheduleTimer(now: now, into: &effects)
    }

    enum RestoreError: Error {
        case badToken
    }
}
